import { addWordLevels, loadWords } from './bucket-bounds.js';
import type { RankingData } from './data.js';
import { allBuckets, BOUND_SLACK, LEVEL_PLANES, LEVELS, popcount, SECTION_BUCKETS, TRACKED_GROUPS } from './layout.js';
import type { RankingParams } from './params.js';
import { rewind } from './postings.js';
import type { QueryScratch } from './scratch.js';
import type { RankedSection, WordGroup } from './types.js';
import { bestSection, clearPage, scoreWord, sumKeptInQueryOrder } from './word-scores.js';

/**
 * Exact score of one page: its best section and score. Returns null early, without finishing,
 * once the page provably cannot reach `threshold` (it could not make the results).
 *
 * A section's score adds up the words it has, so the bound of the page's best section is that of
 * its best bucket of sections (the words' bounds summed over the words in the bucket), not the
 * sum of every word's best. Buckets that cannot reach the threshold are dropped before the first
 * word is read; each word scored then replaces its bound by its exact scores, and scoring stops
 * when no bucket is left. Words are scored in the order that empties the buckets soonest for the
 * postings read (see `chooseWord`); a page scored to the end then has its totals summed again in
 * query order.
 */
export function scorePage(
  data: RankingData,
  scratch: QueryScratch,
  groups: WordGroup[],
  page: number,
  forward: boolean,
  threshold = Number.NEGATIVE_INFINITY,
): RankedSection | null {
  const { params, index } = data;
  const { stats } = scratch;
  const start = index.pageStart[page]!;
  const count = index.pageStart[page + 1]! - start;
  const wordCount = groups.length;
  const tracked = wordCount <= TRACKED_GROUPS && threshold > Number.NEGATIVE_INFINITY;
  const slots = page * wordCount;
  scratch.live = 0;
  scratch.critical = 0;
  scratch.remainingSection = 0;
  scratch.pagePart = 0;
  if (tracked && !openBuckets(params, scratch, page, count, wordCount, threshold)) return null;
  if (!forward) rewind(groups);
  if (stats) stats.scored++;
  let pageTotal = 0;
  let spread = 0;
  let scored = 0;
  for (let step = 0; step < wordCount; step++) {
    let g = step;
    if (tracked) {
      g = chooseWord(scratch, slots, wordCount, scored);
      scored |= 1 << g;
    }
    const pageWord = scoreWord(data, scratch, groups[g]!, page, start, count, tracked ? g : -1);
    pageTotal += pageWord;
    spread += scratch.wordBest;
    if (!tracked) continue;
    scratch.keptPage[g] = pageWord;
    scratch.keptBest[g] = scratch.wordBest;
    if (!lowerBuckets(params, scratch, slots, g, spread, threshold)) {
      clearPage(scratch);
      return null;
    }
  }
  if (tracked) {
    const { bucketRemaining, keptPage, keptBest } = scratch;
    for (let mask = scratch.live; mask !== 0; mask &= mask - 1) bucketRemaining[31 - Math.clz32(mask & -mask)] = 0;
    // Scored in another order: the totals again, summed in query order (the same floating-point
    // sums as scoring in query order gives).
    clearPage(scratch);
    pageTotal = 0;
    spread = 0;
    for (let g = 0; g < wordCount; g++) {
      pageTotal += keptPage[g]!;
      spread += keptBest[g]!;
    }
    sumKeptInQueryOrder(scratch, wordCount);
  }
  if (stats) stats.completed++;
  const best = bestSection(scratch);
  clearPage(scratch);
  if (best.local < 0) return null;
  return {
    section: start + best.local,
    score: params.section * best.total + params.spread * spread + params.page * pageTotal,
  };
}

/**
 * Before a tracked page's first word is read: its section buckets that can still reach the
 * threshold (`scratch.live`, false when none can), the one with the highest reach
 * (`scratch.critical`), and bounds of what the words not scored yet add: to one section of each
 * live bucket (`bucketRemaining`, `remainingSection`), to the spread and to the whole page (`pagePart`).
 */
