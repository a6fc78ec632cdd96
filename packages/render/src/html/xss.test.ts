import { describe, expect, it } from 'vitest';
import { laravelContext, pageFromText } from '../testing/laravel-corpus.js';
import { createRenderer } from '../render/renderer.js';

const payloads = [
  '<script>alert(1)</script>',
  '<ScRiPt src="//evil.example/x.js"></ScRiPt>',
  '<img src=x onerror="alert(1)">',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<a href="javascript:alert(1)" onclick="alert(1)">x</a>',
  '<style>body{display:none}</style>',
  '<svg onload=alert(1)>',
  '[click](javascript:alert(1))',
  '[click](JaVaScRiPt:alert(1))',
  '[click](java\tscript:alert(1))',
  '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[vb](vbscript:msgbox(1))',
  '![img](javascript:alert(1))',
  '<div id="location" name="cookie">x</div>',
  '<textarea><script>alert(1)</script></textarea>',
  '<title>x</title><xmp><plaintext><noembed><noframes>',
];

const renderer = createRenderer();
const render = (body: string, overrides = {}) =>
  renderer.render(pageFromText('xss', body), { ...laravelContext('13.x'), ...overrides });

/** No element that runs script, no handler attribute, no script URL survives as markup. */
function expectInert(html: string) {
  expect(html).not.toMatch(/<(script|iframe|style|textarea|title|xmp|plaintext|noembed|noframes)[\s/>]/i);
  expect(html).not.toMatch(/<[a-z][^<>]*\s(href|src)="\s*(javascript|data|vbscript):/i);
}

describe.each(payloads)('the payload %s', (payload) => {
  it('shows as text under html_input escape', async () => {
    const { html } = await render(payload, { htmlInput: 'escape' });
    expectInert(html);
    expect(html).not.toMatch(/<(img|svg|div|a) [^>]*on\w+=/i);
  });

  it('loses the tagfilter tags under html_input allow, and Markdown links lose script URLs', async () => {
    const { html } = await render(payload, { htmlInput: 'allow' });
    expect(html).not.toMatch(/<(script|iframe|style|textarea|title|xmp|plaintext|noembed|noframes)[\s/>]/i);
    if (!payload.startsWith('<')) expectInert(html);
  });

  it('is escaped and sanitized on the database path', async () => {
    const { html } = await render(payload, { htmlInput: 'allow', sanitize: true });
    expectInert(html);
    expect(html).not.toMatch(/<[a-z][^>]*\son\w+=/i);
    expect(html).not.toMatch(/<[a-z][^>]*\s(id|name)="(?!user-content-)/i);
  });
});

describe('sanitizing database pages', () => {
  it('prefixes heading ids and keeps fragment links pointing at them', async () => {
    const { html, anchors, toc } = await render('## Location\n\n[up](#location)', { sanitize: true });
    expect(html).toBe('<h2 id="user-content-location">Location</h2>\n<p><a href="#user-content-location">up</a></p>');
    expect(anchors).toEqual(['location']);
    expect(toc[0]?.id).toBe('user-content-location');
  });

  it('filters the GFM tagfilter tags in any case and form under allow', async () => {
    const { html } = await render('<SCRIPT >x</SCRIPT>\n\n<p>a <Iframe/src=x> b</p>', { htmlInput: 'allow' });
    expectInert(html);
    // All capitals reads as a component name: unknown, so shown as text (components.unknown).
    expect(html).toContain('&lt;SCRIPT');
    expect(html).toContain('<p>a  b</p>');
  });

  it('leaves the filtered elements out with their content, and says so in the render problems', async () => {
    const body =
      'Intro\n\n<style>\n  .collection-method { color: red }\n</style>\n\n<div>kept <title>gone</title> too</div>\n\nOutro';
    const { html, problems } = await render(body, { htmlInput: 'allow' });
    expect(html).not.toContain('collection-method');
    expect(html).not.toContain('gone');
    expect(html).toContain('<div>kept  too</div>');
    expect(html).toContain('Outro');
    expect(problems.filter((p) => p.rule === 'html.filtered')).toMatchObject([
      { severity: 'warning', line: 3, message: expect.stringContaining('<style>') },
      { severity: 'warning', line: 7, message: expect.stringContaining('<title>') },
    ]);
    const escaped = await render(body, { htmlInput: 'escape' });
    expect(escaped.problems.some((p) => p.rule === 'html.filtered')).toBe(false);
  });
});

describe('pathological Markdown', () => {
  it('renders 50,000 opening brackets in bounded time', async () => {
    const { html } = await render('['.repeat(50_000));
    expect(html.length).toBeGreaterThan(50_000);
  }, 180_000);

  it('renders deeply nested blockquotes and lists in bounded time', async () => {
    const quotes = `${'>'.repeat(5_000)} deep`;
    const lists = Array.from({ length: 1_000 }, (_, depth) => `${'  '.repeat(depth)}- item`).join('\n');
    const emphasis = `${'*a '.repeat(10_000)}${'a* '.repeat(10_000)}`;
    for (const body of [quotes, lists, emphasis]) {
      const out = await render(body);
      expect(out.html).toContain(body.includes('deep') ? 'deep' : body.includes('item') ? 'item' : '*a');
      expect(out.problems).toMatchObject([{ rule: 'markdown.complexity' }]);
    }
  }, 180_000);
});
