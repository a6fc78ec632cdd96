import type { Code, Heading, InlineCode, Link, List, Paragraph, Root, RootContent, Text } from 'mdast';

/** A stretch of a page that Markdown parses on its own: top-level blocks between two split points. */
export interface MarkdownChunk {
  text: string;
  /** Offset of the chunk's first character in the page. */
  offset: number;
  /** 1-based line of the chunk's first line in the page. */
  line: number;
}

const BLANK = /^[ \t]*$/;
/** A line that may start a list item: after a blank line it could continue (and loosen) a list above. */
const LIST_MARKER = /^(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
/** What opens YAML frontmatter on a parser's first line. */
const YAML_FENCE = /^---[ \t]*$/;
/** A line that may start a list item in any column a list at the top can start in. */
const LIST_ITEM = /^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
/** A line indented four columns or more (a tab counts to the fourth). */
const INDENTED = /^(?: {4}| {0,3}\t)/;
/** A code fence at the very start of a line, and the rest of its line. */
const FENCE = /^(`{3,}|~{3,})(.*)$/;
/** A fence indented by one to three spaces: where it belongs depends on containers this scan does not read. */
const INDENTED_FENCE = /^ {1,3}(?:`{3,}|~{3,})/;
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

/** Moves every position in `node` (a tree or a list of trees) `line` lines and `offset` characters, in place. */
function shift(node: unknown, line: number, offset: number): void {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const child of node) shift(child, line, offset);
    return;
  }
  const record = node as Record<string, unknown>;
  const position = record.position as
    | { start: { line: number; offset?: number }; end: { line: number; offset?: number } }
    | undefined;
  if (position) {
    for (const point of [position.start, position.end]) {
      point.line += line;
      if (point.offset !== undefined) point.offset += offset;
    }
  }
  if (Array.isArray(record.children)) shift(record.children, line, offset);
}

/**
 * A deep copy of parsed nodes (plain objects, arrays and primitives) with every position moved
 * `line` lines and `offset` characters: copying and moving in one walk. Only for trees that share
 * no object between two places, as a parser's fresh trees never do.
 */
function shiftedCopy(value: unknown, line: number, offset: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let index = 0; index < value.length; index++) out[index] = shiftedCopy(value[index], line, offset);
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const field = (value as Record<string, unknown>)[key];
    out[key] =
      key === 'position' && field ? shiftedPosition(field as Position, line, offset) : shiftedCopy(field, line, offset);
  }
  return out;
}

interface Point {
  line: number;
  column: number;
  offset?: number;
}
interface Position {
  start: Point;
  end: Point;
}

function shiftedPosition(position: Position, line: number, offset: number): Position {
  const point = ({ line: at, column, offset: from }: Point): Point =>
    from === undefined ? { line: at + line, column } : { line: at + line, column, offset: from + offset };
  return { start: point(position.start), end: point(position.end) };
}

/**
 * The tree of a chunk that is one indented code block at the top (then blank lines, if any),
 * built without the parser; null for anything else, and for a chunk with a tab, which parses as usual.
 */
function indentedCodeChunk(chunk: MarkdownChunk): Code | null {
  if (!chunk.text.startsWith('    ') || chunk.text.includes('\t')) return null;
  const lines = chunk.text.split('\n');
  if (BLANK.test(lines[0]!)) return null;
  // The block runs to its last line indented four spaces, be it blank; the line ending before
  // such a blank line is all its value keeps of it.
  let last = lines.length - 1;
  while (last > 0 && !lines[last]!.startsWith('    ')) {
    if (!BLANK.test(lines[last]!)) return null;
    last -= 1;
  }
  let end = chunk.offset;
  const value: string[] = [];
  for (let line = 0; line <= last; line++) {
    const text = lines[line]!;
    if (text.startsWith('    ')) value.push(text.slice(4));
    else if (BLANK.test(text)) value.push('');
    else return null;
    end += text.length + 1;
  }
  return {
    type: 'code',
    lang: null,
    meta: null,
    value: value.join('\n').replace(/\n$/, ''),
    position: {
      start: { line: chunk.line, column: 1, offset: chunk.offset },
      end: { line: chunk.line + last, column: lines[last]!.length + 1, offset: end - 1 },
    },
  };
}

