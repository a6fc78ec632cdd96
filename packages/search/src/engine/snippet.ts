import { tokenize } from '../text/analyze.js';

/** Longest snippet, in characters (ellipses included). */
export const SNIPPET_LENGTH = 160;

/** Characters of a section searched for matched words. */
const SNIPPET_SCAN_CHARS = 12_000;

/**
 * Where the matched words of a query occur in a text, in order, as `tokenize` would find them;
 * undefined when it cannot tell for this text (snippets then tokenize it).
 */
export type MatchLocator = (text: string) => Array<{ term: string; start: number; end: number }> | undefined;

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Plain-text excerpt of at most {@link SNIPPET_LENGTH} characters around the densest run of
 * matched words, cut at word boundaries, with `…` where text was left out. Plain text (no marks)
 * keeps it safe to show anywhere and to hand to an agent; the window is chosen so the matched
 * words are in it.
 *
 * @example
 * makeSnippet('Laravel queues let you defer slow work such as sending email…', new Set(['queu']));
 */
export function makeSnippet(
  text: string,
  terms: ReadonlySet<string>,
  maxLength = SNIPPET_LENGTH,
  locate?: MatchLocator,
): string {
  // A snippet is cut near the start of the section's matches; scanning a bounded head of a very
  // long section keeps every snippet equally cheap.
  const clean = collapse(text.length > SNIPPET_SCAN_CHARS ? text.slice(0, SNIPPET_SCAN_CHARS) : text);
  if (clean.length <= maxLength) return clean;
  const budget = maxLength - 2;
  const hits = locate?.(clean) ?? tokenize(clean).filter((token) => terms.has(token.term));
  let start = 0;
  if (hits.length > 0) {
    // Window starting at each hit; keep the one holding the most distinct matched terms.
    let bestScore = -1;
    for (let i = 0; i < hits.length; i++) {
      const from = hits[i]!.start;
      const seen = new Set<string>();
      let count = 0;
      for (let j = i; j < hits.length && hits[j]!.end - from <= budget; j++) {
        seen.add(hits[j]!.term);
        count++;
      }
      const score = seen.size * 100 + count;
      if (score > bestScore) {
        bestScore = score;
        start = from;
      }
    }
    // A little context before the first matched word, starting on a word.
    const from = start;
    start = Math.max(0, Math.min(from - 30, clean.length - budget));
    if (start > 0) {
      const space = clean.indexOf(' ', start);
      start = space !== -1 && space < from ? space + 1 : from;
    }
  }
  let end = Math.min(clean.length, start + budget + (start === 0 ? 1 : 0));
  if (end < clean.length) {
    const space = clean.lastIndexOf(' ', end);
    if (space > start + budget / 2) end = space;
  }
  const body = clean.slice(start, end).trim();
  return (start > 0 ? '…' : '') + body + (end < clean.length ? '…' : '');
}
