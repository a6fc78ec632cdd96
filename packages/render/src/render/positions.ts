import type { Nodes } from 'mdast';

/** Maps an offset in some derived text back to an offset in the page source. */
export type OffsetMap = (offset: number) => number;

/**
 * Maps offsets in `value`, the text of a node that runs from `start` to `end` in `source`, back
 * to `source`. Inside a list item or block quote the node's value lacks each line's container
 * prefix (`  `, `> `), so lines are matched one by one as the tail of their source line. Null when
 * the value does not line up with the source (then nothing inside may be edited by offset).
 */
export function valueOffsets(source: string, start: number, end: number, value: string): OffsetMap | null {
  if (source.slice(start, end) === value) return (offset) => start + offset;
  const lines = value.split('\n');
  const valueStarts: number[] = [];
  const sourceStarts: number[] = [];
  let valueAt = 0;
  let sourceAt = start;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    if (index > 0) {
      const newline = source.indexOf('\n', sourceAt);
      if (newline === -1 || newline >= end) return null;
      const lineStart = newline + 1;
      const lineEnd = source.indexOf('\n', lineStart);
      const sourceLine = source.slice(lineStart, lineEnd === -1 ? source.length : lineEnd);
      // The last line may have lost trailing whitespace; every other line is its source line's tail.
      const tailAt = sourceLine.endsWith(line)
        ? sourceLine.length - line.length
        : index === lines.length - 1
          ? sourceLine.indexOf(line)
          : -1;
      if (tailAt === -1) return null;
      sourceAt = lineStart + tailAt;
    } else if (!source.startsWith(line, start)) {
      return null;
    }
    valueStarts.push(valueAt);
    sourceStarts.push(sourceAt);
    valueAt += line.length + 1;
  }
  return (offset) => {
    let index = valueStarts.length - 1;
    while (index > 0 && (valueStarts[index] as number) > offset) index--;
    return (sourceStarts[index] as number) + offset - (valueStarts[index] as number);
  };
}

/** Line and column (1-based) of source offsets, from one scan of the source for line breaks. */
export function lineIndex(source: string): (offset: number) => { line: number; column: number } {
  const breaks: number[] = [];
  for (let at = source.indexOf('\n'); at !== -1; at = source.indexOf('\n', at + 1)) breaks.push(at);
  return (offset) => {
    let low = 0;
    let high = breaks.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((breaks[middle] as number) < offset) low = middle + 1;
      else high = middle;
    }
    const lineStart = low === 0 ? 0 : (breaks[low - 1] as number) + 1;
    return { line: low + 1, column: offset - lineStart + 1 };
  };
}

/**
 * Moves the positions of a tree parsed from a piece of the page onto the page source, so edits
 * and reported lines made from its nodes land in the right place. Without a map the positions are
 * dropped instead: a node without offsets is never edited.
 */
export function relocate(
  nodes: Nodes[],
  map: OffsetMap | null,
  locate: (offset: number) => { line: number; column: number },
): void {
  const visit = (node: Nodes) => {
    const position = node.position;
    if (position) {
      const start = position.start.offset;
      const end = position.end.offset;
      if (map && start !== undefined && end !== undefined) {
        const from = map(start);
        const to = map(end);
        node.position = {
          start: { ...locate(from), offset: from },
          end: { ...locate(to), offset: to },
        };
      } else {
        delete node.position;
      }
    }
    if ('children' in node) for (const child of node.children) visit(child as Nodes);
  };
  for (const node of nodes) visit(node);
}

const CONTAINER_PREFIX = /^[ \t]*(?:(?:>|[-*+]|\d{1,9}[.)])[ \t]*)*$/;

/**
 * What a line after the one holding `offset` needs in front to stay in the same list item or
 * quote: the line's prefix up to `offset` with list markers turned into spaces (`- ` → `  `,
 * `> 1. ` → `>    `). Null when text precedes `offset` on its line (an inline node).
 */
export function continuationPrefix(source: string, offset: number): string | null {
  const lineStart = source.lastIndexOf('\n', offset - 1) + 1;
  const written = source.slice(lineStart, offset);
  return CONTAINER_PREFIX.test(written) ? written.replace(/[^\s>]/g, ' ') : null;
}

/** Puts `prefix` before every line of `text` but the first (blank lines get it without trailing spaces). */
export function indentLines(text: string, prefix: string): string {
  if (prefix === '') return text;
  const bare = prefix.trimEnd();
  return text.replace(/\n([^\n]*)/g, (_, line: string) => `\n${line === '' ? bare : prefix + line}`);
}

/** Takes `prefix` (or, on blank and lazy lines, what there is of it) off every line of `text` but the first. */
export function outdentLines(text: string, prefix: string): string {
  if (prefix === '') return text;
  const bare = prefix.trimEnd();
  return text.replace(/\n([^\n]*)/g, (_, line: string) => {
    if (line.startsWith(prefix)) return `\n${line.slice(prefix.length)}`;
    if (bare !== '' && line.startsWith(bare)) return `\n${line.slice(bare.length).replace(/^ /, '')}`;
    return `\n${line.replace(/^[ \t]+/, '')}`;
  });
}