/**
 * The tree of a chunk that is one fenced code block at the first column (then blank lines, if
 * any), built without the parser: it is what the parser gives, and a good part of documentation
 * is code. Null for anything else, and for an info string this does not read the way the parser
 * does (tabs, escapes, character references), which then parses as usual.
 */
function fencedCodeChunk(chunk: MarkdownChunk): Code | null {
  const lines = chunk.text.split('\n');
  const opening = FENCE.exec(lines[0]!);
  if (!opening) return null;
  const [, marker, info] = opening as unknown as [string, string, string];
  if (/[\t\\&]/.test(info) || (marker[0] === '`' && info.includes('`'))) return null;
  let close = 1;
  for (; close < lines.length; close++) {
    const closing = FENCE.exec(lines[close]!);
    if (closing && closing[1]![0] === marker[0] && closing[1]!.length >= marker.length && BLANK.test(closing[2]!))
      break;
    if (INDENTED_FENCE.test(lines[close]!)) return null;
  }
  if (close >= lines.length) return null;
  for (let after = close + 1; after < lines.length; after++) if (!BLANK.test(lines[after]!)) return null;
  const words = info.replace(/^ +/, '');
  const space = words.indexOf(' ');
  const lang = words === '' ? null : space === -1 ? words : words.slice(0, space);
  const meta = space === -1 ? '' : words.slice(space).replace(/^ +/, '');
  let end = chunk.offset;
  for (let line = 0; line <= close; line++) end += lines[line]!.length + 1;
  const closingLine = lines[close]!;
  return {
    type: 'code',
    lang,
    meta: meta === '' ? null : meta,
    value: lines.slice(1, close).join('\n'),
    position: {
      start: { line: chunk.line, column: 1, offset: chunk.offset },
      end: { line: chunk.line + close, column: closingLine.length + 1, offset: end - 1 },
    },
  };
}

