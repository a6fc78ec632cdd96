/**
 * The 1-based line of the first occurrence of `needle` in `text`, as `{ line }`, or nothing. With
 * `after`, the search starts behind each of those strings in turn (a key, then a key inside it).
 */
export function lineOf(text: string | undefined, needle: string, after: string[] = []): { line?: number } {
  if (text === undefined) return {};
  let from = 0;
  for (const key of after) {
    const found = text.indexOf(key, from);
    if (found !== -1) from = found + key.length;
  }
  const at = text.indexOf(needle, from);
  if (at === -1) return {};
  let line = 1;
  for (let index = text.indexOf('\n'); index !== -1 && index < at; index = text.indexOf('\n', index + 1)) line += 1;
  return { line };
}
