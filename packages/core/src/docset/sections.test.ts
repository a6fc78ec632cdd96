import { describe, expect, it } from 'vitest';
import type { RenderedPage } from '../ports/renderer.js';
import { extractRenderedSection, sectionNames } from './sections.js';

/** A render as `@kit/render` gives it: the agent Markdown and the sections of its top-level headings. */
function rendered(markdown: string, headings: Array<[heading: string, anchor: string, depth: number]>): RenderedPage {
  return {
    html: '',
    markdown,
    toc: headings.filter(([, , depth]) => depth > 1).map(([text, id, depth]) => ({ depth, text, id })),
    sections: headings.map(([heading, anchor, depth]) => ({
      heading,
      headingPath: [heading],
      anchor,
      depth,
      text: '',
    })),
    anchors: headings.map(([, anchor]) => anchor),
    links: [],
    problems: [],
  };
}

const page = rendered(
  [
    '# Sections',
    '',
    '## Usage',
    '',
    'first usage',
    '',
    '## Usage',
    '',
    'second usage',
    '',
    'Setext Heading',
    '--------------',
    '',
    'setext body',
    '',
    '## Tail',
    '',
    'tail',
    '',
  ].join('\n'),
  [
    ['Sections', 'sections', 1],
    ['Usage', 'usage', 2],
    ['Usage', 'usage-1', 2],
    ['Setext Heading', 'setext-heading', 2],
    ['Tail', 'tail', 2],
  ],
);

describe('extractRenderedSection', () => {
  it('finds a section under a setext heading by its text and by its anchor', () => {
    const expected = 'Setext Heading\n--------------\n\nsetext body';
    expect(extractRenderedSection(page, 'Setext Heading')).toBe(expected);
    expect(extractRenderedSection(page, 'setext-heading')).toBe(expected);
    expect(sectionNames(page)).toContain('Setext Heading');
  });

  it('ends the section before a setext heading at that heading', () => {
    expect(extractRenderedSection(page, 'usage-1')).toBe('## Usage\n\nsecond usage');
    expect(extractRenderedSection(page, 'Usage')).toBe('## Usage\n\nfirst usage');
  });

  it('reads === as a level 1 setext heading and keeps a heading written over several lines whole', () => {
    const twoLines = rendered('Guide\n=====\n\nintro\n\nFirst line\nsecond line\n---\n\nbody\n\nNext\n====\n\nend\n', [
      ['Guide', 'guide', 1],
      ['First line\nsecond line', 'first-linesecond-line', 2],
      ['Next', 'next', 1],
    ]);
    expect(extractRenderedSection(twoLines, 'Guide')).toBe(
      'Guide\n=====\n\nintro\n\nFirst line\nsecond line\n---\n\nbody',
    );
    expect(extractRenderedSection(twoLines, 'First line second line')).toBe('First line\nsecond line\n---\n\nbody');
  });

  it('does not take a thematic break, a fenced line or a list item over --- for a setext heading', () => {
    const markdown = [
      '## Start',
      '',
      'text',
      '',
      '---',
      '',
      '```md',
      'Inside a fence',
      '---',
      '```',
      '',
      '- a list item',
      '---',
      '',
      '> a quote',
      '---',
      '',
      '| a | b |',
      '| - | - |',
      '| c | d |',
      '',
      '## End',
      '',
    ].join('\n');
    const section = extractRenderedSection(
      rendered(markdown, [
        ['Start', 'start', 2],
        ['End', 'end', 2],
      ]),
      'start',
    );
    expect(section).toBe(markdown.slice(0, markdown.indexOf('## End')).trim());
  });
});
