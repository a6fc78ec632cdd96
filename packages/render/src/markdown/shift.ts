/** Moves every position in `node` (a tree or a list of trees) `line` lines and `offset` characters, in place. */
export function shift(node: unknown, line: number, offset: number): void {
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
export function shiftedCopy(value: unknown, line: number, offset: number): unknown {
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

/** A place in a page: line, column and offset, as mdast positions hold them. */
export interface Point {
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
