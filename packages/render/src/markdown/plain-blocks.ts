import type { Heading, InlineCode, Link, List, Paragraph, Text } from 'mdast';
import { BLANK, type MarkdownChunk } from './chunks.js';
import type { Point } from './shift.js';

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
