import { editDistance } from '../util/nearest-key.js';

/** The candidate closest to `wanted` when it is close enough to be a typo, else null. */
export function closest(wanted: string, candidates: string[]): string | null {
  const target = wanted.toLowerCase();
  const limit = Math.max(2, Math.floor(target.length / 4));
  let best: string | null = null;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    if (Math.abs(candidate.length - target.length) > limit) continue;
    const score = editDistance(target, candidate.toLowerCase());
    if (score < bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return bestScore <= limit ? best : null;
}
