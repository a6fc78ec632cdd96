import type { EngineIndex } from '../types.js';
import { TRACKED_CURSORS } from './layout.js';
import type { TermCursor, WordGroup } from './types.js';

const EMPTY_IDS = new Uint32Array(0);
const EMPTY_TFS = new Uint16Array(0);
/** What `nextPage` answers when a cursor has no postings left. */
export const NO_PAGE = 0xffffffff;
/** Posting lists shorter than this are searched without a skip table. */
const SKIP_MIN_POSTINGS = 256;
/** A skip table has about one entry per this many postings of its list. */
const SKIP_SPACING = 8;
/** A cursor is looked up in its skip table only when it is at least this many postings behind. */
export const SKIP_AHEAD = 16;

/** Pages a skip table entry covers, as a power of two: about `SKIP_SPACING` postings each. */
function skipShift(postings: number, pageCount: number): number {
  let shift = 0;
  while (shift < 24 && (pageCount >>> shift) * SKIP_SPACING > postings) shift++;
  return shift;
}

/**
 * Where a section posting list reaches each block of `2 ** shift` pages: entry `b` is the first
 * posting at or after the first section of page `b << shift`. Lets a cursor that fell behind
 * (its word was not scored on the pages in between) jump close to a page instead of searching
 * the whole distance.
 */
function skipTable(ids: Uint32Array, pageStart: Uint32Array, pageCount: number, shift: number): Uint32Array {
  const blocks = ((pageCount - 1) >>> shift) + 1;
  const table = new Uint32Array(blocks);
  let at = 0;
  for (let block = 0; block < blocks; block++) {
    const first = pageStart[block << shift]!;
    while (at < ids.length && ids[at]! < first) at++;
    table[block] = at;
  }
  return table;
}

/** Skip tables of the long body and heading posting lists, per term (see `skipTable`). */
export interface SkipTables {
  bodySkip: (Uint32Array | undefined)[];
  bodyShift: Uint8Array;
  headSkip: (Uint32Array | undefined)[];
  headShift: Uint8Array;
}

/** The skip tables of an index's long section posting lists; short lists get none. */
export function skipTablesOf(index: EngineIndex): SkipTables {
  const termCount = index.terms.length;
  const pageCount = index.pages.length;
  const tables: SkipTables = {
    bodySkip: new Array(termCount),
    bodyShift: new Uint8Array(termCount),
    headSkip: new Array(termCount),
    headShift: new Uint8Array(termCount),
  };
  for (let term = 0; term < termCount; term++) {
    const bodyIds = index.body.ids[term];
    if (bodyIds && bodyIds.length >= SKIP_MIN_POSTINGS) {
      tables.bodyShift[term] = skipShift(bodyIds.length, pageCount);
      tables.bodySkip[term] = skipTable(bodyIds, index.pageStart, pageCount, tables.bodyShift[term]!);
    }
    const headIds = index.head.ids[term];
    if (headIds && headIds.length >= SKIP_MIN_POSTINGS) {
      tables.headShift[term] = skipShift(headIds.length, pageCount);
      tables.headSkip[term] = skipTable(headIds, index.pageStart, pageCount, tables.headShift[term]!);
    }
  }
  return tables;
}

/** First position at or after `at` whose id is at least `target`, by galloping then bisecting. */
export function seek(ids: Uint32Array, at: number, target: number): number {
  if (at >= ids.length || ids[at]! >= target) return at;
  let low = at;
  let step = 1;
  let high = at + 1;
  while (high < ids.length && ids[high]! < target) {
    low = high;
    step *= 2;
    high = at + step;
  }
  if (high > ids.length) high = ids.length;
  // ids[low] < target; the answer lies in (low, high].
  low++;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (ids[mid]! < target) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** A cursor at the head of one term's four posting lists, scoring at `share` of the term's weight. */
export function openCursor(index: EngineIndex, skips: SkipTables, term: number, share: number): TermCursor {
  const { body, head, title, desc } = index;
  return {
    term,
    share,
    bit: TRACKED_CURSORS,
    bodyIds: body.ids[term] ?? EMPTY_IDS,
    bodyTfs: body.tfs[term] ?? EMPTY_TFS,
    bodyAt: 0,
    bodySkip: skips.bodySkip[term] ?? EMPTY_IDS,
    bodyShift: skips.bodyShift[term]!,
    headIds: head.ids[term] ?? EMPTY_IDS,
    headTfs: head.tfs[term] ?? EMPTY_TFS,
    headAt: 0,
    headSkip: skips.headSkip[term] ?? EMPTY_IDS,
    headShift: skips.headShift[term]!,
    titleIds: title.ids[term] ?? EMPTY_IDS,
    titleTfs: title.tfs[term] ?? EMPTY_TFS,
    titleAt: 0,
    descIds: desc.ids[term] ?? EMPTY_IDS,
    descTfs: desc.tfs[term] ?? EMPTY_TFS,
    descAt: 0,
  };
}

/** The next page any of the cursor's lists reaches, or `NO_PAGE`. */
export function nextPage(sectionPage: Uint32Array, cursor: TermCursor): number {
  let page = NO_PAGE;
  if (cursor.bodyAt < cursor.bodyIds.length) page = sectionPage[cursor.bodyIds[cursor.bodyAt]!]!;
  if (cursor.headAt < cursor.headIds.length) {
    const next = sectionPage[cursor.headIds[cursor.headAt]!]!;
    if (next < page) page = next;
  }
  if (cursor.titleAt < cursor.titleIds.length && cursor.titleIds[cursor.titleAt]! < page)
    page = cursor.titleIds[cursor.titleAt]!;
  if (cursor.descAt < cursor.descIds.length && cursor.descIds[cursor.descAt]! < page)
    page = cursor.descIds[cursor.descAt]!;
  return page;
}

/** Puts every cursor back at the head of its lists, for a page before the ones read so far. */
export function rewind(groups: WordGroup[]): void {
  for (const group of groups) {
    for (const cursor of group.cursors) {
      cursor.bodyAt = 0;
      cursor.headAt = 0;
      cursor.titleAt = 0;
      cursor.descAt = 0;
    }
  }
}
