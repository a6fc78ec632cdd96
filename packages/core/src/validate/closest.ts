import { editDistance } from '../util/nearest-key.js';

/**
 * Candidates past which a suggestion is looked for among the wanted path's neighbours only: a
 * broken link in a set of 100,000 pages would otherwise measure its distance to every page, and
 * a set with a few hundred broken links would spend minutes of `kit validate` on suggestions.
 */
export const CLOSEST_NEIGHBOURS_FROM = 2000;

/**
 * The candidate closest to `wanted` when it is close enough to be a typo, else null. Among more
 * than {@link CLOSEST_NEIGHBOURS_FROM} candidates, a path with a folder is compared with the
 * candidates in the same folder when there are any (a typo in the page's name, the common case).
 *
 * @example
 * closest('guides/instalation', ['guides/installation', 'reference/cli']); // 'guides/installation'
 */
export function closest(wanted: string, candidates: string[]): string | null {
  const target = wanted.toLowerCase();
  const limit = Math.max(2, Math.floor(target.length / 4));
  let best: string | null = null;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const candidate of neighboursOf(wanted, candidates)) {
    if (Math.abs(candidate.length - target.length) > limit) continue;
    const score = editDistance(target, candidate.toLowerCase());
    if (score < bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return bestScore <= limit ? best : null;
}

/** The candidates worth measuring: all of a short list; of a long one, those in `wanted`'s folder when any are. */
function neighboursOf(wanted: string, candidates: string[]): string[] {
  const slash = wanted.lastIndexOf('/');
  if (candidates.length <= CLOSEST_NEIGHBOURS_FROM || slash <= 0) return candidates;
  const folder = wanted.slice(0, slash + 1).toLowerCase();
  const near = candidates.filter(
    (candidate) => candidate.length > folder.length && candidate.slice(0, folder.length).toLowerCase() === folder,
  );
  return near.length > 0 ? near : candidates;
}
