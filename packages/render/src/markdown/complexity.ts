/**
 * Limits past which a page is not parsed: micromark's parse time or memory grows faster than the
 * page (nested and repeated containers, delimiter and bracket runs), or the page holds so many
 * constructs that its tree alone would take hundreds of megabytes (every link, table cell or
 * heading is a few kilobytes of syntax tree and events). Each sits five to ten times above the
 * largest Laravel page (1090 brackets, 613 delimiter runs, 91 container blocks, 4391 lines,
 * 124 kB); `bench/hostile` measures what a page at these limits costs. Fenced code is not counted.
 */
export const COMPLEXITY_LIMITS = {
  /** Characters in the page body. */
  characters: 400_000,
  /** Lines in the page body. */
  lines: 15_000,
  /** Block quotes and list items opened on one line (`> > >`, `- - -`): the parser recurses per level. */
  nestingDepth: 100,
  /** Columns of indentation before a list item. */
  listIndent: 160,
  /**
   * Block quotes and lists opened after a line outside them, times the lines and nesting levels
   * of the page: each closed container costs the parser a pass over what it has read so far.
   */
  containerWork: 2_000_000,
  /** Runs of `*`, `_` or `~` (each may open or close emphasis; matching them is quadratic). */
  delimiterRuns: 1500,
  /** `[` characters: links, images, references and footnotes start with one. */
  brackets: 4000,
  /** Footnote references and definitions (`[^`). */
  footnotes: 500,
  /** `|` characters: table cells. */
  tableCells: 4000,
  /** `&` characters: character references. */
  entities: 10_000,
  /** `<` characters: HTML tags, components and autolinks. */
  htmlTags: 10_000,
  /** Component tags (`<Callout>`, `</Callout>`): each paired one is parsed again on its own. */
  componentTags: 1000,
  /** `www.`, `://` and `@`: literal autolinks. */
  autolinks: 5000,
  /** ATX headings (`#` lines). */
  headings: 2000,
} as const;

/**
 * How much code a page highlights; longer blocks and the blocks past the page's budget are shown as
 * plain code (the page itself is not degraded). Laravel's longest block has 1762 characters, and a
 * page of it at most 278 blocks and 46 kB of code.
 */
export const HIGHLIGHT_LIMITS = {
  /** Characters in one code block. */
  blockCharacters: 10_000,
  /** Characters of highlighted code on one page. */
  pageCharacters: 100_000,
  /** Highlighted code blocks on one page (each costs a few milliseconds however short). */
  blocks: 500,
} as const;

type CountedLimit =
  | 'brackets'
  | 'footnotes'
  | 'tableCells'
  | 'entities'
  | 'htmlTags'
  | 'componentTags'
  | 'autolinks'
  | 'headings';

const COUNTED: Record<CountedLimit, string> = {
  brackets: 'brackets (`[`: links, images, references)',
  footnotes: 'footnotes (`[^`)',
  tableCells: 'table cells (`|`)',
  entities: 'character references (`&`)',
  htmlTags: 'HTML tags and components (`<`)',
  componentTags: 'component tags (`<Name>`)',
  autolinks: 'literal autolinks (`www.`, `://`, `@`)',
  headings: 'headings',
};

const [STAR, UNDERSCORE, TILDE, OPEN_BRACKET, CARET, PIPE, AMPERSAND, LESS_THAN, SLASH, AT, COLON, DOT] = [
  ...'*_~[^|&</@:.',
].map((char) => char.charCodeAt(0));

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
/** The block quote and list markers that open a line, each with what precedes it. */
const CONTAINER_PREFIX = /^(?:[ \t]*(?:>|(?:[-+*]|\d{1,9}[.)])(?=[ \t]|$)))+/;
const CONTAINER_MARKER = />|[-+*]|\d{1,9}[.)]/g;
const LIST_INDENT = /^[ \t]*(?=(?:[-+*]|\d{1,9}[.)])(?:\s|$))/;
const AUTOLINK_START = /www\.|:\/\/|@/gi;
const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;

/**
 * Why the page is too complex to parse in bounded time and memory, naming the construct and the
 * limit, or null. One linear pass over the lines; fenced code is skipped, since its content is
 * never parsed as Markdown.
 *
 * @example
 * tooComplex('- '.repeat(1000)); // 'block quotes and lists nested 1000 deep, over the limit of 100'
 * tooComplex('# Routing\n'); // null
 */
