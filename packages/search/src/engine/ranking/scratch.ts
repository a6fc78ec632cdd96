import { MAX_SEARCH_LIMIT } from '@kit/core/internal';
import { SectionAccumulator } from './accumulate.js';
import type { RankingData } from './data.js';
import { LEVEL_PLANES, SECTION_BUCKETS, TRACKED_GROUPS } from './layout.js';
import type { RankStats } from './types.js';

/**
 * Pages with the best bounds, besides the first `limit`, whose refined bounds are computed to
 * choose the pages scored first (see `rankPages`).
 */
export const POOL_PAGES = 48;

/**
 * What one query writes while it ranks, sized once per index (to its pages and its largest page)
 * and reused by every query, so a query allocates next to nothing however large the index. Between
 * queries every array is at rest: all zeros, except the `groupSection` and `groupLevels` slots,
 * which `presence` and `groupBits` tell a query to ignore when they are not its own. Each stage
 * puts back what it writes; the per-page bounds and presence of the query's candidates are put
 * back by {@link QueryScratch.reset}.
 */
export class QueryScratch {
  // First phase, one slot a page (see `boundPages`).
  readonly bound: Float64Array;
  readonly wordSection: Float64Array;
  readonly wordPage: Float64Array;
  /** The query's candidate pages in the order they were met; `candidateCount` of them. */
  readonly candidates: Uint32Array;
  candidateCount = 0;
  readonly wordPages: Uint32Array;
  /** Per page: which tracked cursors have postings on it. */
  readonly presence: Uint32Array;
  /**
   * Per page and tracked word (as many slots a page as the query has words): the bound of the
   * word's best section score on the page, and its levels in the page's section buckets.
   */
  readonly groupSection: Float64Array;
  readonly groupLevels: Uint32Array;
  readonly wordLevels: Uint32Array;
  /**
   * Per tracked word of the current query: the presence bits of its cursors (see `presence`). A
   * page's slot of a word it lacks is not cleared: the bits tell it is not the query's, unless a
   * cursor is not tracked (`zeroSlots`: then slots are cleared as pages are met).
   */
  readonly groupBits = new Int32Array(TRACKED_GROUPS);
  zeroSlots = false;
  /** Pages with the best bounds of the current query (see `rankPages`). */
  poolHeap = new Int32Array(MAX_SEARCH_LIMIT + POOL_PAGES);
  /** Where the current query counts its work, if anywhere. */
  stats: RankStats | null = null;

  // Scoring one page, one slot a section of the largest page (see `scorePage`).
  readonly maxSections: number;
  readonly reader: SectionAccumulator;
  /** The current word's best term score per section, and the sections it has. */
  readonly word: Float64Array;
  readonly wordMark: Uint8Array;
  readonly wordList: Int32Array;
  wordCount = 0;
  /** Set by `scoreWord`: the word's best section score on the page. */
  wordBest = 0;
  /** The page's running total per section, and the sections it has. */
  readonly total: Float64Array;
  readonly totalMark: Uint8Array;
  readonly totalList: Int32Array;
  totalCount = 0;
  /**
   * Per tracked word (`maxSections` slots each): the sections it scored on the current page and
   * their scores, so that a page scored in another word order gets its totals summed in query
   * order (the same floating-point sums as scoring in query order).
   */
  readonly keptLocal: Int32Array;
  readonly keptScore: Float64Array;
  readonly keptCount = new Int32Array(TRACKED_GROUPS);
  readonly keptPage = new Float64Array(TRACKED_GROUPS);
  readonly keptBest = new Float64Array(TRACKED_GROUPS);
  /** Per section bucket of the current page: its best section total so far (see `bucketOf`). */
  readonly bucketBest = new Float64Array(SECTION_BUCKETS);
  /** Per section bucket of the current page: the most the words not scored yet can add to one of its sections. */
  readonly bucketRemaining = new Float64Array(SECTION_BUCKETS);
  /** The current page's `groupSection` slots, read once (see `loadWords`). */
  readonly wordSectionBound = new Float64Array(TRACKED_GROUPS);
  /**
   * The current page's section buckets that can still reach the threshold (a mask), the one with
   * the highest reach, and bounds of what the words not scored yet add: to one section of each
   * live bucket, and to the whole page.
   */
  live = 0;
  critical = 0;
  remainingSection = 0;
  pagePart = 0;

  constructor(data: RankingData) {
    const pageCount = data.index.pages.length;
    const { maxSections } = data;
    this.bound = new Float64Array(pageCount);
    this.wordSection = new Float64Array(pageCount);
    this.wordPage = new Float64Array(pageCount);
    this.candidates = new Uint32Array(pageCount);
    this.wordPages = new Uint32Array(pageCount);
    this.presence = new Uint32Array(pageCount);
    this.groupSection = new Float64Array(pageCount * TRACKED_GROUPS);
    this.groupLevels = new Uint32Array(pageCount * TRACKED_GROUPS * LEVEL_PLANES);
    this.wordLevels = new Uint32Array(pageCount * LEVEL_PLANES);
    this.maxSections = maxSections;
    this.reader = new SectionAccumulator(data.units, maxSections);
    this.keptLocal = new Int32Array(maxSections * TRACKED_GROUPS);
    this.keptScore = new Float64Array(maxSections * TRACKED_GROUPS);
    this.word = new Float64Array(maxSections);
    this.wordMark = new Uint8Array(maxSections);
    this.wordList = new Int32Array(maxSections);
    this.total = new Float64Array(maxSections);
    this.totalMark = new Uint8Array(maxSections);
    this.totalList = new Int32Array(maxSections);
  }

  /** Puts the per-page bounds and presence of the query's candidates back at rest, ready for the next query. */
  reset(): void {
    const { bound, presence, candidates } = this;
    for (let i = 0; i < this.candidateCount; i++) {
      const page = candidates[i]!;
      bound[page] = 0;
      presence[page] = 0;
    }
    this.candidateCount = 0;
    this.stats = null;
  }
}