function openBuckets(
  params: RankingParams,
  scratch: QueryScratch,
  page: number,
  count: number,
  wordCount: number,
  threshold: number,
): boolean {
  const { bucketRemaining, wordSectionBound, groupLevels } = scratch;
  const slots = page * wordCount;
  const remainingSection = loadWords(scratch, page, wordCount);
  // The page's bound less its section part is what spread and whole-page scores add.
  const pagePart = Math.max(0, scratch.bound[page]! - (params.section + params.spread) * remainingSection);
  scratch.remainingSection = remainingSection;
  scratch.pagePart = pagePart;
  const rest = params.spread * remainingSection + pagePart;
  let live = allBuckets(count) | 0;
  // A bucket without a word lacks its bound, one below the word's top level lacks a level of
  // it: when that alone keeps a bucket below the threshold, only the buckets with the word (at
  // its top level) are left. A few bit operations rule most pages out.
  for (let g = 0; g < wordCount; g++) {
    const value = wordSectionBound[g]!;
    if (value === 0) continue;
    const base = (slots + g) * LEVEL_PLANES;
    if ((params.section * (remainingSection - value / LEVELS) + rest) * BOUND_SLACK < threshold) {
      for (let plane = 0; plane < LEVEL_PLANES; plane++) live &= groupLevels[base + plane]!;
    } else if ((params.section * (remainingSection - value) + rest) * BOUND_SLACK < threshold) {
      let present = 0;
      for (let plane = 0; plane < LEVEL_PLANES; plane++) present |= groupLevels[base + plane]!;
      live &= present;
    }
  }
  if (live === 0) return false;
  addWordLevels(scratch, slots, wordCount, live);
  let top = -1;
  for (let mask = live; mask !== 0; mask &= mask - 1) {
    const bit = mask & -mask;
    const b = 31 - Math.clz32(bit);
    const reach = bucketRemaining[b]!;
    if ((params.section * reach + rest) * BOUND_SLACK < threshold) {
      live &= ~bit;
      bucketRemaining[b] = 0;
    } else if (reach > top) {
      top = reach;
      scratch.critical = b;
    }
  }
  scratch.live = live;
  return live !== 0;
}

/**
 * The word to score next: only the words in the bucket with the highest reach can lower it; of
 * them, the one in the fewest buckets (the fewest postings to read), then the one with the largest
 * bound. When none is left there (the bucket's reach is exact), the first word left in query order.
 */
function chooseWord(scratch: QueryScratch, slots: number, wordCount: number, scored: number): number {
  const { groupLevels, wordSectionBound, critical } = scratch;
  let g = -1;
  let fewest = SECTION_BUCKETS + 1;
  let most = -1;
  for (let candidate = 0; candidate < wordCount; candidate++) {
    if ((scored & (1 << candidate)) !== 0) continue;
    let present = 0;
    for (let plane = 0; plane < LEVEL_PLANES; plane++)
      present |= groupLevels[(slots + candidate) * LEVEL_PLANES + plane]!;
    const value = wordSectionBound[candidate]!;
    if (value === 0 || ((present >>> critical) & 1) === 0) continue;
    const breadth = popcount(present);
    if (breadth < fewest || (breadth === fewest && value > most)) {
      fewest = breadth;
      most = value;
      g = candidate;
    }
  }
  if (g < 0) for (g = 0; (scored & (1 << g)) !== 0; g++);
  return g;
}

/**
 * After word `g` is scored: replaces its bound in the live buckets by its exact scores (in
 * `bucketBest`), drops the buckets that can no longer reach the threshold and finds the one with
 * the highest reach again. Returns false when no bucket is left.
 */
function lowerBuckets(
  params: RankingParams,
  scratch: QueryScratch,
  slots: number,
  g: number,
  spread: number,
  threshold: number,
): boolean {
  const { bucketBest, bucketRemaining, groupLevels } = scratch;
  let live = scratch.live;
  const value = scratch.wordSectionBound[g]!;
  const base = (slots + g) * LEVEL_PLANES;
  if (value > 0) {
    for (let plane = 0; plane < LEVEL_PLANES; plane++) {
      const unit = (value * (1 << plane)) / LEVELS;
      for (let mask = groupLevels[base + plane]! & live; mask !== 0; mask &= mask - 1)
        bucketRemaining[31 - Math.clz32(mask & -mask)]! -= unit;
    }
  }
  scratch.remainingSection -= value;
  // Whole-page scores stay bounded: their bounds are the exact scores rounded up a little.
  const rest = params.spread * (spread + Math.max(0, scratch.remainingSection)) + scratch.pagePart;
  let top = -1;
  for (let mask = live; mask !== 0; mask &= mask - 1) {
    const bit = mask & -mask;
    const b = 31 - Math.clz32(bit);
    const reach = bucketBest[b]! + Math.max(0, bucketRemaining[b]!);
    if ((params.section * reach + rest) * BOUND_SLACK < threshold) {
      live &= ~bit;
      bucketRemaining[b] = 0;
    } else if (reach > top) {
      top = reach;
      scratch.critical = b;
    }
  }
  scratch.live = live;
  return live !== 0;
}
