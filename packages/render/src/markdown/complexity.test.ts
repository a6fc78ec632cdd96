import { describe, expect, it } from 'vitest';
import { createComponentRegistry } from '../components/registry.js';
import { createRenderer } from '../render/renderer.js';
import { LARAVEL_VERSIONS, laravelContext, laravelPages, pageFromText } from '../testing/laravel-corpus.js';
import { COMPLEXITY_LIMITS, tooComplex } from './complexity.js';

describe('tooComplex', () => {
  it.each([
    ['list items opened on one line', `${'- '.repeat(101)}x`, /block quotes and lists nested 101 deep/],
    ['block quotes mixed with list items', `${'> - '.repeat(51)}x`, /block quotes and lists nested 102 deep/],
    ['alternating emphasis delimiters', '*_'.repeat(751), /more than 1500 emphasis delimiters/],
    ['strikethrough runs', '~a '.repeat(1501), /more than 1500 emphasis delimiters/],
    ['brackets', '[a]'.repeat(4001), /more than 4000 brackets/],
    ['footnotes', Array.from({ length: 501 }, (_, i) => `[^${i}]: x`).join('\n'), /more than 500 footnotes/],
    ['table cells', `| a |\n| - |\n${'| a |\n'.repeat(2000)}`, /more than 4000 table cells/],
    ['character references', '&amp;'.repeat(10_001), /more than 10000 character references/],
    ['component tags', '<Note />\n'.repeat(1001), /more than 1000 component tags/],
    ['literal autolinks', 'www.a.com '.repeat(5001), /more than 5000 literal autolinks/],
    ['headings', '## a\n'.repeat(2001), /more than 2000 headings/],
    [
      'separate block quotes',
      '> x\n\n'.repeat(1000),
      /1000 separate block quotes and lists, over the limit of \d+ on a page of 2001 lines/,
    ],
    ['lines', 'x\n'.repeat(15_001), /15002 lines, over the limit of 15000/],
    ['characters', 'a'.repeat(400_001), /400001 characters, over the limit of 400000/],
  ])('names %s past their limit', (_what, markdown, reason) => {
    expect(tooComplex(markdown)).toMatch(reason);
  });

  it('accepts a page right at each counted limit', () => {
    expect(tooComplex('*_'.repeat(750))).toBeNull();
    expect(tooComplex('[a]'.repeat(COMPLEXITY_LIMITS.brackets))).toBeNull();
    expect(tooComplex(`${'- '.repeat(COMPLEXITY_LIMITS.nestingDepth)}x`)).toBeNull();
    expect(tooComplex('> x\n\n'.repeat(800))).toBeNull();
  });

  it('counts nothing inside fenced code', () => {
    expect(tooComplex(`\`\`\`md\n${'[a]*_'.repeat(10_000)}\n\`\`\`\n`)).toBeNull();
  });

  it('lets every page of the Laravel docs through', () => {
    for (const version of LARAVEL_VERSIONS) {
      for (const page of laravelPages(version)) expect([page.file, tooComplex(page.body)]).toEqual([page.file, null]);
    }
  });
});

describe('a page too complex to render', () => {
  it('is shown as its text under a notice naming the construct, and reported as markdown.complexity', async () => {
    const body = `${'- '.repeat(200)}deep`;
    const out = await createRenderer().render(pageFromText('guide/nested', body), laravelContext('13.x'));
    expect(out.html).toBe(
      '<p class="kit-unparsed-notice" role="note">This page is too complex to render: block quotes and lists nested 200 deep, over the limit of 100. Its text is shown as written.</p>\n' +
        `<pre class="kit-unparsed">${body}</pre>`,
    );
    expect(out.markdown).toBe(`${body}\n`);
    expect(out.problems).toEqual([
      expect.objectContaining({
        rule: 'markdown.complexity',
        severity: 'warning',
        file: '13.x/guide/nested.md',
        message: expect.stringContaining('block quotes and lists nested 200 deep'),
      }),
    ]);
  });

  it('is shown as text when rendering it exhausts the stack past the guard', async () => {
    const components = createComponentRegistry();
    components.register('Deep', {
      html: () => {
        throw new RangeError('Maximum call stack size exceeded');
      },
      markdown: () => '',
    });
    const out = await createRenderer({ components }).render(pageFromText('deep', '<Deep />\n'), laravelContext('13.x'));
    expect(out.html).toContain('<pre class="kit-unparsed">&lt;Deep /&gt;\n</pre>');
    expect(out.problems).toMatchObject([
      { rule: 'markdown.complexity', message: expect.stringContaining('the parser ran out of room') },
    ]);
  });
});
