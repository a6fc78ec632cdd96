import { toHtml } from 'hast-util-to-html';
import { describe, expect, it } from 'vitest';
import { fenceInfo, highlightCode } from './highlight.js';

describe('highlightCode', () => {
  it('gives comments a dark-mode color that meets WCAG AA contrast on the dark code background', async () => {
    const pre = await highlightCode('// a comment\nconst x = 1;', 'js');
    const html = toHtml(pre!);
    expect(html).toContain('--shiki-dark:#8b949e');
    expect(html.toLowerCase()).not.toContain('--shiki-dark:#6a737d');
    // The light theme's comment gray is darkened too, to keep 4.5:1 on a highlighted line.
    expect(html).toMatch(/color:#57606a;--shiki-dark:#8b949e/i);
  });

  it('marks the requested lines as highlighted, and only on this block, not on a cached copy', async () => {
    const code = 'const a = 1;\nconst b = 2;\nconst c = 3;';
    const marked = toHtml((await highlightCode(code, 'js', [[2, 3]]))!);
    expect(marked.match(/class="line( highlighted)?"/g)).toEqual([
      'class="line"',
      'class="line highlighted"',
      'class="line highlighted"',
    ]);
    expect(toHtml((await highlightCode(code, 'js'))!)).not.toContain('highlighted');
  });
});

describe('fenceInfo', () => {
  it('reads VitePress line marks after the language, with or without a space', () => {
    expect(fenceInfo('js', '{2,4-5}')).toEqual({
      lang: 'js',
      lines: [
        [2, 2],
        [4, 5],
      ],
    });
    expect(fenceInfo('js{2}', null)).toEqual({ lang: 'js', lines: [[2, 2]] });
    expect(fenceInfo('php', 'title="x" {1, 3 - 4}')).toEqual({
      lang: 'php',
      lines: [
        [1, 1],
        [3, 4],
      ],
      title: 'x',
    });
  });

  it('reads a file title in double or single quotes, with spaces, with or without a language', () => {
    expect(fenceInfo('php', 'title="routes/web.php"')).toEqual({ lang: 'php', lines: [], title: 'routes/web.php' });
    expect(fenceInfo('js{2}', "title='My file.js'")).toEqual({ lang: 'js', lines: [[2, 2]], title: 'My file.js' });
    expect(fenceInfo('title="notes.txt"', null)).toEqual({ lang: '', lines: [], title: 'notes.txt' });
    expect(fenceInfo('sh', 'title=""')).toEqual({ lang: 'sh', lines: [] });
    expect(fenceInfo('sh', 'subtitle="x"')).toEqual({ lang: 'sh', lines: [] });
  });

  it('ignores what is not a line number or range', () => {
    expect(fenceInfo('js', null)).toEqual({ lang: 'js', lines: [] });
    expect(fenceInfo('js', '{5-2,0,x}')).toEqual({ lang: 'js', lines: [] });
    expect(fenceInfo('js', 'highlight="2"')).toEqual({ lang: 'js', lines: [] });
  });
});
