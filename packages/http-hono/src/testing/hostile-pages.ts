/**
 * Hostile page content for the robustness suite and `bench/hostile` (Node only, not exported): one
 * entry per construct, grouped in families, each with a body past the complexity guard (the sizes
 * that took Kit down before it) and, where the guard has a limit, the worst body it still accepts.
 */
export interface HostileConstruct {
  /** Page path and row name. */
  name: string;
  family: 'nesting' | 'delimiters' | 'brackets' | 'references' | 'entities' | 'huge' | 'code' | 'frontmatter';
  /** The hostile page file. */
  hostile: string;
  /** What the "too complex" message names for it; null when the page is served rendered. */
  names: RegExp | null;
  /** The largest page of the same shape the guard lets through, for the benchmark. */
  atLimit?: string;
}

const repeat = (count: number, make: (index: number) => string) =>
  Array.from({ length: count }, (_, i) => make(i)).join('');
const table = (rows: number) => `|${'h|'.repeat(50)}\n|${'-|'.repeat(50)}\n${`|${'a|'.repeat(50)}\n`.repeat(rows)}`;
const nestedComponents = (depth: number) =>
  `${'<Callout>\n\n'.repeat(depth)}inside\n\n${'</Callout>\n\n'.repeat(depth)}`;
const quoteBlocks = (count: number) => `${'>'.repeat(99)} x\n\n`.repeat(count);

/** The page the others are measured against, and which must keep answering beside them. */
export const LIGHT_PAGE = '---\ntitle: Retries\n---\n# Retries\n\nFailed jobs retry with exponential backoff.\n';

/** A frontmatter block whose aliases expand to 9^9 strings ("billion laughs"). */
export const ALIAS_BOMB_FRONTMATTER = [
  '---',
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...'bcdefghi'
    .split('')
    .map((name, index) => `${name}: &${name} [${Array(9).fill(`*${'abcdefghi'[index]}`).join(',')}]`),
  'title: Laughs',
  '---',
].join('\n');

