import { describe, expect, it } from 'vitest';
import { extractSection, sectionsFromMarkdown } from './sections.js';

const page = [
  '# Routing',
  '',
  '- [Basic Routing](#basic-routing)',
  '',
  '<a name="basic-routing"></a>',
  '## Basic Routing',
  '',
  'The most basic routes accept a `URI`.',
  '',
  '<a name="route-group-middleware"></a>',
  '### Middleware',
  '',
  '```php',
  "Route::middleware(['first'])->group();",
  '```',
  '',
  '## Named Routes {#names}',
  '',
  'Named **routes** allow it.',
  '',
  '## Named Routes',
  '',
  'Again.',
  '',
].join('\n');

describe('sectionsFromMarkdown', () => {
  it('gives a heading the id of the <a name> line directly before it', () => {
    const sections = sectionsFromMarkdown(page);
    expect(sections.map((s) => s.anchor)).toEqual([
      'routing',
      'basic-routing',
      'route-group-middleware',
      'names',
      'named-routes',
    ]);
  });

  it('records the heading path, depth and plain text of each section', () => {
    const middleware = sectionsFromMarkdown(page)[2];
    expect(middleware).toEqual({
      heading: 'Middleware',
      headingPath: ['Routing', 'Basic Routing', 'Middleware'],
      anchor: 'route-group-middleware',
      depth: 3,
      text: "Route::middleware(['first'])->group();",
    });
    expect(sectionsFromMarkdown(page)[3]?.text).toBe('Named routes allow it.');
  });

  it('keeps text before the first heading as an intro section without anchor', () => {
    expect(sectionsFromMarkdown('Intro *text*.\n\n## A\n\nB')).toEqual([
      { heading: '', headingPath: [], depth: 0, text: 'Intro text.' },
      { heading: 'A', headingPath: ['A'], anchor: 'a', depth: 2, text: 'B' },
    ]);
  });

  it('numbers repeated headings the way GitHub does', () => {
    const anchors = sectionsFromMarkdown('## Usage\n\n## Usage\n\n## Usage').map((s) => s.anchor);
    expect(anchors).toEqual(['usage', 'usage-1', 'usage-2']);
  });
});

describe('extractSection', () => {
  it('returns a section with its subsections by anchor id, without the next heading anchor', () => {
    expect(extractSection(page, 'basic-routing')).toBe(
      [
        '## Basic Routing',
        '',
        'The most basic routes accept a `URI`.',
        '',
        '<a name="route-group-middleware"></a>',
        '### Middleware',
        '',
        '```php',
        "Route::middleware(['first'])->group();",
        '```',
        '',
      ].join('\n'),
    );
  });

  it('finds a section by heading text in any case and by #anchor', () => {
    expect(extractSection(page, 'middleware')).toBe(extractSection(page, '#route-group-middleware'));
    expect(extractSection(page, 'named routes')).toBe('## Named Routes {#names}\n\nNamed **routes** allow it.\n');
  });

  it('returns null when no heading matches', () => {
    expect(extractSection(page, 'nothing-here')).toBeNull();
    expect(extractSection(page, '')).toBeNull();
  });
});
