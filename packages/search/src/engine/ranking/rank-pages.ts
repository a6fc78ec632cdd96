import { refinedBound } from './bucket-bounds.js';
import type { RankingData } from './data.js';
import { TRACKED_GROUPS } from './layout.js';
import { boundPages } from './page-bounds.js';
import { scorePage } from './page-score.js';
import { rewind } from './postings.js';
import { POOL_PAGES, type QueryScratch } from './scratch.js';
import type { RankedSection, RankStats, WordGroup } from './types.js';

/** Pages scored in refined-bound order after the first `limit` before switching to page order. */
const EAGER_PAGES = 16;

/** The best hits so far, best first, at most `limit`: the last one's score is the threshold to beat. */
class TopHits {
  readonly hits: RankedSection[] = [];

  constructor(readonly limit: number) {}

  /** Takes a hit in its place when it beats the last one (ties go to the earlier section). */
  offer(hit: RankedSection | null): void {
    if (!hit) return;
    const { hits: top, limit } = this;
    if (top.length === limit) {
      const last = top[limit - 1]!;
      if (hit.score < last.score || (hit.score === last.score && hit.section > last.section)) return;
    }
    let at = top.length;
    while (at > 0) {
      const before = top[at - 1]!;
      if (before.score > hit.score || (before.score === hit.score && before.section < hit.section)) break;
      at--;
    }
    top.splice(at, 0, hit);
    if (top.length > limit) top.pop();
  }

  /** The score a page must reach to make the hits, once there are `limit` of them. */
  threshold(): number {
    return this.hits.length === this.limit ? this.hits[this.limit - 1]!.score : Number.NEGATIVE_INFINITY;
  }
}

/**
 * Ranks pages in two phases. Page impacts give each matching page an upper bound of its score.
 * Of the pages with the highest bounds, the `limit` with the highest refined bounds (taken per
 * bucket of sections, see `scorePage`) are scored exactly, which sets a threshold; the next ones
 * by refined bound raise it; then the pages whose bound reaches it are visited in page order,
 * each dropped as soon as its bound (refined as its words are scored) falls below the rising
 * threshold. Every score is computed the same way whatever order pages and words come in, so
 * the results are exactly those of scoring every page. The scratch is reset before returning.
 */
export function rankPages(
  data: RankingData,
  scratch: QueryScratch,
  groups: WordGroup[],
  limit: number,
  exhaustive: boolean,
  stats: RankStats | null = null,
): RankedSection[] {
  const candidateCount = boundPages(data, scratch, groups);
  scratch.stats = stats;
  if (stats) stats.candidates = candidateCount;
  const candidates = scratch.candidates.subarray(0, candidateCount);
  const top = new TopHits(limit);
  try {
    if (exhaustive || candidateCount <= limit) {
      rewind(groups);
      for (const page of [...candidates].sort((a, b) => a - b)) top.offer(scorePage(data, scratch, groups, page, true));
      return top.hits;
    }
    rankByBounds(data, scratch, groups, candidates, top);
    return top.hits;
  } finally {
    scratch.reset();
  }
}

/**
 * The pages with the best bounds: of them, the `limit` with the best refined bounds are scored
 * first (their exact scores set the first threshold), then the others, best refined bound first,
 * raise it fast. The rest are visited in page order, where reading each term's postings moves
 * forward instead of searching from the head.
 */
function rankByBounds(
  data: RankingData,
  scratch: QueryScratch,
  groups: WordGroup[],
  candidates: Uint32Array,
  top: TopHits,
): void {
  const { bound } = scratch;
  const { limit } = top;
  const pool = bestBounds(scratch, candidates, limit + POOL_PAGES);
  const ranked = byRefinedBound(data, scratch, groups, pool, limit + EAGER_PAGES);
  // All of the first are scored, so in page order: each list is read forward once.
  const seeds = ranked.slice(0, limit).map((entry) => entry.page);
  seeds.sort((a, b) => a - b);
  rewind(groups);
  for (const page of seeds) {
    top.offer(scorePage(data, scratch, groups, page, true));
    bound[page] = Number.NaN; // scored: no comparison keeps it below
  }
  for (let at = limit; at < ranked.length; at++) {
    const { page, value } = ranked[at]!;
    // A bound equal to the threshold may still tie it and win on the earlier section. The
    // threshold only rises: below it now, this page and the next stay below it.
    if (value >= top.threshold()) top.offer(scorePage(data, scratch, groups, page, false, top.threshold()));
    bound[page] = Number.NaN;
  }
  const stopped = pool.outside < top.threshold();
  if (!stopped) scoreInPageOrder(data, scratch, groups, candidates, top);
}