export const HOSTILE_CONSTRUCTS: HostileConstruct[] = [
  {
    name: 'list-nesting',
    family: 'nesting',
    hostile: `${'- '.repeat(1000)}deep\n`,
    names: /block quotes and lists nested 1000 deep, over the limit of 100/,
    atLimit: `${'- '.repeat(100)}deep\n`,
  },
  {
    name: 'quote-nesting',
    family: 'nesting',
    hostile: `${'>'.repeat(5000)} deep\n`,
    names: /block quotes nested 5000 deep/,
    atLimit: `${'>'.repeat(100)} deep\n`,
  },
  {
    name: 'list-indent',
    family: 'nesting',
    hostile: repeat(200, (depth) => `${'  '.repeat(depth)}- item\n`),
    names: /a list item indented \d+ columns, over the limit of 160/,
    atLimit: repeat(80, (depth) => `${'  '.repeat(depth)}- item\n`),
  },
  {
    name: 'quote-blocks',
    family: 'nesting',
    hostile: quoteBlocks(3000),
    names: /3000 separate block quotes and lists/,
    atLimit: quoteBlocks(140),
  },
  {
    name: 'callouts',
    family: 'nesting',
    hostile: '> [!NOTE]\n> x\n\n'.repeat(4000),
    names: /4000 separate block quotes and lists/,
    atLimit: '> [!NOTE]\n> x\n\n'.repeat(630),
  },
  {
    name: 'component-nesting',
    family: 'nesting',
    hostile: nestedComponents(2000),
    names: /more than 1000 component tags/,
    atLimit: nestedComponents(500),
  },
  {
    name: 'emphasis-delimiters',
    family: 'delimiters',
    hostile: `${'*_'.repeat(50_000)}\n`,
    names: /more than 1500 emphasis delimiters/,
    atLimit: `${'*_'.repeat(750)}\n`,
  },
  {
    name: 'strikethrough',
    family: 'delimiters',
    hostile: `${'~a '.repeat(20_000)}\n`,
    names: /more than 1500 emphasis delimiters/,
    atLimit: `${'~a '.repeat(1500)}\n`,
  },
  {
    name: 'code-spans',
    family: 'delimiters',
    hostile: `${repeat(10_000, (index) => `${'`'.repeat((index % 50) + 1)}a`)}\n`,
    names: null,
  },
  {
    name: 'brackets',
    family: 'brackets',
    hostile: `${'[a]'.repeat(50_000)}\n`,
    names: /more than 4000 brackets/,
    atLimit: `${'[a]'.repeat(4000)}\n`,
  },
  {
    name: 'open-brackets',
    family: 'brackets',
    hostile: `${'[a'.repeat(30_000)}${'](b)'.repeat(30_000)}\n`,
    names: /more than 4000 brackets/,
    atLimit: `${'[a'.repeat(2000)}${'](b)'.repeat(2000)}\n`,
  },
  {
    name: 'nested-brackets',
    family: 'brackets',
    hostile: `${'['.repeat(50_000)}a${']'.repeat(50_000)}\n`,
    names: /more than 4000 brackets/,
    atLimit: `${'['.repeat(4000)}a${']'.repeat(4000)}\n`,
  },
  {
    name: 'links',
    family: 'brackets',
    hostile: '[a](b) '.repeat(50_000),
    names: /more than 4000 brackets/,
    atLimit: '[a](b) '.repeat(4000),
  },
  {
    name: 'reference-definitions',
    family: 'references',
    hostile: `${repeat(10_000, (i) => `[r${i}]: /x${i}\n`)}\n${repeat(10_000, (i) => `[r${i}] `)}\n`,
    names: /more than 4000 brackets/,
    atLimit: `${repeat(2000, (i) => `[r${i}]: /x${i}\n`)}\n${repeat(2000, (i) => `[r${i}] `)}\n`,
  },
  {
    name: 'footnotes',
    family: 'references',
    hostile: repeat(10_000, (i) => `[^${i}]: x\n`),
    names: /more than 500 footnotes/,
    atLimit: repeat(500, (i) => `[^${i}]: x\n`),
  },
  {
    name: 'entities',
    family: 'entities',
    hostile: '&amp; '.repeat(50_000),
    names: /more than 10000 character references/,
    atLimit: '&amp; '.repeat(10_000),
  },
  {
    name: 'html-tags',
    family: 'entities',
    hostile: '<span>'.repeat(50_000),
    names: /more than 10000 HTML tags/,
    atLimit: '<span>'.repeat(10_000),
  },
  {
    name: 'autolinks',
    family: 'entities',
    hostile: 'www.a.com '.repeat(30_000),
    names: /more than 5000 literal autolinks/,
    atLimit: 'www.a.com '.repeat(5000),
  },
  {
    name: 'table',
    family: 'huge',
    hostile: table(3000),
    names: /more than 4000 table cells/,
    atLimit: table(76),
  },
  {
    name: 'headings',
    family: 'huge',
    hostile: '# a\n'.repeat(5000),
    names: /more than 2000 headings/,
    atLimit: '# a\n'.repeat(2000),
  },
  {
    name: 'long-line',
    family: 'huge',
    hostile: 'word '.repeat(400_000),
    names: /2000000 characters, over the limit of 400000/,
    atLimit: 'word '.repeat(79_999),
  },
  {
    name: 'many-lines',
    family: 'huge',
    hostile: 'x\n\n'.repeat(50_000),
    names: /100001 lines, over the limit of 15000/,
    atLimit: 'x\n\n'.repeat(7499),
  },
  {
    name: 'code-block',
    family: 'code',
    hostile: `\`\`\`js\n${'const a = 1;\n'.repeat(14_000)}\`\`\`\n`,
    names: null,
  },
  {
    name: 'code-blocks',
    family: 'code',
    hostile: '```js\nconst a = 1;\n```\n\n'.repeat(3000),
    names: null,
  },
  {
    name: 'yaml-alias-bomb',
    family: 'frontmatter',
    hostile: `${ALIAS_BOMB_FRONTMATTER}\n# Laughs\n\nThe body is fine.\n`,
    names: null,
  },
];
