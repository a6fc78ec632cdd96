import { describe, expect, it, vi } from 'vitest';
import { LARAVEL_VERSIONS, laravelPages } from '../testing/laravel-corpus.js';
import { createChunkedParser } from './blocks.js';
import { splitMarkdown } from './chunks.js';
import { parseMarkdown } from './parse.js';

describe('parsing a page chunk by chunk', () => {
  it('gives every Laravel page, in all three versions, the tree of the whole page, positions included', () => {
    const parse = vi.fn(parseMarkdown);
    const chunked = createChunkedParser(parse);
    let whole = 0;
    let cut = 0;
    // Page by page, each in its three versions, as a render pool hands them to one worker.
    const pages = LARAVEL_VERSIONS.flatMap((version) => laravelPages(version)).sort((a, b) =>
      a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
    );
    const texts = new Set<string>();
    for (const page of pages) {
      expect(chunked(page.body), `${page.version}/${page.path}`).toEqual(parseMarkdown(page.body));
      if (!texts.has(page.body)) whole += page.body.length;
      texts.add(page.body);
      if ((splitMarkdown(page.body)?.length ?? 0) > 1) cut += 1;
    }
    // Most pages are cut, the later versions reuse most of the earlier ones' chunks, and code
    // blocks, plain paragraphs and headings need no parser: the parser is handed a small part of
    // the text the versions hold, even counting each text once.
    expect(cut).toBeGreaterThan(250);
    const parsed = parse.mock.calls.reduce((sum, [text]) => sum + text.length, 0);
    expect(parsed).toBeLessThan(whole * 0.15);
  });

  it.each([
    ['a list loosened by a blank line before its next item', '- one\n\n- two\n\nafter\n'],
    ['a list item continued after a blank line', '- one\n\n  more of one\n\nafter\n'],
    ['a paragraph after a list', '1. one\n2. two\n\nafter\n\n3) three\n'],
    ['a fenced block holding blank lines and Markdown', '```md\n# not a heading\n\n- nor a list\n```\n\ntext\n'],
    ['a tilde fence closed by a longer one', '~~~\na\n\n~~~~~\n\n# Heading\n'],
    ['a fence inside a list item', '- item\n\n  ```\n  code\n\n  ```\n\n# Heading\n'],
    ['an unclosed fence', '```\ncode\n\n# still code\n'],
    ['HTML blocks and anchors', '<a name="x"></a>\n## X\n\n<div>\n\n*inside*\n\n</div>\n\nText.\n'],
    ['a fence right after an HTML line', '<div>\n```\n\ncode?\n```\n'],
    ['a comment over blank lines', '<!--\n\n# hidden\n\n-->\n\n# shown\n'],
    ['a style block, then text', '<style>\n  .a > p { color: red }\n\n  .b {}\n</style>\n\n# Title\n\nText.\n'],
    ['an indented comment in a list', '- item\n\n  <!--\n\n  x\n\n-->\n\n# After\n'],
    ['a reference definition', 'See [the guide][g].\n\n[g]: https://example.com\n'],
    ['a footnote', 'Text[^1].\n\n[^1]: The note.\n'],
    ['a definition in a block quote', '[x]\n\n> [x]: /url\n'],
    ['frontmatter with blank lines', '---\ntitle: A\n\ndescription: B\n---\n# A\n\nText.\n'],
    ['block quotes and alerts', '> [!NOTE]\n> A note.\n\n> Another.\n\nText www.example.com and a@b.co.\n'],
    ['indented code after a paragraph', 'Text.\n\n    code\n\n    more\n\nText.\n'],
    ['a setext heading and a table', 'Title\n=====\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\nText\n---\n'],
    ['tabs and trailing blank lines', 'a\n\t\n\tb\n\n\n\nc\n\n'],
    ['no final line break', '# A\n\ntext'],
    [
      'code blocks with info and meta',
      '# A\n\n```php x y  \ncode\n```\n\n```php   \ncode\n```  \n\n  \n\n``` php\nx\n````\n',
    ],
    ['empty code blocks', '# A\n\n```\n```\n\n```   \n\n```\n\ntext\n'],
    ['code with tabs and blank lines', '# A\n\n```js\n\tindented\n  \n\n```\n'],
    ['a tilde fence with backticks in its info', '# A\n\n~~~~ a`b  c\nx\n~~~\n~~~~~\n\nT'],
    ['a fence with escapes and references in its info', '# A\n\n```a\\_b &amp; c\\*\nx\n```\n\n~~~\tphp\nx\n~~~\n'],
    ['a fence with a paragraph right after it', '# A\n\n```\nx\n```\ntext\n'],
    [
      'frontmatter, then chunks around a code block',
      '---\ntitle: A\n---\n# A\n\n```\nx\n```\n\n---\n\nText\n===\n\n- a\n\n```\ny\n```\n\n  b\n',
    ],
    [
      'indented code in a list item',
      '- item\n\n    code in the item\n\nText\n\n1. a\n\n   b\n\n        code\n\nafter\n',
    ],
    ['indented code after an indented paragraph line', 'para\n    lazy\n\n    code\n\nT\n'],
    ['indented code holding blank lines', 'T\n\n    a\n      \n  \n    b\n\n   \nT\n\n    c\n\n\n    d\n'],
    ['indented code with tabs', 'T\n\n\tcode\n\n    x\n  \ty\n'],
    ['indented code opening the page', '    code\n\n# A\n'],
    ['indented code after a quote and in HTML', '> quote\n\n    code\n\n<div>\n\n    code\n\n</div>\n'],
    [
      'indented code ending in blank lines indented or not',
      'T\n\n    a\n    \nT\n\n    b\n    \n    \n\nT\n\n    c\n      \n  \n\nT\n\n    d\n\n    \n\nT\n',
    ],
    ['indented code closing the page', 'T\n\n    code\n    more'],
    ['thematic breaks written like frontmatter fences', 'Intro\n\n---\n\nMiddle\n\n---  \n\nEnd\n'],
    ['a fence closing the page', '# A\n\n```ruby \u00a0x\ncode\n```'],
  ])('gives the tree of the whole page for %s', (_name, markdown) => {
    const chunked = createChunkedParser(parseMarkdown);
    expect(chunked(markdown)).toEqual(parseMarkdown(markdown));
    // A second time, from the kept chunks.
    expect(chunked(markdown)).toEqual(parseMarkdown(markdown));
  });

  it('builds a chunk that is one fenced code block without the parser', () => {
    const parse = vi.fn(parseMarkdown);
    const markdown = '# A *b*\n\n```php title="x"\n<?php\n\necho 1;\n```\n\nText *c*.\n';
    expect(createChunkedParser(parse)(markdown)).toEqual(parseMarkdown(markdown));
    // The chunks around it are parsed together, as if they stood one after the other.
    expect(parse.mock.calls.map(([text]) => text)).toEqual(['# A *b*\n\nText *c*.\n']);
  });

  it('cuts before indented code at the top, and builds it without the parser', () => {
    const parse = vi.fn(parseMarkdown);
    const markdown = 'Text:\n\n    $a = 1;\n\n    $b = 2;\n\nMore.\n\n- item\n\n    in the item\n';
    expect(splitMarkdown(markdown)?.map((chunk) => chunk.text)).toEqual([
      'Text:\n\n',
      '    $a = 1;\n\n    $b = 2;\n\n',
      'More.\n\n- item\n\n    in the item\n',
    ]);
    expect(createChunkedParser(parse)(markdown)).toEqual(parseMarkdown(markdown));
    // `Text:` is a plain paragraph, built without the parser too.
    expect(parse.mock.calls.map(([text]) => text)).toEqual(['More.\n\n- item\n\n    in the item\n']);
  });

  it('gives the whole-page tree for pages made of random lines, each parsed after the last', () => {
    // Lines that open, continue and close every kind of block the cuts reason about.
    const lines = [
      ...['', '', '', '    ', '  ', '      ', '\t', 'Text', 'more *em*', '# Head', '- item', '* item'],
      ...['1. one', '2) two', '  - nested', '   3. x', '    code', '        deep', '    - not a list'],
      ...['\tcode', '  \tx', '> quote', '> - item', '>     code', '```', '```php', '~~~', '    ```', '<div>'],
      ...['</div>', '<a name="x"></a>', '---', '===', '| a | b |', '| - | - |', '<!--', '-->', '   para', '10. ten'],
      // Phrasing that plain paragraphs and headings are built from, and what stops them being plain.
      ...['Use `code` and [a `link`](/docs/x#y) here', '## The `Route` [facade](/r)', '`` a ` b `` c', 'x `open'],
      ...['(see) "quoted" $var /path 2024 it', 'trail  ', '![image](/i.png)', 'a [ref] b', 'www.x.com', 'a@b.co'],
      ...['[a](/b "title")', '[a](<b>)', '[^note](/x)', '## H #', '#  spaced `x`', '  `lazy` line', '1. `one`'],
      ...[
        '- [Item](#item)',
        '    - [Nested `x`](#n)',
        '        - deeper',
        '- [ ] task',
        '-  two spaces',
        '- 1. nested',
      ],
    ];
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    // One parser for all: later pages reuse chunks of earlier ones, as versions of a page do.
    const chunked = createChunkedParser(parseMarkdown, 4096);
    let previous: string[] = [];
    for (let page = 0; page < 2000; page++) {
      const count = 2 + Math.floor(random() * 30);
      const picked = Array.from({ length: count }, (_, at) =>
        random() < 0.3 && at < previous.length ? previous[at]! : lines[Math.floor(random() * lines.length)]!,
      );
      previous = picked;
      const markdown = `${picked.join('\n')}${random() < 0.5 ? '\n' : ''}`;
      expect(chunked(markdown), JSON.stringify(markdown)).toEqual(parseMarkdown(markdown));
    }
  });

  it('builds plain paragraphs, headings and tables of contents (text, code spans, inline links) without the parser', () => {
    const plain = [
      'Use the `Route::get` method\n  to register [a `GET` route](/docs/{{version}}/routing#basic).\n\n',
      '<a name="basic-routing"></a>\n### Basic `Routing` {#basic}\n\n',
      '## [Install](https://laravel.com/docs) now',
      '`` a ` b `` and `  ` and ` c `\n',
      '`code` first, then text -> and more!\n',
      '# Routing\n\n- [Basic Routing](#basic-routing)\n    - [The `web` Routes](#web)\n        - [Deep](#deep)\n    - [Back](#back)\n- [Last](#last)\n\n',
      'Intro:\n\n- `one`\n- two (2)\n',
    ];
    // After a heading that is parsed, so the plain chunk sits at a later line and offset.
    const title = '# Title *x*\n\n';
    /** The text the parser was handed for the page of `markdown` after the title; the tree must be the parser's. */
    const parsedOf = (markdown: string) => {
      const parse = vi.fn(parseMarkdown);
      const page = `${title}${markdown}`;
      expect(createChunkedParser(parse)(page), JSON.stringify(markdown)).toEqual(parseMarkdown(page));
      return parse.mock.calls.map(([text]) => text);
    };
    for (const markdown of plain) expect(parsedOf(markdown)).toEqual([title]);
    // What could parse otherwise goes to the parser, and comes out as the parser has it.
    const notPlain = [
      'A *word*\n',
      'An `open code span\n',
      'A code span `across\nlines`\n',
      'Trailing spaces  \nbreak the line\n',
      'An ![image](/a.png)\n',
      'A [link](/a "with a title")\n',
      'A [reference][ref]\n',
      'A www.example.com literal\n',
      'Text\n- then a list\n',
      'Text\n===\n',
      '## Closed heading ##\n',
      '<a name="x"></a>\nText after the anchor\n',
      'A [link](/with(parens))\n',
      'Loose:\n\n- a\n\n- b\n',
      'Stars:\n\n* a\n* b\n',
      'Tasks:\n\n- [ ] to do\n- [x] done\n',
      'Two spaces:\n\n- a\n  - b\n',
      'Lazy:\n\n- a\ngoes on\n',
      'Skipping a level:\n\n- a\n        - b\n',
      'A list in a list:\n\n- 1. first\n- 2) second\n',
      'A heading in an item:\n\n- # Title\n',
    ];
    for (const markdown of notPlain) expect(parsedOf(markdown)).toEqual([`${title}${markdown}`]);
  });

  it('parses a page whole when a definition or an open fence could reach across a cut', () => {
    expect(splitMarkdown('See [g].\n\n[g]: /url\n')).toBeNull();
    expect(splitMarkdown('```\ncode\n\ntext\n')).toBeNull();
    expect(splitMarkdown('  <!--\n\ncomment\n\n-->\n')).toBeNull();
    expect(splitMarkdown('<style>\n\n```\n\n</style>\n')).toBeNull();
    // A comment at the first column is followed to its end: no cut inside it.
    expect(splitMarkdown('<!--\n\n# hidden\n\n-->\n\n# shown\n')?.map((chunk) => chunk.text)).toEqual([
      '<!--\n\n# hidden\n\n-->\n\n',
      '# shown\n',
    ]);
    expect(splitMarkdown('# A\n\ntext\n\n# B\n')?.map((chunk) => chunk.text)).toEqual(['# A\n\n', 'text\n\n', '# B\n']);
  });

  it('never starts a chunk with a thematic break that would open frontmatter when parsed first', () => {
    const chunked = createChunkedParser(parseMarkdown);
    chunked('Intro\n\nOther\n');
    // `Intro` is known: what follows it is parsed on its own, and must not read `---` ... `---` as YAML.
    const markdown = 'Intro\n\n---\n\nMiddle\n\n---\n\nEnd\n';
    expect(chunked(markdown)).toEqual(parseMarkdown(markdown));
  });

  it('hands out copies: changing one tree leaves the next parse of the same text alone', () => {
    const chunked = createChunkedParser(parseMarkdown);
    const markdown = '# A\n\ntext\n';
    const first = chunked(markdown);
    (first.children[0] as { type: string }).type = 'changed';
    // Deep inside too: a text's value and a position the renderer moves.
    const paragraph = first.children[1] as {
      children: Array<{ value: string }>;
      position: { start: { line: number } };
    };
    paragraph.children[0]!.value = 'edited';
    paragraph.position.start.line = 99;
    const second = chunked(markdown);
    expect(second).toEqual(parseMarkdown(markdown));
    (second.children[1] as { position: { end: { offset: number } } }).position.end.offset = -1;
    expect(chunked(markdown)).toEqual(parseMarkdown(markdown));
  });
});
