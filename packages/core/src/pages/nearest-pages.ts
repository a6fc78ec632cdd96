import { editDistance } from '../util/nearest-key.js';

/** A page as the suggestions see it: its path and, where known, its title. */
export interface SuggestablePage {
  path: string;
  title?: string;
}

const lastOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 1);

/** Whether two words are the same word give or take a typo or an ending (`relationshipz`, `relationships`). */
function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length >= 4 && b.length >= 4 && (a.startsWith(b) || b.startsWith(a))) return true;
  return a.length >= 5 && b.length >= 5 && editDistance(a, b) <= 1;
}

/**
 * The pages closest to a path that matched none, best first: a path a few edits away, the same
 * last segment elsewhere, one path inside the other, or a title that holds the words of the
 * path (`eloquent-relationshipz` finds "Eloquent: Relationships"). Used by `page.not_found`
 * ("Did you mean ...") and by the reader's 404 page.
 *
 * @example
 * nearestPages('eloquent-relationshipz', [{ path: 'eloquent-relationships' }, { path: 'queues' }]);
 * // [{ path: 'eloquent-relationships' }]
 */
export function nearestPages<T extends SuggestablePage>(wanted: string, pages: readonly T[], limit = 3): T[] {
  const target = wanted.toLowerCase().replace(/^\/+|\/+$/g, '');
  if (target === '') return [];
  const targetWords = wordsOf(lastOf(target));
  const editLimit = Math.max(2, Math.floor(target.length / 3));
  const scored: Array<{ page: T; score: number }> = [];
  for (const page of pages) {
    const lower = page.path.toLowerCase();
    let score = Math.min(editDistance(target, lower), editDistance(lastOf(target), lastOf(lower)) + 1);
    if (lower.includes(lastOf(target)) || target.includes(lastOf(lower))) score = Math.min(score, 2);
    if (score > editLimit && page.title && targetWords.length > 0) {
      const titleWords = wordsOf(page.title);
      const found = targetWords.filter((word) => titleWords.some((titleWord) => sameWord(word, titleWord))).length;
      if (found === targetWords.length) score = editLimit;
    }
    if (score <= editLimit) scored.push({ page, score });
  }
  return scored
    .sort((a, b) => a.score - b.score || a.page.path.localeCompare(b.page.path))
    .slice(0, limit)
    .map((candidate) => candidate.page);
}
