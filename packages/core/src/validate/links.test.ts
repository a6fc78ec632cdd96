import { describe, expect, it } from 'vitest';
import { isRawHtmlLink } from './links.js';

/** The rule as written out plainly: a tag with this href on the reported line, or below it in the same block. */
function plainly(body: string, href: string, line?: number): boolean {
  const lines = body.split('\n');
  for (const match of body.matchAll(/<a\s[^>]*?\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/gi)) {
    if ((match[1] ?? match[2] ?? match[3]) !== href) continue;
    if (line === undefined) return true;
    const tagLine = body.slice(0, match.index).split('\n').length - 1;
    if (tagLine < line) continue;
    if (lines.slice(line, tagLine + 1).every((text) => text.trim() !== '')) return true;
  }
  return false;
}

describe('isRawHtmlLink', () => {
  it('finds an <a href> tag on the reported line or further down its block, not past a blank line', () => {
    const body = 'Intro [md](javascript:a())\n\n<div>\n<a href="javascript:b()">b</a>\n</div>\n\n<a href=\'x\'>x</a>';
    expect(isRawHtmlLink(body, 'javascript:a()', 0)).toBe(false);
    expect(isRawHtmlLink(body, 'javascript:b()', 2)).toBe(true);
    expect(isRawHtmlLink(body, 'javascript:b()', 0)).toBe(false);
    expect(isRawHtmlLink(body, 'javascript:b()', 4)).toBe(false);
    expect(isRawHtmlLink(body, 'x', 6)).toBe(true);
    expect(isRawHtmlLink(body, 'x')).toBe(true);
    expect(isRawHtmlLink(body, 'y')).toBe(false);
  });

  it('answers as the plain rule does for every href and line of generated pages, asked in any order', () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const pieces = ['text', '', '<a href="a">a</a>', "<a name='n' href='b'>", '[md](a)', '<A HREF=c>', '  ', '<p>'];
    const bodies = Array.from({ length: 40 }, () =>
      Array.from({ length: 1 + random(30) }, () => pieces[random(pieces.length)]).join('\n'),
    );
    for (let ask = 0; ask < 2000; ask++) {
      const body = bodies[random(bodies.length)]!;
      const href = ['a', 'b', 'c', 'd'][random(4)]!;
      const line = random(5) === 0 ? undefined : random(32);
      expect(isRawHtmlLink(body, href, line), JSON.stringify({ body, href, line })).toBe(plainly(body, href, line));
    }
  });
});