/** Pages with the best bounds, and the best bound left out of them. */
interface BoundPool {
  pages: number[];
  outside: number;
}

/** The `poolSize` candidates with the best bounds, best bound first (ties to the earlier page). */
function bestBounds(scratch: QueryScratch, candidates: Uint32Array, poolSize: number): BoundPool {
  const { bound } = scratch;
  // A min-heap of the best bounds: most pages fail the one comparison with its least.
  if (scratch.poolHeap.length < poolSize) scratch.poolHeap = new Int32Array(poolSize);
  const heap = scratch.poolHeap;
  let size = 0;
  let outside = Number.NEGATIVE_INFINITY; // the best bound left out of the pool
  for (const page of candidates) {
    const value = bound[page]!;
    if (size < poolSize) {
      let at = size++;
      while (at > 0) {
        const parent = (at - 1) >>> 1;
        if (bound[heap[parent]!]! <= value) break;
        heap[at] = heap[parent]!;
        at = parent;
      }
      heap[at] = page;
      continue;
    }
    if (value <= bound[heap[0]!]!) {
      if (value > outside) outside = value;
      continue;
    }
    outside = Math.max(outside, bound[heap[0]!]!);
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= size) break;
      if (child + 1 < size && bound[heap[child + 1]!]! < bound[heap[child]!]!) child++;
      if (bound[heap[child]!]! >= value) break;
      heap[at] = heap[child]!;
      at = child;
    }
    heap[at] = page;
  }
  const pages = Array.from(heap.subarray(0, size));
  pages.sort((a, b) => bound[b]! - bound[a]! || a - b);
  return { pages, outside };
}

/**
 * The `keep` pages of the pool with the best refined bounds, best first, found best bound first:
 * a refined bound is at most the bound, so once a bound falls below the refined bounds kept, no
 * page after it gets in. Raises `pool.outside` by the pages left out.
 */
function byRefinedBound(
  data: RankingData,
  scratch: QueryScratch,
  groups: WordGroup[],
  pool: BoundPool,
  keep: number,
): Array<{ page: number; value: number }> {
  const { bound } = scratch;
  const tracked = groups.length <= TRACKED_GROUPS;
  const ranked: Array<{ page: number; value: number }> = [];
  for (let at = 0; at < pool.pages.length; at++) {
    const page = pool.pages[at]!;
    if (ranked.length === keep && bound[page]! < ranked[keep - 1]!.value) {
      pool.outside = Math.max(pool.outside, bound[page]!);
      break;
    }
    const value = tracked ? refinedBound(data, scratch, page, groups.length) : bound[page]!;
    let slot = ranked.length;
    while (
      slot > 0 &&
      (ranked[slot - 1]!.value < value || (ranked[slot - 1]!.value === value && ranked[slot - 1]!.page > page))
    )
      slot--;
    if (slot === keep) {
      pool.outside = Math.max(pool.outside, value);
      continue;
    }
    ranked.splice(slot, 0, { page, value });
    if (ranked.length > keep) pool.outside = Math.max(pool.outside, ranked.pop()!.value);
  }
  return ranked;
}

/** Scores, in page order, the candidates not scored yet whose bound reaches the rising threshold. */
function scoreInPageOrder(
  data: RankingData,
  scratch: QueryScratch,
  groups: WordGroup[],
  candidates: Uint32Array,
  top: TopHits,
): void {
  const { bound } = scratch;
  let lateCount = 0;
  const late = scratch.wordPages; // free after the first phase
  const rising = top.threshold();
  // In page order: for many candidates, read off in order (bounds are 0 off the candidates);
  // for a few, collected and sorted.
  if (rising > 0 && candidates.length * 8 > bound.length) {
    for (let page = 0; page < bound.length; page++) if (bound[page]! >= rising) late[lateCount++] = page;
  } else {
    for (const page of candidates) if (bound[page]! >= rising) late[lateCount++] = page;
    late.subarray(0, lateCount).sort();
  }
  const ordered = late.subarray(0, lateCount);
  rewind(groups);
  for (const page of ordered) {
    if (bound[page]! >= top.threshold()) top.offer(scorePage(data, scratch, groups, page, true, top.threshold()));
  }
}
