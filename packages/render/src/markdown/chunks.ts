/** A stretch of a page that Markdown parses on its own: top-level blocks between two split points. */
export interface MarkdownChunk {
  text: string;
  /** Offset of the chunk's first character in the page. */
  offset: number;
  /** 1-based line of the chunk's first line in the page. */
  line: number;
}

/** A blank line: spaces and tabs only. */
export const BLANK = /^[ \t]*$/;

/** A line that may start a list item: after a blank line it could continue (and loosen) a list above. */
const LIST_MARKER = /^(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;

/** What opens YAML frontmatter on a parser's first line. */
const YAML_FENCE = /^---[ \t]*$/;

/** A line that may start a list item in any column a list at the top can start in. */
const LIST_ITEM = /^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;

/** A line indented four columns or more (a tab counts to the fourth). */
const INDENTED = /^(?: {4}| {0,3}\t)/;

/** A code fence at the very start of a line, and the rest of its line. */
export const FENCE = /^(`{3,}|~{3,})(.*)$/;

/** A fence indented by one to three spaces: where it belongs depends on containers this scan does not read. */
export const INDENTED_FENCE = /^ {1,3}(?:`{3,}|~{3,})/;

/**
 * What may end a link reference or footnote definition's label, in a block quote or list item too:
 * a definition changes how text elsewhere in the page parses.
 */
const DEFINITION = /\]:(?:[ \t]|$)/;

/**
 * The HTML blocks that run past blank lines (CommonMark types 1 to 5, `<style>` and `<!--` say), with
 * what ends each: no cut goes inside one.
 */
const LONG_HTML: Array<[RegExp, RegExp]> = [
  [/^ {0,3}<(?:script|pre|style|textarea)(?:[ \t>]|$)/i, /<\/(?:script|pre|style|textarea)>/i],
  [/^ {0,3}<!--/, /-->/],
  [/^ {0,3}<\?/, /\?>/],
  [/^ {0,3}<![A-Za-z]/, />/],
  [/^ {0,3}<!\[CDATA\[/, /\]\]>/],
];

/** Anything that looks like a code fence, at any indent or in a container. */
const ANY_FENCE = /^[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?[ \t>]*(?:`{3,}|~{3,})/;

/**
 * Cuts a page into chunks that parse exactly as they do within the page, or null when this cannot
 * be sure of it (the page is then parsed whole). A cut goes only before a line that starts at the
 * first column after a blank line: there every container (list, block quote, indented or nested
 * code, paragraph) has ended, unless the line starts a list item (which would continue the list
 * and change whether it is loose) or a fenced code block or long HTML block (`<style>`, `<!--`)
 * at the top is still open. A cut also goes before a line indented four spaces after a blank line
 * when no line since the last cut may have started a list item and the last line before the blank
 * was not indented: that line starts indented code at the top. No cut goes before a `---` line,
 * which a parser would read as frontmatter at the start of its input. Pages with link reference or
 * footnote definitions are never cut: a definition changes how text anywhere in the page parses. Nor are pages with a carriage return,
 * or with a fence or long HTML block this scan cannot place for sure (indented, where a list item
 * may hold it; inside a long HTML block, whose end the scan could misplace).
 */
export function splitMarkdown(markdown: string): MarkdownChunk[] | null {
  if (markdown.includes('\r') || markdown.includes('\0')) return null;
  const lines = markdown.split('\n');
  let index = 0;
  let offset = 0;
  const advance = () => {
    offset += (lines[index] as string).length + 1;
    index += 1;
  };
  // YAML frontmatter is part of the first chunk: its lines are not Markdown.
  if (lines[0] === '---') {
    const close = lines.findIndex((line, at) => at > 0 && line === '---');
    if (close === -1) return null;
    while (index <= close) advance();
  }
  const chunks: MarkdownChunk[] = [];
  let start = { offset: 0, line: 1 };
  const cut = () => {
    if (offset > start.offset) {
      chunks.push({ text: markdown.slice(start.offset, offset), offset: start.offset, line: start.line });
    }
    start = { offset, line: index + 1 };
  };
  let fence: { marker: string; length: number } | null = null;
  let longHtml: RegExp | null = null;
  // The start of the page (or the line after its frontmatter) is where a block starts, as after a blank line.
  let afterBlank = true;
  /** A line since the last cut may have started a list item, which an indented line would continue. */
  let listOpen = false;
  /** The last line that is not blank was indented like code: an indented line after it may go on with it. */
  let lastIndented = false;
  let inHtml = false;
  for (; index < lines.length; advance()) {
    const line = lines[index] as string;
    if (fence) {
      const closing = FENCE.exec(line);
      if (closing && closing[1]![0] === fence.marker && closing[1]!.length >= fence.length && BLANK.test(closing[2]!)) {
        fence = null;
      } else if (/^ {1,3}(?:`{3,}|~{3,})/.test(line)) {
        return null;
      }
      continue;
    }
    if (longHtml) {
      if (ANY_FENCE.test(line) || LONG_HTML.some(([opens]) => opens.test(line))) return null;
      if (longHtml.test(line)) longHtml = null;
      continue;
    }
    if (BLANK.test(line)) {
      afterBlank = true;
      inHtml = false;
      continue;
    }
    if (DEFINITION.test(line) || INDENTED_FENCE.test(line)) return null;
    for (const [opens, ends] of LONG_HTML) {
      const match = opens.exec(line);
      if (!match || ends.test(line.slice(match[0].length))) continue;
      // Only at the first column is it sure to be at the top, out of any list item.
      if (line[0] !== '<') return null;
      longHtml = ends;
    }
    const opening = FENCE.exec(line);
    if (opening) {
      // Inside an HTML block a fence is text; a backtick fence with a backtick after it is no fence.
      if (inHtml || (opening[1]![0] === '`' && opening[2]!.includes('`'))) return null;
    }
    // `---` first in a parser's input would open YAML frontmatter: a chunk never starts with one.
    const startsBlock = line[0] !== ' ' && line[0] !== '\t' && !LIST_MARKER.test(line) && !YAML_FENCE.test(line);
    if (afterBlank && startsBlock) {
      cut();
      listOpen = false;
    } else if (afterBlank && !listOpen && !lastIndented && line.startsWith('    ')) {
      // Indented code at the top (no list item is open to hold the line, nor indented code to go on).
      cut();
    }
    if (LIST_ITEM.test(line)) listOpen = true;
    lastIndented = INDENTED.test(line);
    if (opening) fence = { marker: opening[1]![0]!, length: opening[1]!.length };
    // Any line opening with a tag may start an HTML block, which runs to the next blank line.
    if (/^ {0,3}</.test(line)) inHtml = true;
    afterBlank = false;
  }
  if (fence || longHtml) return null;
  offset = markdown.length;
  cut();
  return chunks;
}