/** Where a paragraph's first line may start: a letter, or a backtick that opens no fence. */
const PLAIN_FIRST_LINE = /^(?:[A-Za-z]|`(?!``))/;
/**
 * Where a paragraph's later line may start (after its indent) and go on with the paragraph: a
 * letter, a digit that opens no list item, a backtick that opens no fence, or `(`, `"`, `'`, `$`,
 * `/`. Anything else might start a block that interrupts it (a heading, list, quote, table,
 * HTML block, setext underline, thematic break).
 */
const PLAIN_NEXT_LINE = /^ *(?:[A-Za-z("'$/]|\d(?!\d{0,8}[.)])|`(?!``))/;
/**
 * Where a list item's text may start: as a paragraph's later line, or with a link. Anything else
 * might open a block inside the item (`- 1. x` is a list in a list, `- # x` a heading).
 */
const PLAIN_ITEM_START = /^(?:[A-Za-z("'$/[]|\d(?!\d{0,8}[.)])|`(?!``))/;
/**
 * Outside code spans, what a plain paragraph never holds: the characters that may start or end an
 * inline construct other than code (emphasis, strikethrough, links, images, footnotes, HTML,
 * autolinks, character references, escapes, table cells) and GFM's literal autolinks.
 */
const NOT_PLAIN_TEXT = /[*_~[\]<&\\|@\t]|:\/\/|www\./i;

/** Phrasing content as a plain paragraph or heading holds it: text, code spans and inline links. */
type PlainPhrasing = Text | InlineCode | Link;

/** A link destination with nothing the parser would decode or end early: no escapes, references, spaces or parentheses. */
const PLAIN_DESTINATION = /^[\w\-.~:/?#@!$*+,;=%{}]+$/;

/**
 * Adds the text, code spans and inline links (`[text](destination)`, no title) of `line` from
 * `from` to `to` to `children` (text joins an open text node, as the parser's does), or answers
 * false when that stretch is not plain: a code span or link not closed on the line, an image, a
 * link in a link, or a character that may start another construct outside code.
 */
function addPlainPhrasing(
  children: PlainPhrasing[],
  line: string,
  from: number,
  to: number,
  at: (column: number) => Point,
  inLink = false,
): boolean {
  let cursor = from;
  const addText = (end: number) => {
    if (end === cursor) return true;
    const value = line.slice(cursor, end);
    if (NOT_PLAIN_TEXT.test(value)) return false;
    addTextNode(children, value, at(cursor), at(end));
    return true;
  };
  // Left to right, as the parser goes: whichever of a code span and a link starts first takes its text.
  for (let next = nextPhrasing(line, cursor, to); next !== -1; next = nextPhrasing(line, cursor, to)) {
    if (!addText(next)) return false;
    if (line[next] === '[') {
      const close = line.indexOf(']', next + 1);
      if (inLink || close === -1 || close >= to || line[close + 1] !== '(' || line[next - 1] === '!') return false;
      const label = line.slice(next + 1, close);
      const end = line.indexOf(')', close + 2);
      if (label === '' || label.includes('[') || label[0] === '^' || end === -1 || end >= to) return false;
      const url = line.slice(close + 2, end);
      if (!PLAIN_DESTINATION.test(url)) return false;
      const link: Link = {
        type: 'link',
        title: null,
        url,
        children: [],
        position: { start: at(next), end: at(end + 1) },
      };
      if (!addPlainPhrasing(link.children as PlainPhrasing[], line, next + 1, close, at, true)) return false;
      children.push(link);
      cursor = end + 1;
      continue;
    }
    let size = 1;
    while (line[next + size] === '`') size += 1;
    // The code span closes at the next run of exactly as many backticks before `to`.
    let closing = -1;
    for (let tick = line.indexOf('`', next + size); tick !== -1 && tick < to; ) {
      let length = 1;
      while (line[tick + length] === '`') length += 1;
      if (length === size) {
        closing = tick;
        break;
      }
      tick = line.indexOf('`', tick + length);
    }
    if (closing === -1 || closing + size > to) return false;
    let value = line.slice(next + size, closing);
    if (value.startsWith(' ') && value.endsWith(' ') && value.trim() !== '') value = value.slice(1, -1);
    children.push({ type: 'inlineCode', value, position: { start: at(next), end: at(closing + size) } });
    cursor = closing + size;
  }
  return addText(to);
}

/** Adds text to `children`: to the text node open at its end, as the parser joins them, or as a new one. */
function addTextNode(children: PlainPhrasing[], value: string, start: Point, end: Point): void {
  const open = children.at(-1);
  if (open?.type === 'text') {
    open.value += value;
    open.position!.end = end;
  } else children.push({ type: 'text', value, position: { start, end } });
}

/** Where the next code span or link may start in `line` from `from`, before `to`; -1 for none. */
function nextPhrasing(line: string, from: number, to: number): number {
  for (let index = from; index < to; index++) {
    const char = line.charCodeAt(index);
    if (char === 96 /* ` */ || char === 91 /* [ */) return index;
  }
  return -1;
}

/** A Laravel-style anchor before a heading: a paragraph of two HTML nodes, which the heading interrupts. */
const ANCHOR_LINE = /^<a name="[\w-]+"><\/a>$/;
/** An ATX heading: its marker, then its text (which must not end in a closing sequence). */
const ATX_LINE = /^(#{1,6}) +(?=[^ ])/;

/** An item of a tight bullet list as tables of contents are written: `-`, one space, four more spaces per level. */
const LIST_ITEM_LINE = /^((?: {4})*)- (?=\S)/;
/** What would make an item a GFM task (`[ ]`, `[x]`). */
const TASK = /^\[[ xX]\]/;

/** A block of a plain chunk. */
type PlainBlock = Paragraph | Heading | List;

/** What a builder of plain blocks reads (a chunk's lines, where each character is) and adds to. */
interface PlainChunk {
  blocks: PlainBlock[];
  lines: string[];
  point: (index: number, column: number) => Point;
}

/**
 * The tree of a chunk made of plain blocks, built without the parser: a paragraph or an ATX
 * heading (after an `<a name>` anchor line, if any) of plain text, code spans and inline links,
 * and, after a blank line, a tight bullet list of such one-line items, nested four spaces a level
 * (a table of contents); then blank lines. It is what the parser gives, positions included, and
 * most of a documentation page is such blocks. Null for anything else (a code span or link across
 * lines, trailing spaces, tabs, anything that may start another construct), which parses as usual.
 */
export function plainBlocksChunk(chunk: MarkdownChunk): PlainBlock[] | null {
  const lines = chunk.text.split('\n');
  const offsets: number[] = [];
  let offset = chunk.offset;
  for (const line of lines) {
    offsets.push(offset);
    offset += line.length + 1;
  }
  const point = (index: number, column: number): Point => ({
    line: chunk.line + index,
    column: column + 1,
    offset: offsets[index]! + column,
  });
  const blocks: PlainBlock[] = [];
  let index = 0;
  while (index < lines.length) {
    if (BLANK.test(lines[index]!)) {
      index += 1;
      continue;
    }
    // A list is the last block: what follows it after a blank line would go on with it.
    if (blocks.at(-1)?.type === 'list') return null;
    let last = index;
    while (last + 1 < lines.length && !BLANK.test(lines[last + 1]!)) last += 1;
    for (let at = index; at <= last; at++) if (lines[at]!.endsWith(' ')) return null;
    const added = LIST_ITEM_LINE.test(lines[index]!)
      ? addTightList({ blocks, lines, point }, index, last)
      : addParagraphOrHeading({ blocks, lines, point }, index, last);
    if (!added) return null;
    index = last + 1;
  }
  return blocks.length > 0 ? blocks : null;
}

/** Adds the paragraph or heading on lines `first` to `last` (no blank among them), or answers false. */
function addParagraphOrHeading(chunk: PlainChunk, first: number, last: number): boolean {
  const { blocks, lines, point } = chunk;
  const firstLine = lines[first]!;
  const anchored = last === first + 1 && ANCHOR_LINE.test(firstLine);
  if (anchored || (last === first && ATX_LINE.test(firstLine))) {
    let index = first;
    if (anchored) {
      const end = firstLine.indexOf('</a>');
      blocks.push({
        type: 'paragraph',
        children: [
          {
            type: 'html',
            value: firstLine.slice(0, end),
            position: { start: point(first, 0), end: point(first, end) },
          },
          { type: 'html', value: '</a>', position: { start: point(first, end), end: point(first, firstLine.length) } },
        ],
        position: { start: point(first, 0), end: point(first, firstLine.length) },
      });
      index += 1;
    }
    const line = lines[index]!;
    const marker = ATX_LINE.exec(line);
    if (!marker || line.endsWith('#')) return false;
    const children: PlainPhrasing[] = [];
    if (!addPlainPhrasing(children, line, marker[0].length, line.length, (column) => point(index, column)))
      return false;
    blocks.push({
      type: 'heading',
      depth: marker[1]!.length as Heading['depth'],
      children,
      position: { start: point(index, 0), end: point(index, line.length) },
    });
    return true;
  }
  if (!PLAIN_FIRST_LINE.test(firstLine)) return false;
  const children: PlainPhrasing[] = [];
  for (let index = first; index <= last; index++) {
    const line = lines[index]!;
    if (index > first) {
      if (!PLAIN_NEXT_LINE.test(line)) return false;
      // The line ending is text (it joins the text before it); the next line's indent is not.
      addTextNode(children, '\n', point(index - 1, lines[index - 1]!.length), point(index, 0));
    }
    const indent = index === first ? 0 : line.length - line.trimStart().length;
    if (!addPlainPhrasing(children, line, indent, line.length, (column) => point(index, column))) return false;
  }
  blocks.push({
    type: 'paragraph',
    children,
    position: { start: point(first, 0), end: point(last, lines[last]!.length) },
  });
  return true;
}

/**
 * Adds the tight bullet list on lines `first` to `last` (no blank among them), each line an item
 * of plain phrasing at four spaces a level, or answers false.
 */
function addTightList(chunk: PlainChunk, first: number, last: number): boolean {
  const { blocks, lines, point } = chunk;
  /** The lists open at each level, outermost first. */
  const open: List[] = [];
  for (let index = first; index <= last; index++) {
    const line = lines[index]!;
    const marker = LIST_ITEM_LINE.exec(line);
    if (!marker) return false;
    const level = marker[1]!.length / 4;
    const column = marker[0].length;
    const text = line.slice(column);
    if (level > open.length || !PLAIN_ITEM_START.test(text) || TASK.test(text)) return false;
    open.length = Math.max(open.length, level);
    if (level === open.length) {
      const list: List = { type: 'list', ordered: false, start: null, spread: false, children: [] };
      if (level === 0) blocks.push(list);
      else open[level - 1]!.children.at(-1)!.children.push(list);
      list.position = { start: point(index, column - 2), end: point(index, line.length) };
      open.push(list);
    }
    open.length = level + 1;
    const children: PlainPhrasing[] = [];
    if (!addPlainPhrasing(children, line, column, line.length, (at) => point(index, at))) return false;
    const paragraph: Paragraph = {
      type: 'paragraph',
      children,
      position: { start: point(index, column), end: point(index, line.length) },
    };
    open[level]!.children.push({
      type: 'listItem',
      spread: false,
      checked: null,
      children: [paragraph],
      position: { start: point(index, column - 2), end: point(index, line.length) },
    });
    // Every list and item this one is in now ends where it ends.
    for (const list of open) {
      list.position!.end = point(index, line.length);
      list.children.at(-1)!.position!.end = point(index, line.length);
    }
  }
  return true;
}

/**
 * Characters of chunks parsed in one go. Parsing each chunk alone costs the parser's set-up each
 * time, parsing a whole long page costs more per character: on the Laravel docs, groups of 1 to
 * 16 KB take about two thirds of the time of either.
 */
const GROUP_BYTES = 8 * 1024;

/** Characters of chunk text whose trees a parser keeps by default. */
const DEFAULT_CHUNK_BYTES = 1024 * 1024;

/**
 * A parser that keeps the trees of the chunks it parsed ({@link splitMarkdown}) and parses only
 * the chunks it has not seen: another version of a page, which mostly repeats the one before with
 * a few sections changed, costs the changed sections. Chunks not seen are parsed in groups of a
 * few kilobytes ({@link GROUP_BYTES}) and their tree shared out by position: no top-level block
 * crosses a cut. A chunk that is one code block, fenced or indented, or made of plain paragraphs,
 * headings and tables of contents ({@link plainBlocksChunk}), needs no parser at all. The
 * tree is the one `parse` gives for the whole page, positions included. A page that cannot be cut
 * is kept whole, the last one only. Kept trees are never handed out, only copies of them
 * (rendering edits the tree it is given).
 */
export function createChunkedParser(
  parse: (markdown: string) => Root,
  maxBytes = DEFAULT_CHUNK_BYTES,
): (markdown: string) => Root {
  /** Chunk trees by their text, positions counted from the chunk's start; most recently used last. */
  const kept = new Map<string, RootContent[]>();
  let bytes = 0;
  /** The last page that could not be cut, to copy when it comes again (the same page in the next version). */
  let whole: { markdown: string; tree: Root } | null = null;
  /**
   * The trees of the chunks at `indexes` (in page order), parsed in one go as if they stood one
   * after the other, and positioned in the page. Each parses there as it does in the page: a cut
   * starts afresh whatever came before it. Null when a node has no position to place it by.
   */
  const parseGroup = (chunks: MarkdownChunk[], indexes: number[]): RootContent[][] | null => {
    let text = '';
    let lines = 0;
    const starts = indexes.map((index) => {
      const start = { offset: text.length, line: lines + 1 };
      const chunk = chunks[index]!.text;
      text += chunk;
      for (let at = chunk.indexOf('\n'); at !== -1; at = chunk.indexOf('\n', at + 1)) lines += 1;
      return start;
    });
    const trees: RootContent[][] = indexes.map(() => []);
    let at = 0;
    for (const node of parse(text).children) {
      const start = node.position?.start.offset;
      if (start === undefined) return null;
      while (at + 1 < starts.length && starts[at + 1]!.offset <= start) at += 1;
      trees[at]!.push(node);
    }
    trees.forEach((nodes, member) => {
      const chunk = chunks[indexes[member]!]!;
      shift(nodes, chunk.line - starts[member]!.line, chunk.offset - starts[member]!.offset);
    });
    return trees;
  };
  return (markdown) => {
    const chunks = splitMarkdown(markdown);
    if (chunks === null || chunks.length < 2) {
      if (whole?.markdown === markdown) return shiftedCopy(whole.tree, 0, 0) as Root;
      const tree = parse(markdown);
      whole = { markdown, tree: shiftedCopy(tree, 0, 0) as Root };
      return tree;
    }
    // Per chunk: a kept tree (to copy into place), or nodes parsed now, already in place.
    const known: Array<RootContent[] | undefined> = [];
    const parsed: Array<RootContent[] | undefined> = [];
    // Chunks not seen are parsed a group at a time: a parser costs something to set up, and
    // past some kilobytes micromark slows down with the length of its input.
    let group: number[] = [];
    let groupBytes = 0;
    const flush = (): boolean => {
      if (group.length === 0) return true;
      const trees = parseGroup(chunks, group);
      if (trees === null) return false;
      group.forEach((index, member) => {
        parsed[index] = trees[member];
      });
      group = [];
      groupBytes = 0;
      return true;
    };
    for (let index = 0; index < chunks.length; index++) {
      const chunk = chunks[index]!;
      const tree = kept.get(chunk.text);
      if (tree) {
        known[index] = tree;
        continue;
      }
      const code = fencedCodeChunk(chunk) ?? indentedCodeChunk(chunk);
      const plain = code ? [code] : plainBlocksChunk(chunk);
      if (plain) {
        parsed[index] = plain;
        continue;
      }
      if (groupBytes > 0 && groupBytes + chunk.text.length > GROUP_BYTES && !flush()) return parse(markdown);
      group.push(index);
      groupBytes += chunk.text.length;
    }
    if (!flush()) return parse(markdown);
    const children: RootContent[] = [];
    chunks.forEach((chunk, index) => {
      const fresh = parsed[index];
      // Handed out: the nodes parsed now, or a copy of the kept ones. Kept: never a tree handed out.
      const tree = fresh ?? (shiftedCopy(known[index], chunk.line - 1, chunk.offset) as RootContent[]);
      const keep = fresh ? (shiftedCopy(fresh, 1 - chunk.line, -chunk.offset) as RootContent[]) : known[index]!;
      // Most recently used last; a chunk seen for the first time counts toward the budget.
      if (!kept.delete(chunk.text)) bytes += chunk.text.length;
      kept.set(chunk.text, keep);
      for (const node of tree) children.push(node);
    });
    while (bytes > maxBytes) {
      const oldest = kept.keys().next().value as string;
      kept.delete(oldest);
      bytes -= oldest.length;
    }
    const lastBreak = markdown.lastIndexOf('\n');
    return {
      type: 'root',
      children,
      position: {
        start: { line: 1, column: 1, offset: 0 },
        end: {
          line: (markdown.match(/\n/g)?.length ?? 0) + 1,
          column: markdown.length - lastBreak,
          offset: markdown.length,
        },
      },
    };
  };
}