export function tooComplex(markdown: string): string | null {
  if (markdown.length > COMPLEXITY_LIMITS.characters) {
    return `${markdown.length} characters, over the limit of ${COMPLEXITY_LIMITS.characters}`;
  }
  const lines = markdown.split('\n');
  if (lines.length > COMPLEXITY_LIMITS.lines) {
    return `${lines.length} lines, over the limit of ${COMPLEXITY_LIMITS.lines}`;
  }
  const counts: Record<CountedLimit, number> = {
    brackets: 0,
    footnotes: 0,
    tableCells: 0,
    entities: 0,
    htmlTags: 0,
    componentTags: 0,
    autolinks: 0,
    headings: 0,
  };
  let fence: string | null = null;
  let delimiterRuns = 0;
  let containerOpenings = 0;
  let containerLevels = 0;
  let inContainer = false;
  let mayAutolink = false;
  for (const line of lines) {
    const fenceMatch = FENCE.exec(line);
    if (fenceMatch) {
      const marker = fenceMatch[1] as string;
      if (fence === null) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      continue;
    }
    if (fence !== null) continue;

    const prefix = CONTAINER_PREFIX.exec(line)?.[0] ?? '';
    const depth = prefix === '' ? 0 : (prefix.match(CONTAINER_MARKER)?.length ?? 0);
    if (depth > COMPLEXITY_LIMITS.nestingDepth) {
      const what = /^[ \t>]*$/.test(prefix) ? 'block quotes' : 'block quotes and lists';
      return `${what} nested ${depth} deep, over the limit of ${COMPLEXITY_LIMITS.nestingDepth}`;
    }
    const indent = LIST_INDENT.exec(line)?.[0].length ?? 0;
    if (indent > COMPLEXITY_LIMITS.listIndent) {
      return `a list item indented ${indent} columns, over the limit of ${COMPLEXITY_LIMITS.listIndent}`;
    }
    if (depth > 0 && !inContainer) containerOpenings++;
    // A line right under a container's line continues it (lazily); a blank line ends it.
    inContainer = depth > 0 || (inContainer && line.trim() !== '');
    containerLevels += depth;

    if (ATX_HEADING.test(line)) counts.headings++;
    let previous = 0;
    for (let at = 0; at < line.length; at++) {
      const code = line.charCodeAt(at);
      switch (code) {
        case STAR:
        case UNDERSCORE:
        case TILDE:
          if (code !== previous) delimiterRuns++;
          break;
        case OPEN_BRACKET:
          counts.brackets++;
          if (line.charCodeAt(at + 1) === CARET) counts.footnotes++;
          break;
        case PIPE:
          counts.tableCells++;
          break;
        case AMPERSAND:
          counts.entities++;
          break;
        case LESS_THAN: {
          counts.htmlTags++;
          const next = line.charCodeAt(line.charCodeAt(at + 1) === SLASH ? at + 2 : at + 1);
          if (next >= 65 && next <= 90) counts.componentTags++;
          break;
        }
        case AT:
        case COLON:
        case DOT:
          mayAutolink = true;
          break;
      }
      previous = code;
    }
    if (mayAutolink) {
      counts.autolinks += line.match(AUTOLINK_START)?.length ?? 0;
      mayAutolink = false;
    }
    if (delimiterRuns > COMPLEXITY_LIMITS.delimiterRuns) {
      return `more than ${COMPLEXITY_LIMITS.delimiterRuns} emphasis delimiters (runs of \`*\`, \`_\` or \`~\`)`;
    }
    for (const name of Object.keys(counts) as CountedLimit[]) {
      if (counts[name] > COMPLEXITY_LIMITS[name]) return `more than ${COMPLEXITY_LIMITS[name]} ${COUNTED[name]}`;
    }
  }
  const containerWork = containerOpenings * (lines.length + containerLevels);
  if (containerWork > COMPLEXITY_LIMITS.containerWork) {
    const allowed = Math.floor(COMPLEXITY_LIMITS.containerWork / (lines.length + containerLevels));
    return `${containerOpenings} separate block quotes and lists, over the limit of ${allowed} on a page of ${lines.length} lines`;
  }
  return null;
}
