/**
 * Limits past which micromark's parse time grows faster than linear (nested block quotes, deeply
 * indented lists, thousands of emphasis delimiters). Real pages stay far below them; the Laravel
 * corpus peaks at a few hundred delimiter runs.
 */
export const COMPLEXITY_LIMITS = { quoteDepth: 100, listIndent: 160, delimiterRuns: 1500 } as const;

/**
 * Why the page is too complex to parse in bounded time, or null. Fenced code is skipped: its
 * content is never parsed as Markdown.
 */
export function tooComplex(markdown: string): string | null {
  let fence: string | null = null;
  let runs = 0;
  for (const line of markdown.split('\n')) {
    const fenceMatch = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fenceMatch) {
      const marker = fenceMatch[1] as string;
      if (fence === null) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const quotes = /^(?:[ \t]*>)+/.exec(line)?.[0].replace(/[^>]/g, '').length ?? 0;
    if (quotes > COMPLEXITY_LIMITS.quoteDepth) return `block quotes nested ${quotes} deep`;
    const indent = /^[ \t]*(?=(?:[-+*]|\d{1,9}[.)])(?:\s|$))/.exec(line)?.[0].length ?? 0;
    if (indent > COMPLEXITY_LIMITS.listIndent) return `a list item indented ${indent} columns`;
    const delimiters = line.match(/[*_]+/g);
    if (delimiters) {
      runs += delimiters.length;
      if (runs > COMPLEXITY_LIMITS.delimiterRuns)
        return `more than ${COMPLEXITY_LIMITS.delimiterRuns} emphasis delimiters`;
    }
  }
  return null;
}
