import type { RankingData } from './data.js';
import { ALL_BUCKETS, LEVEL_PLANES, LEVELS, SECTION_BUCKETS } from './layout.js';
import type { QueryScratch } from './scratch.js';

/**
 * Reads the tracked words' best section bounds on a page into `wordSectionBound` (0 for the words
 * the page lacks, whose slots hold an earlier query's values) and returns their sum.
 */
export function loadWords(scratch: QueryScratch, page: number, wordCount: number): number {
  const { groupSection, groupBits, wordSectionBound } = scratch;
  const present = scratch.presence[page]!;
  const slots = page * wordCount;
  let sum = 0;
  for (let g = 0; g < wordCount; g++) {
    const value = scratch.zeroSlots || (present & groupBits[g]!) !== 0 ? groupSection[slots + g]! : 0;
    wordSectionBound[g] = value;
    sum += value;
  }
  return sum;
}

/**
 * Adds each loaded word's section bound, at the level the word reaches in each bucket, to
 * `bucketRemaining` of the buckets in `within` (a mask of bucket bits).
 */
export function addWordLevels(scratch: QueryScratch, slots: number, wordCount: number, within: number): void {
  const { bucketRemaining, wordSectionBound, groupLevels } = scratch;
  for (let g = 0; g < wordCount; g++) {
    const value = wordSectionBound[g]!;
    if (value === 0) continue;
    const base = (slots + g) * LEVEL_PLANES;
    for (let plane = 0; plane < LEVEL_PLANES; plane++) {
      const unit = (value * (1 << plane)) / LEVELS;
      for (let mask = groupLevels[base + plane]! & within; mask !== 0; mask &= mask - 1)
        bucketRemaining[31 - Math.clz32(mask & -mask)]! += unit;
    }
  }
}

/**
 * A page's bound with the section part taken per bucket of sections (see `scorePage`): at most
 * its bound, and far below it on long pages whose words are spread over different sections.
 */
export function refinedBound(data: RankingData, scratch: QueryScratch, page: number, wordCount: number): number {
  const sums = scratch.bucketRemaining;
  const buckets = Math.min(data.index.pageStart[page + 1]! - data.index.pageStart[page]!, SECTION_BUCKETS);
  const sectionSum = loadWords(scratch, page, wordCount);
  addWordLevels(scratch, page * wordCount, wordCount, ALL_BUCKETS);
  let best = 0;
  for (let b = 0; b < buckets; b++) {
    if (sums[b]! > best) best = sums[b]!;
    sums[b] = 0;
  }
  return scratch.bound[page]! - data.params.section * Math.max(0, sectionSum - best);
}
