import type { RankingData } from './data.js';
import { IMPACT_STRIDE } from './impacts.js';
import { LEVEL_PLANES, TRACKED_CURSORS, TRACKED_GROUPS } from './layout.js';
import type { QueryScratch } from './scratch.js';
import type { WordGroup } from './types.js';

/**
 * First phase: an upper bound of every matching page's score from the page impacts (one pass
 * over each query term's page list, never its section postings), and per page and tracked word
 * the bound and bucket levels `scorePage` refines it with. Returns how many candidates
 * `scratch.candidates` holds, in the order they were met (also kept in `scratch.candidateCount`).
 */
export function boundPages(data: RankingData, scratch: QueryScratch, groups: WordGroup[]): number {
  const tracked = groups.length <= TRACKED_GROUPS;
  scratch.zeroSlots = false;
  if (tracked) trackCursors(scratch, groups);
  const zeroSlots = tracked && scratch.zeroSlots;
  let candidateCount = 0;
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g]!;
    // One term: its impacts are the word's, with no best-of-terms to take first.
    candidateCount =
      group.cursors.length === 1
        ? boundTerm(data, scratch, groups.length, g, group, tracked, zeroSlots, candidateCount)
        : boundWord(data, scratch, groups.length, g, group, tracked, zeroSlots, candidateCount);
  }
  scratch.candidateCount = candidateCount;
  return candidateCount;
}

/** Sets each tracked word's presence bits (`groupBits`), and `zeroSlots` when a cursor is not tracked. */
function trackCursors(scratch: QueryScratch, groups: WordGroup[]): void {
  for (let g = 0; g < groups.length; g++) {
    let bits = 0;
    for (const cursor of groups[g]!.cursors) {
      if (cursor.bit < TRACKED_CURSORS) bits |= 1 << cursor.bit;
      else scratch.zeroSlots = true;
    }
    scratch.groupBits[g] = bits;
  }
}

/** Adds a page met for the first time to the candidates; returns their new count. */
function addCandidate(
  scratch: QueryScratch,
  page: number,
  stride: number,
  zeroSlots: boolean,
  candidateCount: number,
): number {
  scratch.candidates[candidateCount++] = page;
  // Slots of earlier queries' words: this query's words the page lacks bound it at 0.
  if (zeroSlots) {
    const { groupSection } = scratch;
    for (let slot = page * stride, end = slot + stride; slot < end; slot++) groupSection[slot] = 0;
  }
  return candidateCount;
}

/** Bounds the pages of word `g` that stands for one term; returns the new candidate count. */
function boundTerm(
  data: RankingData,
  scratch: QueryScratch,
  stride: number,
  g: number,
  group: WordGroup,
  tracked: boolean,
  zeroSlots: boolean,
  candidateCount: number,
): number {
  const { bound, presence, groupSection, groupLevels } = scratch;
  const { params } = data;
  const cursor = group.cursors[0]!;
  const record = data.impacts[cursor.term]!;
  const value = data.impactValues[cursor.term]!;
  const share = cursor.share;
  const sectionShare = (params.section + params.spread) * share;
  const pageShare = params.page * share;
  const bit = cursor.bit < TRACKED_CURSORS ? 1 << cursor.bit : 0;
  for (let at = 0; at < record.length; at += IMPACT_STRIDE) {
    const page = record[at]!;
    presence[page]! |= bit;
    if (bound[page] === 0) candidateCount = addCandidate(scratch, page, stride, zeroSlots, candidateCount);
    const sectionImpact = value[at + 1]!;
    bound[page]! += sectionShare * sectionImpact + pageShare * value[at + 2]!;
    if (tracked) {
      const slot = page * stride + g;
      groupSection[slot] = share * sectionImpact;
      for (let plane = 0; plane < LEVEL_PLANES; plane++)
        groupLevels[slot * LEVEL_PLANES + plane] = record[at + 3 + plane]!;
    }
  }
  return candidateCount;
}

/**
 * Bounds the pages of word `g` that stands for several terms, by the best of its terms' impacts
 * on each page; returns the new candidate count.
 */
function boundWord(
  data: RankingData,
  scratch: QueryScratch,
  stride: number,
  g: number,
  group: WordGroup,
  tracked: boolean,
  zeroSlots: boolean,
  candidateCount: number,
): number {
  const { bound, wordSection, wordPage, wordPages, presence, groupSection, groupLevels, wordLevels } = scratch;
  const { params } = data;
  const sectionWeight = params.section + params.spread;
  let wordCount = 0;
  for (const cursor of group.cursors) {
    const record = data.impacts[cursor.term]!;
    const value = data.impactValues[cursor.term]!;
    const share = cursor.share;
    const bit = cursor.bit < TRACKED_CURSORS ? 1 << cursor.bit : 0;
    for (let at = 0; at < record.length; at += IMPACT_STRIDE) {
      const page = record[at]!;
      presence[page]! |= bit;
      if (wordSection[page] === 0 && wordPage[page] === 0) wordPages[wordCount++] = page;
      // Or-ing each digit's mask gives a level at least each term's (a bound of their best).
      for (let plane = 0; plane < LEVEL_PLANES; plane++)
        wordLevels[page * LEVEL_PLANES + plane]! |= record[at + 3 + plane]!;
      const section = share * value[at + 1]!;
      const whole = share * value[at + 2]!;
      if (section > wordSection[page]!) wordSection[page] = section;
      if (whole > wordPage[page]!) wordPage[page] = whole;
    }
  }
  for (let i = 0; i < wordCount; i++) {
    const page = wordPages[i]!;
    if (bound[page] === 0) candidateCount = addCandidate(scratch, page, stride, zeroSlots, candidateCount);
    bound[page]! += sectionWeight * wordSection[page]! + params.page * wordPage[page]!;
    if (tracked) {
      const slot = page * stride + g;
      groupSection[slot] = wordSection[page]!;
      for (let plane = 0; plane < LEVEL_PLANES; plane++) {
        groupLevels[slot * LEVEL_PLANES + plane] = wordLevels[page * LEVEL_PLANES + plane]!;
        wordLevels[page * LEVEL_PLANES + plane] = 0;
      }
    }
    wordSection[page] = 0;
    wordPage[page] = 0;
  }
  return candidateCount;
}
