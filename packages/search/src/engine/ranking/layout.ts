/**
 * Upper bounds are inflated by this much so that rounding (sums taken in another order than the
 * scores they bound) can never prune a page that would have made the results.
 */
export const BOUND_SLACK = 1 + 1e-9;
/** Every bucket of a page, as a mask of bucket bits. */
export const ALL_BUCKETS = -1;
/**
 * Query words whose per-page bounds are kept for stopping a page's exact scoring early, and
 * cursors whose presence on a page is remembered so that scoring skips the absent ones; a query
 * with more still ranks the same, only without these shortcuts for the words past it.
 */
export const TRACKED_GROUPS = 32;
export const TRACKED_CURSORS = 32;
/** Sections of a page are grouped into at most this many buckets, one bit each in a mask (see `scorePage`). */
export const SECTION_BUCKETS = 32;
/**
 * A term's best section score in each bucket of a page is kept as a level, a share of its best on
 * the page rounded up to a multiple of 1 / `LEVELS`, in `LEVEL_PLANES` masks (one per binary digit).
 */
export const LEVEL_PLANES = 2;
export const LEVELS = (1 << LEVEL_PLANES) - 1;

/** How many bits of `x` (32 bits) are set. */
export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** The bucket of a page's `local`-th section out of `count`: the section itself on pages of up to 32. */
export function bucketOf(local: number, count: number): number {
  return count <= SECTION_BUCKETS ? local : ((local * SECTION_BUCKETS) / count) | 0;
}

/** The mask of every bucket a page of `count` sections has. */
export function allBuckets(count: number): number {
  return count >= SECTION_BUCKETS ? 0xffffffff : (1 << count) - 1;
}
