/** A replacement of `source[start, end)` in the agent Markdown. */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * Applies edits to `source[from, to)`. An edit inside an earlier, wider edit is dropped: the
 * outer one (a component replacing its children) already accounts for it.
 */
export function applyEdits(source: string, edits: Edit[], from = 0, to = source.length): string {
  const inRange = edits
    .filter((edit) => edit.start >= from && edit.end <= to)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const parts: string[] = [];
  let cursor = from;
  for (const edit of inRange) {
    if (edit.start < cursor) continue;
    parts.push(source.slice(cursor, edit.start), edit.text);
    cursor = edit.end;
  }
  parts.push(source.slice(cursor, to));
  return parts.join('');
}
