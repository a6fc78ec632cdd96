import type { Root as HastRoot } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { defaultHandlers, toHast } from 'mdast-util-to-hast';
import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../markdown/parse.js';
import { codeFrameHast } from './code-frame.js';
import { filterRawNodes } from './sanitize.js';
import { type ArticleHtmlOptions, articleHtml } from './serialize.js';

const plain: ArticleHtmlOptions = {
  headings: new Map(),
  dropped: new WeakSet(),
  callouts: new WeakMap(),
  highlighted: new Map(),
  codeTitles: new WeakMap(),
  escapeRaw: false,
  filterComponentHtml: true,
};

/** What the renderer wrote before: a hast tree (code blocks in their frame), tagfiltered, serialized. */
function throughHast(markdown: string): string {
  const hast = toHast(parseMarkdown(markdown), {
    allowDangerousHtml: true,
    handlers: { code: (state, node) => codeFrameHast(defaultHandlers.code(state, node), node.lang) },
  }) as HastRoot;
  filterRawNodes(hast);
  return toHtml(hast, { allowDangerousHtml: true });
}

const samples: Record<string, string> = {
  'paragraphs and inline marks':
    'Some *em*, **strong**, ~~gone~~, `code` and ***both***.\n\nSecond   paragraph\nwith a soft break.',
  'escaping of text and attributes':
    'a < b && c > d "quoted" \'single\' `tick`\n\n[x](</a b?c="d"&e=\'f\'> "t\\"i`tle&") ![alt "x" & y](img.png \'ti"t\')',
  'hard breaks trim what follows':
    'one  \n&#32;two\\\n&#9;three  \n*&#32;em after*  \n`  code after`  \n[&#32;link after](/x)  \n<b>raw after</b>  \n&#32;<b>x</b>',
  'links, images and autolinks':
    '[text](https://example.com/ä ö?q=1#frag) ![](empty.png) ![only alt](a.png)\n<https://auto.example> www.example.com and mail@example.com and https://x.org/path.',
  'headings of every level':
    '# One\n## Two *em*\n### Three\n#### Four\n##### Five\n###### Six\n\nSetext\n======\n\nSub\n---',
  'lists tight, loose, ordered, nested and task lists':
    '- a\n- b\n  - nested\n  - more\n\n3. three\n4. four\n\n- loose\n\n- items\n\n1. one\n\n   second paragraph\n\n- [x] done\n- [ ] todo\n- [x]\n\n* [ ] loose task\n\n  with text\n\n- ```\n  code in item\n  ```\n- > quote in item',
  'tables with alignment and missing cells':
    '| left | center | right | none |\n| :--- | :----: | ----: | ---- |\n| 1 | 2 | 3 | 4 |\n| only |\n| a \\| pipe | `c` | **b** | x  \n',
  'code blocks':
    '```php title="x"\n<?php echo "&";\n```\n\n```\n```\n\n    indented <code>\n\n~~~ js   more\nconst a = 1 < 2;\n~~~',
  'block quotes and thematic breaks': '> quoted\n> > nested\n>\n> - list\n\n***\n\n>',
  'raw HTML blocks and inline HTML':
    '<div class="x">\n<script>alert(1)</script>\n</div>\n\nInline <span>html</span> and <style>x</style> and <!-- comment -->.\n\n<a name="anchor"></a>\n## After anchor',
  'entities and unicode': '&copy; &amp; &#35; &lt;tag&gt; café — “quotes” 😀 \u00a0nbsp',
  'frontmatter and definitions': '---\ntitle: x\n---\n\n# Title\n\n[def]: /somewhere "Title"\n\nText.',
};

describe('article HTML straight from mdast', () => {
  it.each(Object.entries(samples))(
    'writes %s exactly as mdast-util-to-hast and hast-util-to-html do',
    (_, markdown) => {
      const expected = throughHast(markdown);
      expect(articleHtml(parseMarkdown(markdown).children, plain)).toBe(expected);
    },
  );

  it('writes raw HTML as text when raw HTML is escaped', () => {
    const tree = parseMarkdown('<div>x & y</div>\n\nInline <b>bold</b>.');
    const hast = toHast(tree, {
      allowDangerousHtml: true,
      handlers: { html: (_state, node) => ({ type: 'text', value: node.value }) },
    }) as HastRoot;
    expect(articleHtml(tree.children, { ...plain, escapeRaw: true })).toBe(toHtml(hast));
  });

  it.each([
    ['footnotes', 'Text[^1].\n\n[^1]: The note.'],
    ['reference links', '[text][ref]\n\n[ref]: /url'],
    ['reference images', '![alt][ref]\n\n[ref]: /img.png'],
  ])('leaves %s to mdast-util-to-hast', (_, markdown) => {
    expect(articleHtml(parseMarkdown(markdown).children, plain)).toBeNull();
  });

  it('leaves nodes with hName or hProperties data to mdast-util-to-hast', () => {
    const tree = parseMarkdown('Some text.');
    const paragraph = tree.children[0] as { data?: Record<string, unknown> };
    paragraph.data = { hName: 'section' };
    expect(articleHtml(tree.children, plain)).toBeNull();
  });
});
