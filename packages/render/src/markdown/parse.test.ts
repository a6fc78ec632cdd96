import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';
import { createTreeReuse, parseMarkdown } from './parse.js';

const reference = (markdown: string) =>
  fromMarkdown(markdown, {
    extensions: [gfm(), frontmatter(['yaml'])],
    mdastExtensions: [gfmFromMarkdown(), frontmatterFromMarkdown(['yaml'])],
  });

const samples: Record<string, string> = {
  'literal autolinks in paragraphs':
    'Visit www.example.com, WWW.EXAMPLE.ORG/path?q=1 or https://example.com/a_(b). Mail a.b+c@example.co.uk, mailto:x@y.org or xmpp:me@host.org/res.',
  'literal autolinks in headings, tables, lists and quotes':
    '## See www.laravel.com\n\n| a | b |\n| - | - |\n| me@example.com | http://x.y |\n\n- item www.a.com\n  - nested b@c.de\n\n> quoted https://q.example',
  'addresses that are not links':
    'user@localhost, @blade, a@b_c.d-, www.x, http://, 1@2.3_ and `www.code.com` in code.',
  'autolinks inside links and emphasis': '[www.inside.com](https://outer.example) *www.em.com* **x@y.com**',
  // Each of these is linked by the transform, not by micromark: one per block, so each block counts.
  'addresses only the transform finds':
    'mail&#64;example.com\n\n&#119;ww.example.com\n\n_a@b.com_\n\na\\@b.com\n\nx.www.a.com\n\nfoo&amp;www.a.com\n\n| _c@d.org_ |\n| - |\n\n# _e@f.net_',
  'text without any candidate': '# Title\n\nPlain text, nothing to link.\n\n```\nwww.in-fence.com a@b.com\n```',
  'aligned tables with escaped pipes in code':
    '| left | center | right | none |\n| :- | :-: | -: | - |\n| `a\\|b` | `c\\\\d` | x \\| y | |\n\n`a\\|b` outside a table',
  'task lists, nested and loose':
    '- [ ] open\n- [x] done\n  - [X] nested\n- [ ]\n\n* [x]  two spaces\n\n  second paragraph\n\n1. [ ] ordered',
  'footnotes and strikethrough': 'Text[^1] and ~~gone~~.\n\n[^1]: The note.',
};

describe('parsing Markdown', () => {
  it.each(Object.entries(samples))('gives the tree mdast-util-gfm gives for %s', (_, markdown) => {
    expect(parseMarkdown(markdown)).toEqual(reference(markdown));
  });
});

describe('reusing the last tree', () => {
  it('hands out a fresh copy of the same tree for the same Markdown, never the one it keeps', () => {
    const parse = createTreeReuse();
    const markdown = Object.values(samples).join('\n\n');
    const first = parse(markdown);
    const expected = reference(markdown);
    expect(first).toEqual(expected);
    // Rendering edits the tree it is given: the next copy must not see those edits.
    (first.children[0] as { type: string }).type = 'edited';
    first.children.splice(1, 1);
    const second = parse(markdown);
    expect(second).toEqual(expected);
    expect(second).not.toBe(first);
    expect(second.children[0]).not.toBe(first.children[0]);
    second.children.length = 0;
    expect(parse(markdown)).toEqual(expected);
    expect(parse('# Other\n')).toEqual(reference('# Other\n'));
  });
});
