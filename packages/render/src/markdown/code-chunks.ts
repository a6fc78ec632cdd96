import type { Code } from 'mdast';
import { BLANK, FENCE, INDENTED_FENCE, type MarkdownChunk } from './chunks.js';

/**
 * The tree of a chunk that is one indented code block at the top (then blank lines, if any),
 * built without the parser; null for anything else, and for a chunk with a tab, which parses as usual.
 */
export function indentedCodeChunk(chunk: MarkdownChunk): Code | null {
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
export function fencedCodeChunk(chunk: MarkdownChunk): Code | null {
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
