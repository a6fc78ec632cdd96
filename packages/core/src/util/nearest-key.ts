/**
 * Levenshtein distance between two strings (insertions, deletions, substitutions each cost 1).
 * Used to suggest the key a person most likely meant when they mistype one.
 *
 * @example
 * editDistance('llm_txt', 'llms_txt'); // 1
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The candidate closest to a mistyped `key`, or null when none is close enough to be a likely typo.
 * Comparison ignores case, `-`/`_` and camelCase boundaries first (so `llmsTxt` finds `llms_txt`),
 * then allows up to `maxDistance` edits (default: 2, or 1 for keys of three characters or fewer).
 * Ties go to the candidate listed first.
 *
 * @example
 * nearestKey('llm_txt', ['llms_txt', 'llms_full', 'sitemap']); // 'llms_txt'
 * nearestKey('colour', ['review', 'search']); // null
 */
export function nearestKey(key: string, candidates: Iterable<string>, maxDistance?: number): string | null {
  const wanted = canonical(key);
  const limit = maxDistance ?? (key.length <= 3 ? 1 : 2);
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    if (candidate === key) continue;
    const distance = canonical(candidate) === wanted ? 0 : editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= limit ? best : null;
}

function canonical(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[-\s]/g, '_');
}
