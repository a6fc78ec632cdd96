import type { RankingData } from './data.js';
import { bucketOf, TRACKED_CURSORS } from './layout.js';
import type { QueryScratch } from './scratch.js';
import type { WordGroup } from './types.js';

/** Keeps `value` as the current word's score of section `local` when it is the best so far. */
function markWord(scratch: QueryScratch, local: number, value: number): void {
  if (scratch.wordMark[local] === 0) {
    scratch.wordMark[local] = 1;
    scratch.wordList[scratch.wordCount++] = local;
  }
  if (value > scratch.word[local]!) scratch.word[local] = value;
}

/** Adds `value` to the running total of section `local` of the current page. */
function addToTotal(scratch: QueryScratch, local: number, value: number): void {
  if (scratch.totalMark[local] === 0) {
    scratch.totalMark[local] = 1;
    scratch.totalList[scratch.totalCount++] = local;
  }
  scratch.total[local]! += value;
}

/**
 * Scores one word on one page: each section gets the best of the word's terms, added to its
 * running total; returns the word's whole-page score and sets `scratch.wordBest` to its best
 * section score. With `keep` (a tracked word's position, else -1) the section scores are also kept
 * for summing in query order, with each bucket's best total so far.
 */
export function scoreWord(
  data: RankingData,
  scratch: QueryScratch,
  group: WordGroup,
  page: number,
  start: number,
  count: number,
  keep: number,
): number {
  const { reader } = scratch;
  const { acc, touched } = reader;
  const k1 = data.params.k1;
  const present = scratch.presence[page]!;
  let pageWord = 0;
  scratch.wordCount = 0;
  for (const cursor of group.cursors) {
    // A tracked cursor without postings on the page adds nothing; its lists are read from where
    // they stand when a later page needs them.
    if (cursor.bit < TRACKED_CURSORS && (present & (1 << cursor.bit)) === 0) continue;
    reader.read(cursor, page, start, count);
    const whole = reader.whole;
    const touchedCount = reader.touchedCount;
    if (touchedCount === 0 && whole === 0) continue;
    const sectionIdf = data.idfSection[cursor.term]! * cursor.share;
    if (whole > 0) {
      for (let local = 0; local < count; local++) {
        const tf = acc[local]! + whole;
        markWord(scratch, local, (sectionIdf * tf) / (k1 + tf));
      }
    } else {
      for (let i = 0; i < touchedCount; i++) {
        const tf = acc[touched[i]!]!;
        markWord(scratch, touched[i]!, (sectionIdf * tf) / (k1 + tf));
      }
    }
    for (let i = 0; i < touchedCount; i++) acc[touched[i]!] = 0;
    const pageTf = reader.pageTf;
    const value = (data.idfPage[cursor.term]! * cursor.share * pageTf) / (k1 + pageTf);
    if (value > pageWord) pageWord = value;
  }
  scratch.wordBest = keep < 0 ? addWord(scratch) : addTrackedWord(scratch, keep, count);
  return pageWord;
}

/** Adds the current word's section scores to the page's totals; returns its best. */
function addWord(scratch: QueryScratch): number {
  const { word, wordList, wordMark } = scratch;
  let wordBest = 0;
  for (let i = 0; i < scratch.wordCount; i++) {
    const local = wordList[i]!;
    const value = word[local]!;
    if (value > wordBest) wordBest = value;
    addToTotal(scratch, local, value);
    word[local] = 0;
    wordMark[local] = 0;
  }
  return wordBest;
}

/**
 * Adds the current word's section scores to the page's totals, keeps them in slot `keep` for
 * summing in query order, and raises each bucket's best total; returns the word's best.
 */
function addTrackedWord(scratch: QueryScratch, keep: number, count: number): number {
  const { word, wordList, wordMark, total, keptLocal, keptScore, bucketBest } = scratch;
  const kept = keep * scratch.maxSections;
  scratch.keptCount[keep] = scratch.wordCount;
  let wordBest = 0;
  for (let i = 0; i < scratch.wordCount; i++) {
    const local = wordList[i]!;
    const value = word[local]!;
    keptLocal[kept + i] = local;
    keptScore[kept + i] = value;
    if (value > wordBest) wordBest = value;
    addToTotal(scratch, local, value);
    const sum = total[local]!;
    const bucket = bucketOf(local, count);
    if (sum > bucketBest[bucket]!) bucketBest[bucket] = sum;
    word[local] = 0;
    wordMark[local] = 0;
  }
  return wordBest;
}

/**
 * Sums the kept section scores of the page's `wordCount` tracked words into its totals in query
 * order, whatever order they were scored in: the same floating-point sums as scoring in query order.
 */
export function sumKeptInQueryOrder(scratch: QueryScratch, wordCount: number): void {
  const { keptLocal, keptScore, keptCount, maxSections } = scratch;
  for (let g = 0; g < wordCount; g++) {
    for (let i = g * maxSections, end = i + keptCount[g]!; i < end; i++)
      addToTotal(scratch, keptLocal[i]!, keptScore[i]!);
  }
}

/** Best section total so far on the current page (ties to the earlier section). */
export function bestSection(scratch: QueryScratch): { local: number; total: number } {
  let local = -1;
  let best = 0;
  for (let i = 0; i < scratch.totalCount; i++) {
    const candidate = scratch.totalList[i]!;
    const value = scratch.total[candidate]!;
    if (value > best || (value === best && candidate < local)) {
      best = value;
      local = candidate;
    }
  }
  return { local, total: best };
}

/** Puts the current page's section totals and bucket bests back at rest. */
export function clearPage(scratch: QueryScratch): void {
  for (let i = 0; i < scratch.totalCount; i++) {
    const local = scratch.totalList[i]!;
    scratch.total[local] = 0;
    scratch.totalMark[local] = 0;
  }
  scratch.totalCount = 0;
  scratch.bucketBest.fill(0);
}
