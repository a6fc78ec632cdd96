import { MAX_SEARCH_LIMIT } from '@kit/core';
import { analyzeQuery, type QueryWord, tokenize } from '../text/analyze.js';
import { relatedTerms, relatedWordings } from '../text/related.js';
import { expand } from './expand.js';
import { type SemanticModel, semanticModelOf } from './semantic.js';
import type { EngineIndex } from './types.js';

/** BM25F weights. One object so the quality benchmark can tune them on its tuning split. */
export interface RankingParams {
  k1: number;
  /** Field weights: page title, heading path, page description, section body. */
  title: number;
  head: number;
  desc: number;
  body: number;
  /** Length normalization per field. */
  bTitle: number;
  bHead: number;
  bDesc: number;
  bBody: number;
  /** Share of the whole page's score added to each of its sections. */
  page: number;
  /** Weight of the page's best section (all query words scored in one section). */
  section: number;
  /** Weight of each query word's best section on the page, wherever it is. */
  spread: number;
  /** Score share of a prefix and of a one- and two-edit typo match. */
  prefix: number;
  typo1: number;
  typo2: number;
  /** Score share of a word related to the query's wording (developer phrasing to docs phrasing); 0 turns it off. */
  related: number;
  /**
   * Score share of a part of a camelCase query word (`hub` of `GitHub`). The parts are
   * alternatives of the word, not words of their own, so one identifier weighs as one word.
   */
  part: number;
  /**
   * Title coverage: added to a page after the first when the query has its title's words (in full
   * when every title word is in the query, in part when some are), so the page a question names
   * moves up among the results without displacing the best match; 0 turns it off.
   */
  titleCoverage: number;
  /**
   * Weight of the semantic match (see `semantic.ts`): the cosine between the query's and a page's
   * latent vectors, in units of the best result's score, added to the pages the words ranked first
   * so that among them the page about the question's subject wins; 0 turns it off.
   */
  semantic: number;
  /**
   * No-match threshold: the share of the query the best result must cover, or the query has no
   * results at all. Each word the searcher wrote weighs its inverse page frequency (a word no page
   * has weighs the most, as the rarest word would); a page covers a word by having it, a typo,
   * prefix, related-wording or camelCase-part match at its reduced share. A query nothing really
   * matches (a random token, a question from another field) then answers nothing rather than the
   * pages of a stray word; 0 turns it off.
   */
  minCoverage: number;
  /** The share of the query every other result must cover: pages matching only a stray word of a real question are left out; 0 turns it off. */
  minHitCoverage: number;
}

export const DEFAULT_RANKING: RankingParams = {
  k1: 1.2,
  title: 4,
  head: 3,
  desc: 1.5,
  body: 1,
  bTitle: 0.3,
  bHead: 0.5,
  bDesc: 0.5,
  bBody: 0.75,
  page: 0.6,
  section: 1,
  spread: 0,
  prefix: 0.5,
  typo1: 0.7,
  typo2: 0.45,
  related: 0.6,
  part: 0.5,
  titleCoverage: 0.5,
  semantic: 0.3,
  minCoverage: 0.5,
  minHitCoverage: 0.25,
};

/** One ranked section: the best of its page. */
export interface RankedSection {
  section: number;
  score: number;
  /** Further sections of the same page that match the query well, best first (see `RankOptions.sections`). */
  more?: RankedSection[];
}

export interface RankOutcome {
  hits: RankedSection[];
  /** Index terms the query matched (exactly, by prefix or by typo), for snippets. */
  matchedTerms: Set<string>;
}

export interface RankOptions {
  /**
   * Score every page that matches a query word instead of skipping the pages that provably cannot
   * reach the results. Same results, slower; the pruning tests compare against it.
   */
  exhaustive?: boolean;
  /** Filled in with how much work the query took (for benchmarks: counts, unlike timings, are not noisy). */
  stats?: RankStats;
  /**
   * Most sections returned per page: the best one as the hit, and up to `sections - 1` more in
   * `more` (sections with their own match scoring at least {@link MORE_SECTION_SHARE} of the
   * page's best section). Default 1: one section per page.
   */
  sections?: number;
}

/**
 * Share of a page's best section score another section of the page needs to be listed with it:
 * high enough that a stray mention is left out, low enough that a second subsection about the
 * question (the "Retrying Failed Jobs" beside "Failed Jobs") is not.
 */
export const MORE_SECTION_SHARE = 0.5;

/** Work one ranking took. */
export interface RankStats {
  /** Pages any query word occurs on. */
  candidates: number;
  /** Pages whose exact score was started. */
  scored: number;
  /** Pages scored to the end (not cut off by their bound). */
  completed: number;
}

/**
 * Pages ranked when title coverage reorders the results after the first: at least this many, so
 * the first results are the same whatever `limit` asks for (up to it).
 */
const TITLE_COVERAGE_POOL = 10;
/**
 * Pages the semantic match reorders: the most any search returns, so the first results are the
 * same whatever `limit` asks for.
 */
const SEMANTIC_POOL = MAX_SEARCH_LIMIT;
const EMPTY_IDS = new Uint32Array(0);
const EMPTY_TFS = new Uint16Array(0);
const NO_PAGE = 0xffffffff;
/**
 * Pages with the best bounds, besides the first `limit`, whose refined bounds are computed to
 * choose the pages scored first (see `run`).
 */
const POOL_PAGES = 48;
/** Pages scored in refined-bound order after the first `limit` before switching to page order. */
const EAGER_PAGES = 16;
/**
 * Upper bounds are inflated by this much so that rounding (sums taken in another order than the
 * scores they bound) can never prune a page that would have made the results.
 */
const BOUND_SLACK = 1 + 1e-9;
/** Every bucket of a page, as a mask of bucket bits. */
const ALL_BUCKETS = -1;
/**
 * Query words whose per-page bounds are kept for stopping a page's exact scoring early, and
 * cursors whose presence on a page is remembered so that scoring skips the absent ones; a query
 * with more still ranks the same, only without these shortcuts for the words past it.
 */
const TRACKED_GROUPS = 32;
const TRACKED_CURSORS = 32;
/** Sections of a page are grouped into at most this many buckets, one bit each in a mask (see `scorePage`). */
const SECTION_BUCKETS = 32;
/**
 * A term's best section score in each bucket of a page is kept as a level, a share of its best on
 * the page rounded up to a multiple of 1 / `LEVELS`, in `LEVEL_PLANES` masks (one per binary digit).
 */
const LEVEL_PLANES = 2;
const LEVELS = (1 << LEVEL_PLANES) - 1;
/** 32-bit words of a page impact record (see `Ranker.impacts`). */
const IMPACT_STRIDE = 3 + LEVEL_PLANES;

/** How many bits of `x` (32 bits) are set. */
function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** The bucket of a page's `local`-th section out of `count`: the section itself on pages of up to 32. */
function bucketOf(local: number, count: number): number {
  return count <= SECTION_BUCKETS ? local : ((local * SECTION_BUCKETS) / count) | 0;
}

/** The mask of every bucket a page of `count` sections has. */
function allBuckets(count: number): number {
  return count >= SECTION_BUCKETS ? 0xffffffff : (1 << count) - 1;
}

/** Where one term's four posting lists stand while pages are visited in order. */
interface TermCursor {
  term: number;
  share: number;
  /** Bit of the cursor in a page's presence mask (`TRACKED_CURSORS` or more: not tracked). */
  bit: number;
  bodyIds: Uint32Array;
  bodyTfs: Uint16Array;
  bodyAt: number;
  /** Where the body postings of each block of pages start (empty for short lists; see `skipTable`). */
  bodySkip: Uint32Array;
  bodyShift: number;
  headIds: Uint32Array;
  headTfs: Uint16Array;
  headAt: number;
  headSkip: Uint32Array;
  headShift: number;
  titleIds: Uint32Array;
  titleTfs: Uint16Array;
  titleAt: number;
  descIds: Uint32Array;
  descTfs: Uint16Array;
  descAt: number;
}

/** One query word: the index terms it stands for (exact, prefix, typo, related), scored as their best. */
interface WordGroup {
  cursors: TermCursor[];
  /** Added from the related-wording table, not written by the searcher. */
  related?: boolean;
  /** The most the word can add to any page's score (from the impacts of its terms). */
  reach: number;
  /**
   * What the word weighs in the query's coverage (see `RankingParams.minCoverage`): the inverse
   * page frequency of its own term, or of the best term it stands for when the index lacks it.
   */
  weight: number;
  /** Terms of the word's camelCase parts, and how many parts it has: parts cover the word in proportion. */
  partTerms?: Set<number>;
  partCount?: number;
}

/** One word the searcher wrote, as the no-match threshold weighs it (see `RankingParams.minCoverage`). */
interface CoverageWord {
  weight: number;
  /** Its group, or null when no index term matches it. */
  group: WordGroup | null;
  /** Terms the related-wording table puts for it (the docs' wording of what it says). */
  related: number[];
}

/** The words of a query as ranking reads them, and as the no-match threshold weighs them. */
interface QueryGroups {
  groups: WordGroup[];
  words: CoverageWord[];
}

/** Posting lists shorter than this are searched without a skip table. */
const SKIP_MIN_POSTINGS = 256;
/** A skip table has about one entry per this many postings of its list. */
const SKIP_SPACING = 8;
/** A cursor is looked up in its skip table only when it is at least this many postings behind. */
const SKIP_AHEAD = 16;

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

/** A 32-bit float at least `value` (plus slack for the sums it is later part of). */
function roundUp(value: number): number {
  return Math.fround(value * BOUND_SLACK * (1 + 2 ** -20));
}

function idf(total: number, df: number): number {
  return Math.log(1 + (total - df + 0.5) / (df + 0.5));
}

/** First position at or after `at` whose id is at least `target`, by galloping then bisecting. */
function seek(ids: Uint32Array, at: number, target: number): number {
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

/**
 * Everything ranking needs of one index under one set of weights: per-term document frequencies,
 * IDFs and score upper bounds (computed once, in one pass over the postings), and scratch space
 * sized to the largest page. Scores are computed one page at a time, so nothing scales with the
 * corpus per query except the posting lists actually read.
 */
class Ranker {
  readonly idfSection: Float64Array;
  readonly idfPage: Float64Array;
  /**
   * Page impacts: per term, a record (`IMPACT_STRIDE` 32-bit words) for each page it occurs in,
   * ascending: the page; upper bounds of what the term adds to it at share 1, its best section
   * score and its whole-page score (rounded up to 32-bit floats, half the size of exact values,
   * read through `impactValues`); and the level of its best section score in each of the page's
   * section buckets (see `bucketOf`), one mask a binary digit. Every bucket has a level when the
   * page's title or description has the term, since those count in every section.
   */
  private readonly impacts: Uint32Array[];
  private readonly impactValues: Float32Array[];
  /** Skip tables of the long body and heading posting lists, per term (see `skipTable`). */
  private readonly bodySkip: (Uint32Array | undefined)[];
  private readonly bodyShift: Uint8Array;
  private readonly headSkip: (Uint32Array | undefined)[];
  private readonly headShift: Uint8Array;
  /** Per term: the most its impacts add to any page's bound at share 1. */
  private readonly termMax: Float64Array;
  /** Per-page scratch of a query's first phase. */
  private readonly bound: Float64Array;
  private readonly wordSection: Float64Array;
  private readonly wordPage: Float64Array;
  private readonly candidates: Uint32Array;
  private readonly wordPages: Uint32Array;
  private readonly pageNorm: Float64Array;
  /**
   * Field weight over length normalization, per section (body, heading path) and per page (title,
   * description): what one occurrence adds, computed once instead of per posting.
   */
  private readonly bodyUnit: Float64Array;
  private readonly headUnit: Float64Array;
  private readonly titleUnit: Float64Array;
  private readonly descUnit: Float64Array;
  private readonly avg: { body: number; head: number; title: number; desc: number };
  private readonly acc: Float64Array;
  private readonly touched: Int32Array;
  private touchedCount = 0;
  /** Set by `accumulate`: what title and description add to every section of the page, and the page's own tf. */
  private whole = 0;
  private pageTf = 0;
  /** Set by `scoreWord`: the word's best section score on the page. */
  private wordBest = 0;
  private readonly maxSections: number;
  /**
   * Per tracked word (`maxSections` slots each): the sections it scored on the current page and
   * their scores, so that a page scored in another word order gets its totals summed in query
   * order (the same floating-point sums as scoring in query order).
   */
  private readonly keptLocal: Int32Array;
  private readonly keptScore: Float64Array;
  private readonly keptCount = new Int32Array(TRACKED_GROUPS);
  private readonly keptPage = new Float64Array(TRACKED_GROUPS);
  private readonly keptBest = new Float64Array(TRACKED_GROUPS);
  /** Per section bucket of the current page: its best section total so far (see `bucketOf`). */
  private readonly bucketBest = new Float64Array(SECTION_BUCKETS);
  /** Per section bucket of the current page: the most the words not scored yet can add to one of its sections. */
  private readonly bucketRemaining = new Float64Array(SECTION_BUCKETS);
  /** Per page: which tracked cursors have postings on it (filled in by `boundPages`). */
  private readonly presence: Uint32Array;
  /**
   * Per page and tracked word (as many slots a page as the query has words): the bound of the
   * word's best section score on the page, and its levels in the page's section buckets.
   */
  private readonly groupSection: Float64Array;
  private readonly groupLevels: Uint32Array;
  /**
   * Per tracked word of the current query: the presence bits of its cursors (see `presence`). A
   * page's slot of a word it lacks is not cleared: the bits tell it is not the query's, unless a
   * cursor is not tracked (`zeroSlots`: then slots are cleared as pages are met).
   */
  private readonly groupBits = new Int32Array(TRACKED_GROUPS);
  private zeroSlots = false;
  /** The current page's `groupSection` slots, read once (see `loadWords`). */
  private readonly wordSectionBound = new Float64Array(TRACKED_GROUPS);
  /** Pages with the best bounds of the current query (see `run`). */
  private poolHeap = new Int32Array(MAX_SEARCH_LIMIT + POOL_PAGES);
  private readonly wordLevels: Uint32Array;
  private readonly word: Float64Array;
  private readonly wordMark: Uint8Array;
  private readonly wordList: Int32Array;
  private wordCount = 0;
  private readonly total: Float64Array;
  private readonly totalMark: Uint8Array;
  private readonly totalList: Int32Array;
  private totalCount = 0;
  /** Where the current query counts its work, if anywhere. */
  private stats: RankStats | null = null;
  /** Coverage weight of a query word no page has: the inverse page frequency of a word on none. */
  readonly unknownWeight: number;
  /** The index's latent vectors, when `params.semantic` asks for them. */
  private readonly model: SemanticModel | null;

  constructor(
    private readonly index: EngineIndex,
    private readonly params: RankingParams,
  ) {
    const pageCount = index.pages.length;
    const sectionCount = index.sections.length;
    const mean = (values: Uint32Array) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0) || 1;
    this.avg = {
      body: mean(index.bodyLen),
      head: mean(index.headLen),
      title: mean(index.titleLen),
      desc: mean(index.descLen),
    };
    const pageLen = new Float64Array(pageCount);
    let maxSections = 1;
    for (let page = 0; page < pageCount; page++) {
      const count = index.pageStart[page + 1]! - index.pageStart[page]!;
      if (count > maxSections) maxSections = count;
    }
    for (let s = 0; s < sectionCount; s++) pageLen[index.sectionPage[s]!]! += index.bodyLen[s]! + index.headLen[s]!;
    const avgPage = pageCount ? pageLen.reduce((a, b) => a + b, 0) / pageCount || 1 : 1;
    this.pageNorm = pageLen.map((length) => 1 - params.bBody + (params.bBody * length) / avgPage);
    const { avg } = this;
    this.bodyUnit = Float64Array.from(
      index.bodyLen,
      (length) => params.body / (1 - params.bBody + (params.bBody * length) / avg.body),
    );
    this.headUnit = Float64Array.from(
      index.headLen,
      (length) => params.head / (1 - params.bHead + (params.bHead * length) / avg.head),
    );
    this.titleUnit = Float64Array.from(
      index.titleLen,
      (length) => params.title / (1 - params.bTitle + (params.bTitle * length) / avg.title),
    );
    this.descUnit = Float64Array.from(
      index.descLen,
      (length) => params.desc / (1 - params.bDesc + (params.bDesc * length) / avg.desc),
    );
    this.maxSections = maxSections;
    this.keptLocal = new Int32Array(maxSections * TRACKED_GROUPS);
    this.keptScore = new Float64Array(maxSections * TRACKED_GROUPS);
    this.acc = new Float64Array(maxSections);
    this.touched = new Int32Array(maxSections);
    this.word = new Float64Array(maxSections);
    this.wordMark = new Uint8Array(maxSections);
    this.wordList = new Int32Array(maxSections);
    this.total = new Float64Array(maxSections);
    this.totalMark = new Uint8Array(maxSections);
    this.totalList = new Int32Array(maxSections);

    this.bound = new Float64Array(pageCount);
    this.wordSection = new Float64Array(pageCount);
    this.wordPage = new Float64Array(pageCount);
    this.candidates = new Uint32Array(pageCount);
    this.wordPages = new Uint32Array(pageCount);
    this.presence = new Uint32Array(pageCount);
    this.groupSection = new Float64Array(pageCount * TRACKED_GROUPS);
    this.groupLevels = new Uint32Array(pageCount * TRACKED_GROUPS * LEVEL_PLANES);
    this.wordLevels = new Uint32Array(pageCount * LEVEL_PLANES);
    this.model = params.semantic > 0 ? semanticModelOf(index) : null;
    this.unknownWeight = idf(pageCount, 0);

    const termCount = index.terms.length;
    this.idfSection = new Float64Array(termCount);
    this.idfPage = new Float64Array(termCount);
    this.impacts = new Array(termCount);
    this.bodySkip = new Array(termCount);
    this.bodyShift = new Uint8Array(termCount);
    this.headSkip = new Array(termCount);
    this.headShift = new Uint8Array(termCount);
    this.impactValues = new Array(termCount);
    this.termMax = new Float64Array(termCount);
    const sectionWeight = params.section + params.spread;
    const k1 = params.k1;
    // A term meets each page at most once, so page-sized buffers hold any term's pages.
    const seenPages = new Uint32Array(pageCount);
    const seenSectionTf = new Float64Array(pageCount);
    const seenPageTf = new Float64Array(pageCount);
    const seenLevels = new Uint32Array(pageCount * LEVEL_PLANES);
    const bucketTf = new Float64Array(SECTION_BUCKETS);
    for (let term = 0; term < termCount; term++) {
      const cursor = this.cursor(term, 1);
      let sections = 0;
      let pages = 0;
      for (let page = this.nextPage(cursor); page !== NO_PAGE; page = this.nextPage(cursor)) {
        const start = index.pageStart[page]!;
        const count = index.pageStart[page + 1]! - start;
        this.accumulate(cursor, page, start, count);
        sections += this.whole > 0 ? count : this.touchedCount;
        let best = 0;
        for (let i = 0; i < this.touchedCount; i++) {
          const local = this.touched[i]!;
          const tf = this.acc[local]!;
          if (tf > best) best = tf;
          const bucket = bucketOf(local, count);
          if (tf > bucketTf[bucket]!) bucketTf[bucket] = tf;
          this.acc[local] = 0;
        }
        // Score is idf * tf / (k1 + tf): a bucket's share of the page's best does without the idf.
        const top = best + this.whole;
        const topShare = top / (k1 + top);
        for (let b = 0, end = Math.min(count, SECTION_BUCKETS); b < end; b++) {
          const tf = bucketTf[b]! + this.whole;
          bucketTf[b] = 0;
          if (tf === 0) continue;
          // Rounded up (the bound must hold); impacts are rounded up far more than the 1e-9 taken off.
          const level = Math.min(LEVELS, Math.max(1, Math.ceil((LEVELS * (tf / (k1 + tf))) / topShare - 1e-9)));
          for (let plane = 0; plane < LEVEL_PLANES; plane++)
            if ((level & (1 << plane)) !== 0) seenLevels[pages * LEVEL_PLANES + plane]! |= 1 << b;
        }
        seenPages[pages] = page;
        seenSectionTf[pages] = best + this.whole;
        seenPageTf[pages] = this.pageTf;
        pages++;
      }
      // One record a page, read in one pass by `boundPages`: page, impacts, level masks.
      const buffer = new ArrayBuffer(pages * IMPACT_STRIDE * 4);
      const record = new Uint32Array(buffer);
      const value = new Float32Array(buffer);
      for (let i = 0; i < pages; i++) {
        record[i * IMPACT_STRIDE] = seenPages[i]!;
        for (let plane = 0; plane < LEVEL_PLANES; plane++)
          record[i * IMPACT_STRIDE + 3 + plane] = seenLevels[i * LEVEL_PLANES + plane]!;
      }
      seenLevels.fill(0, 0, pages * LEVEL_PLANES);
      this.impacts[term] = record;
      this.impactValues[term] = value;
      let most = 0;
      if (pages > 0) {
        const sectionIdf = idf(sectionCount, sections);
        const pageIdf = idf(pageCount, pages);
        this.idfSection[term] = sectionIdf;
        this.idfPage[term] = pageIdf;
        for (let i = 0; i < pages; i++) {
          const sectionTf = seenSectionTf[i]!;
          const pageTf = seenPageTf[i]!;
          const sectionImpact = roundUp((sectionIdf * sectionTf) / (k1 + sectionTf));
          const pageImpact = roundUp((pageIdf * pageTf) / (k1 + pageTf));
          value[i * IMPACT_STRIDE + 1] = sectionImpact;
          value[i * IMPACT_STRIDE + 2] = pageImpact;
          const reach = sectionWeight * sectionImpact + params.page * pageImpact;
          if (reach > most) most = reach;
        }
      }
      this.termMax[term] = most;
    }
    for (let term = 0; term < termCount; term++) {
      const bodyIds = index.body.ids[term];
      if (bodyIds && bodyIds.length >= SKIP_MIN_POSTINGS) {
        this.bodyShift[term] = skipShift(bodyIds.length, pageCount);
        this.bodySkip[term] = skipTable(bodyIds, index.pageStart, pageCount, this.bodyShift[term]!);
      }
      const headIds = index.head.ids[term];
      if (headIds && headIds.length >= SKIP_MIN_POSTINGS) {
        this.headShift[term] = skipShift(headIds.length, pageCount);
        this.headSkip[term] = skipTable(headIds, index.pageStart, pageCount, this.headShift[term]!);
      }
    }
  }

  /** Whether a term occurs anywhere in the index. */
  occurs(term: number): boolean {
    return this.idfPage[term]! > 0;
  }

  cursor(term: number, share: number): TermCursor {
    const { body, head, title, desc } = this.index;
    return {
      term,
      share,
      bit: TRACKED_CURSORS,
      bodyIds: body.ids[term] ?? EMPTY_IDS,
      bodyTfs: body.tfs[term] ?? EMPTY_TFS,
      bodyAt: 0,
      bodySkip: this.bodySkip[term] ?? EMPTY_IDS,
      bodyShift: this.bodyShift[term]!,
      headIds: head.ids[term] ?? EMPTY_IDS,
      headTfs: head.tfs[term] ?? EMPTY_TFS,
      headAt: 0,
      headSkip: this.headSkip[term] ?? EMPTY_IDS,
      headShift: this.headShift[term]!,
      titleIds: title.ids[term] ?? EMPTY_IDS,
      titleTfs: title.tfs[term] ?? EMPTY_TFS,
      titleAt: 0,
      descIds: desc.ids[term] ?? EMPTY_IDS,
      descTfs: desc.tfs[term] ?? EMPTY_TFS,
      descAt: 0,
    };
  }

  /** The next page any of the cursor's lists reaches, or `NO_PAGE`. */
  nextPage(cursor: TermCursor): number {
    const sectionPage = this.index.sectionPage;
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

  /**
   * Reads one term's postings inside `page` (moving its cursor past them): field-weighted,
   * length-normalized counts per section in `acc` (sections listed in `touched`), what the page's
   * title and description add to each section in `whole`, and the page's own count in `pageTf`.
   */
  private accumulate(cursor: TermCursor, page: number, start: number, count: number): void {
    const { params, acc, touched, bodyUnit, headUnit } = this;
    const end = start + count;
    let touchedCount = 0;
    let raw = 0;
    let ids = cursor.bodyIds;
    let at = cursor.bodyAt;
    // A cursor far behind (its word not scored on the pages in between) jumps to the page's block.
    if (cursor.bodySkip.length > 0 && at + SKIP_AHEAD < ids.length && ids[at + SKIP_AHEAD]! < start)
      at = Math.max(at, cursor.bodySkip[page >>> cursor.bodyShift]!);
    at = seek(ids, at, start);
    for (; at < ids.length && ids[at]! < end; at++) {
      const section = ids[at]!;
      const local = section - start;
      const tf = cursor.bodyTfs[at]!;
      if (acc[local] === 0) touched[touchedCount++] = local;
      acc[local]! += bodyUnit[section]! * tf;
      raw += params.body * tf;
    }
    cursor.bodyAt = at;
    ids = cursor.headIds;
    at = cursor.headAt;
    if (cursor.headSkip.length > 0 && at + SKIP_AHEAD < ids.length && ids[at + SKIP_AHEAD]! < start)
      at = Math.max(at, cursor.headSkip[page >>> cursor.headShift]!);
    at = seek(ids, at, start);
    for (; at < ids.length && ids[at]! < end; at++) {
      const section = ids[at]!;
      const local = section - start;
      const tf = cursor.headTfs[at]!;
      if (acc[local] === 0) touched[touchedCount++] = local;
      acc[local]! += headUnit[section]! * tf;
      raw += params.head * tf;
    }
    cursor.headAt = at;
    this.touchedCount = touchedCount;
    // The whole page's count: raw counts of all its sections, normalized by the page's length.
    let pageTf = raw > 0 ? raw / this.pageNorm[page]! : 0;
    let whole = 0;
    at = seek(cursor.titleIds, cursor.titleAt, page);
    if (at < cursor.titleIds.length && cursor.titleIds[at] === page) {
      whole += this.titleUnit[page]! * cursor.titleTfs[at]!;
      at++;
    }
    cursor.titleAt = at;
    at = seek(cursor.descIds, cursor.descAt, page);
    if (at < cursor.descIds.length && cursor.descIds[at] === page) {
      whole += this.descUnit[page]! * cursor.descTfs[at]!;
      at++;
    }
    cursor.descAt = at;
    pageTf += whole;
    this.whole = whole;
    this.pageTf = pageTf;
  }

  private markWord(local: number, value: number): void {
    if (this.wordMark[local] === 0) {
      this.wordMark[local] = 1;
      this.wordList[this.wordCount++] = local;
    }
    if (value > this.word[local]!) this.word[local] = value;
  }

  /**
   * Scores one word on one page: each section gets the best of the word's terms, added to its
   * running total; returns the word's whole-page score.
   */
  private scoreWord(group: WordGroup, page: number, start: number, count: number, keep: number): number {
    const { acc, touched, params } = this;
    const k1 = params.k1;
    const present = this.presence[page]!;
    let pageWord = 0;
    this.wordCount = 0;
    for (const cursor of group.cursors) {
      // A tracked cursor without postings on the page adds nothing; its lists are read from where
      // they stand when a later page needs them.
      if (cursor.bit < TRACKED_CURSORS && (present & (1 << cursor.bit)) === 0) continue;
      this.accumulate(cursor, page, start, count);
      const whole = this.whole;
      const touchedCount = this.touchedCount;
      if (touchedCount === 0 && whole === 0) continue;
      const sectionIdf = this.idfSection[cursor.term]! * cursor.share;
      if (whole > 0) {
        for (let local = 0; local < count; local++) {
          const tf = acc[local]! + whole;
          this.markWord(local, (sectionIdf * tf) / (k1 + tf));
        }
      } else {
        for (let i = 0; i < touchedCount; i++) {
          const tf = acc[touched[i]!]!;
          this.markWord(touched[i]!, (sectionIdf * tf) / (k1 + tf));
        }
      }
      for (let i = 0; i < touchedCount; i++) acc[touched[i]!] = 0;
      const pageTf = this.pageTf;
      const value = (this.idfPage[cursor.term]! * cursor.share * pageTf) / (k1 + pageTf);
      if (value > pageWord) pageWord = value;
    }
    const { word, wordList, total, totalMark, totalList } = this;
    let wordBest = 0;
    if (keep < 0) {
      for (let i = 0; i < this.wordCount; i++) {
        const local = wordList[i]!;
        const value = word[local]!;
        if (value > wordBest) wordBest = value;
        if (totalMark[local] === 0) {
          totalMark[local] = 1;
          totalList[this.totalCount++] = local;
        }
        total[local]! += value;
        word[local] = 0;
        this.wordMark[local] = 0;
      }
    } else {
      // Also kept for summing in query order, and each bucket's best total so far.
      const { keptLocal, keptScore, bucketBest } = this;
      const kept = keep * this.maxSections;
      this.keptCount[keep] = this.wordCount;
      for (let i = 0; i < this.wordCount; i++) {
        const local = wordList[i]!;
        const value = word[local]!;
        keptLocal[kept + i] = local;
        keptScore[kept + i] = value;
        if (value > wordBest) wordBest = value;
        if (totalMark[local] === 0) {
          totalMark[local] = 1;
          totalList[this.totalCount++] = local;
        }
        total[local]! += value;
        const sum = total[local]!;
        const bucket = bucketOf(local, count);
        if (sum > bucketBest[bucket]!) bucketBest[bucket] = sum;
        word[local] = 0;
        this.wordMark[local] = 0;
      }
    }
    this.wordBest = wordBest;
    return pageWord;
  }

  /** Best section total so far on the current page (ties to the earlier section). */
  private bestSection(): { local: number; total: number } {
    let local = -1;
    let best = 0;
    for (let i = 0; i < this.totalCount; i++) {
      const candidate = this.totalList[i]!;
      const value = this.total[candidate]!;
      if (value > best || (value === best && candidate < local)) {
        best = value;
        local = candidate;
      }
    }
    return { local, total: best };
  }

  private clearPage(): void {
    for (let i = 0; i < this.totalCount; i++) {
      const local = this.totalList[i]!;
      this.total[local] = 0;
      this.totalMark[local] = 0;
    }
    this.totalCount = 0;
    this.bucketBest.fill(0);
  }

  /** Puts every cursor back at the head of its lists, for a page before the ones read so far. */
  private rewind(groups: WordGroup[]): void {
    for (const group of groups) {
      for (const cursor of group.cursors) {
        cursor.bodyAt = 0;
        cursor.headAt = 0;
        cursor.titleAt = 0;
        cursor.descAt = 0;
      }
    }
  }

  /**
   * Reads the tracked words' best section bounds on a page into `wordSectionBound` (0 for the words
   * the page lacks, whose slots hold an earlier query's values) and returns their sum.
   */
  private loadWords(page: number, wordCount: number): number {
    const { groupSection, groupBits, wordSectionBound } = this;
    const present = this.presence[page]!;
    const slots = page * wordCount;
    let sum = 0;
    for (let g = 0; g < wordCount; g++) {
      const value = this.zeroSlots || (present & groupBits[g]!) !== 0 ? groupSection[slots + g]! : 0;
      wordSectionBound[g] = value;
      sum += value;
    }
    return sum;
  }

  /**
   * Adds each loaded word's section bound, at the level the word reaches in each bucket, to
   * `bucketRemaining` of the buckets in `within` (a mask of bucket bits).
   */
  private addWordLevels(slots: number, wordCount: number, within: number): void {
    const { bucketRemaining, wordSectionBound, groupLevels } = this;
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
  private refinedBound(page: number, wordCount: number): number {
    const sums = this.bucketRemaining;
    const buckets = Math.min(this.index.pageStart[page + 1]! - this.index.pageStart[page]!, SECTION_BUCKETS);
    const sectionSum = this.loadWords(page, wordCount);
    this.addWordLevels(page * wordCount, wordCount, ALL_BUCKETS);
    let best = 0;
    for (let b = 0; b < buckets; b++) {
      if (sums[b]! > best) best = sums[b]!;
      sums[b] = 0;
    }
    return this.bound[page]! - this.params.section * Math.max(0, sectionSum - best);
  }

  /**
   * Exact score of one page: its best section and score. Returns null early, without finishing,
   * once the page provably cannot reach `threshold` (it could not make the results).
   *
   * A section's score adds up the words it has, so the bound of the page's best section is that of
   * its best bucket of sections (the words' bounds summed over the words in the bucket), not the
   * sum of every word's best. Buckets that cannot reach the threshold are dropped before the first
   * word is read; each word scored then replaces its bound by its exact scores, and scoring stops
   * when no bucket is left. Words are scored in the order that empties the buckets soonest for the
   * postings read (see the choice below); a page scored to the end then has its totals summed
   * again in query order.
   */
  private scorePage(
    groups: WordGroup[],
    page: number,
    forward: boolean,
    threshold = Number.NEGATIVE_INFINITY,
  ): RankedSection | null {
    const { params, stats, bucketBest, bucketRemaining, wordSectionBound, groupLevels } = this;
    const start = this.index.pageStart[page]!;
    const count = this.index.pageStart[page + 1]! - start;
    const wordCount = groups.length;
    const tracked = wordCount <= TRACKED_GROUPS && threshold > Number.NEGATIVE_INFINITY;
    const slots = page * wordCount;
    // Buckets of sections that can still reach the threshold, and bounds of what the words not
    // scored yet add: to one section of each live bucket, to the spread and to the whole page.
    let live = 0;
    let critical = 0;
    let remainingSection = 0;
    // What the words' whole-page scores add, at most.
    let pagePart = 0;
    if (tracked) {
      remainingSection = this.loadWords(page, wordCount);
      // The page's bound less its section part is what spread and whole-page scores add.
      pagePart = Math.max(0, this.bound[page]! - (params.section + params.spread) * remainingSection);
      const rest = params.spread * remainingSection + pagePart;
      live = allBuckets(count) | 0;
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
      if (live === 0) return null;
      this.addWordLevels(slots, wordCount, live);
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
          critical = b;
        }
      }
      if (live === 0) return null;
    }
    if (!forward) this.rewind(groups);
    if (stats) stats.scored++;
    let pageTotal = 0;
    let spread = 0;
    let scored = 0;
    for (let step = 0; step < wordCount; step++) {
      let g = step;
      if (tracked) {
        // Only the words in the bucket with the highest reach can lower it: of them, the one in
        // the fewest buckets (the fewest postings to read), then the one with the largest bound.
        g = -1;
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
        // None left there (the bucket's reach is exact): the words left, in query order.
        if (g < 0) for (g = 0; (scored & (1 << g)) !== 0; g++);
        scored |= 1 << g;
      }
      const pageWord = this.scoreWord(groups[g]!, page, start, count, tracked ? g : -1);
      pageTotal += pageWord;
      spread += this.wordBest;
      if (!tracked) continue;
      this.keptPage[g] = pageWord;
      this.keptBest[g] = this.wordBest;
      const value = wordSectionBound[g]!;
      const base = (slots + g) * LEVEL_PLANES;
      if (value > 0) {
        for (let plane = 0; plane < LEVEL_PLANES; plane++) {
          const unit = (value * (1 << plane)) / LEVELS;
          for (let mask = groupLevels[base + plane]! & live; mask !== 0; mask &= mask - 1)
            bucketRemaining[31 - Math.clz32(mask & -mask)]! -= unit;
        }
      }
      remainingSection -= value;
      // Whole-page scores stay bounded: their bounds are the exact scores rounded up a little.
      const rest = params.spread * (spread + Math.max(0, remainingSection)) + pagePart;
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
          critical = b;
        }
      }
      if (live === 0) {
        this.clearPage();
        return null;
      }
    }
    if (tracked) {
      for (let mask = live; mask !== 0; mask &= mask - 1) bucketRemaining[31 - Math.clz32(mask & -mask)] = 0;
      // Scored in another order: the totals again, summed in query order (the same floating-point
      // sums as scoring in query order gives).
      this.clearPage();
      pageTotal = 0;
      spread = 0;
      for (let g = 0; g < wordCount; g++) {
        pageTotal += this.keptPage[g]!;
        spread += this.keptBest[g]!;
        for (let i = g * this.maxSections, end = i + this.keptCount[g]!; i < end; i++) {
          const local = this.keptLocal[i]!;
          if (this.totalMark[local] === 0) {
            this.totalMark[local] = 1;
            this.totalList[this.totalCount++] = local;
          }
          this.total[local]! += this.keptScore[i]!;
        }
      }
    }
    if (stats) stats.completed++;
    const best = this.bestSection();
    this.clearPage();
    if (best.local < 0) return null;
    return {
      section: start + best.local,
      score: params.section * best.total + params.spread * spread + params.page * pageTotal,
    };
  }

  /**
   * First phase: an upper bound of every matching page's score from the page impacts (one pass
   * over each query term's page list, never its section postings), and per page and tracked word
   * the bound and bucket levels `scorePage` refines it with. Returns how many candidates
   * `this.candidates` holds, in the order they were met.
   */
  private boundPages(groups: WordGroup[]): number {
    const { bound, wordSection, wordPage, candidates, wordPages } = this;
    const weight = this.params.page;
    const sectionWeight = this.params.section + this.params.spread;
    const { groupSection, groupLevels, wordLevels, presence } = this;
    const tracked = groups.length <= TRACKED_GROUPS;
    // A page's slots are next to each other and to the next page's: reading them in page order is sequential.
    const stride = groups.length;
    this.zeroSlots = false;
    if (tracked) {
      for (let g = 0; g < groups.length; g++) {
        let bits = 0;
        for (const cursor of groups[g]!.cursors) {
          if (cursor.bit < TRACKED_CURSORS) bits |= 1 << cursor.bit;
          else this.zeroSlots = true;
        }
        this.groupBits[g] = bits;
      }
    }
    const zeroSlots = tracked && this.zeroSlots;
    let candidateCount = 0;
    for (let g = 0; g < groups.length; g++) {
      const group = groups[g]!;
      if (group.cursors.length === 1) {
        // One term: its impacts are the word's, with no best-of-terms to take first.
        const cursor = group.cursors[0]!;
        const record = this.impacts[cursor.term]!;
        const value = this.impactValues[cursor.term]!;
        const share = cursor.share;
        const sectionShare = sectionWeight * share;
        const pageShare = weight * share;
        const bit = cursor.bit < TRACKED_CURSORS ? 1 << cursor.bit : 0;
        for (let at = 0; at < record.length; at += IMPACT_STRIDE) {
          const page = record[at]!;
          presence[page]! |= bit;
          if (bound[page] === 0) {
            candidates[candidateCount++] = page;
            if (zeroSlots) {
              for (let slot = page * stride, end = slot + stride; slot < end; slot++) groupSection[slot] = 0;
            }
          }
          const sectionImpact = value[at + 1]!;
          bound[page]! += sectionShare * sectionImpact + pageShare * value[at + 2]!;
          if (tracked) {
            const slot = page * stride + g;
            groupSection[slot] = share * sectionImpact;
            for (let plane = 0; plane < LEVEL_PLANES; plane++)
              groupLevels[slot * LEVEL_PLANES + plane] = record[at + 3 + plane]!;
          }
        }
        continue;
      }
      let wordCount = 0;
      for (const cursor of group.cursors) {
        const record = this.impacts[cursor.term]!;
        const value = this.impactValues[cursor.term]!;
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
        if (bound[page] === 0) {
          candidates[candidateCount++] = page;
          // Slots of earlier queries' words: this query's words the page lacks bound it at 0.
          if (zeroSlots) {
            for (let slot = page * stride, end = slot + stride; slot < end; slot++) groupSection[slot] = 0;
          }
        }
        const value = sectionWeight * wordSection[page]! + weight * wordPage[page]!;
        bound[page]! += value;
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
    }
    return candidateCount;
  }

  /**
   * Ranks pages in two phases. Page impacts give each matching page an upper bound of its score.
   * Of the pages with the highest bounds, the `limit` with the highest refined bounds (taken per
   * bucket of sections, see `scorePage`) are scored exactly, which sets a threshold; the next ones
   * by refined bound raise it; then the pages whose bound reaches it are visited in page order,
   * each dropped as soon as its bound (refined as its words are scored) falls below the rising
   * threshold. Every score is computed the same way whatever order pages and words come in, so
   * the results are exactly those of scoring every page.
   */
  run(groups: WordGroup[], limit: number, exhaustive: boolean, stats: RankStats | null = null): RankedSection[] {
    const bound = this.bound;
    const candidateCount = this.boundPages(groups);
    this.stats = stats;
    if (stats) stats.candidates = candidateCount;
    const candidates = this.candidates.subarray(0, candidateCount);
    const top: RankedSection[] = [];
    const offer = (hit: RankedSection | null) => {
      if (!hit) return;
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
    };
    try {
      if (exhaustive || candidateCount <= limit) {
        this.rewind(groups);
        for (const page of [...candidates].sort((a, b) => a - b)) offer(this.scorePage(groups, page, true));
        return top;
      }
      // The pages with the best bounds: of them, the `limit` with the best refined bounds are scored
      // first (their exact scores set the first threshold), then the others, best refined bound
      // first, raise it fast. The rest are visited in page order, where reading each term's
      // postings moves forward instead of searching from the head.
      const tracked = groups.length <= TRACKED_GROUPS;
      const poolSize = limit + POOL_PAGES;
      // A min-heap of the best bounds: most pages fail the one comparison with its least.
      if (this.poolHeap.length < poolSize) this.poolHeap = new Int32Array(poolSize);
      const heap = this.poolHeap;
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
      const pool = Array.from(heap.subarray(0, size));
      // The best refined bounds, found best bound first: a refined bound is at most the bound, so
      // once a bound falls below the refined bounds kept, no page after it gets in.
      pool.sort((a, b) => bound[b]! - bound[a]! || a - b);
      const keep = limit + EAGER_PAGES;
      const ranked: Array<{ page: number; value: number }> = [];
      for (let at = 0; at < pool.length; at++) {
        const page = pool[at]!;
        if (ranked.length === keep && bound[page]! < ranked[keep - 1]!.value) {
          outside = Math.max(outside, bound[page]!);
          break;
        }
        const value = tracked ? this.refinedBound(page, groups.length) : bound[page]!;
        let slot = ranked.length;
        while (
          slot > 0 &&
          (ranked[slot - 1]!.value < value || (ranked[slot - 1]!.value === value && ranked[slot - 1]!.page > page))
        )
          slot--;
        if (slot === keep) {
          outside = Math.max(outside, value);
          continue;
        }
        ranked.splice(slot, 0, { page, value });
        if (ranked.length > keep) outside = Math.max(outside, ranked.pop()!.value);
      }
      // All of the first are scored, so in page order: each list is read forward once.
      const seeds = ranked.slice(0, limit).map((entry) => entry.page);
      seeds.sort((a, b) => a - b);
      this.rewind(groups);
      for (const page of seeds) {
        offer(this.scorePage(groups, page, true));
        bound[page] = Number.NaN; // scored: no comparison keeps it below
      }
      const threshold = () => (top.length === limit ? top[limit - 1]!.score : Number.NEGATIVE_INFINITY);
      for (let at = limit; at < ranked.length; at++) {
        const { page, value } = ranked[at]!;
        // A bound equal to the threshold may still tie it and win on the earlier section. The
        // threshold only rises: below it now, this page and the next stay below it.
        if (value >= threshold()) offer(this.scorePage(groups, page, false, threshold()));
        bound[page] = Number.NaN;
      }
      const stopped = outside < threshold();
      if (!stopped) {
        let lateCount = 0;
        const late = this.wordPages; // free after the first phase
        const rising = threshold();
        // In page order: for many candidates, read off in order (bounds are 0 off the candidates);
        // for a few, collected and sorted.
        if (rising > 0 && candidateCount * 8 > bound.length) {
          for (let page = 0; page < bound.length; page++) if (bound[page]! >= rising) late[lateCount++] = page;
        } else {
          for (const page of candidates) if (bound[page]! >= rising) late[lateCount++] = page;
          late.subarray(0, lateCount).sort();
        }
        const ordered = late.subarray(0, lateCount);
        this.rewind(groups);
        for (const page of ordered) {
          if (bound[page]! >= threshold()) offer(this.scorePage(groups, page, true, threshold()));
        }
      }
      return top;
    } finally {
      for (const page of candidates) {
        bound[page] = 0;
        this.presence[page] = 0;
      }
    }
  }

  /**
   * The index terms one query word stands for with their shares: its own (exact, prefix, typo)
   * and, for a camelCase word, its parts at a reduced share, as alternatives within the word.
   */
  private termsOf(word: QueryWord): Map<number, number> {
    const terms = expand(this.index, word, this.params);
    for (const part of word.parts) {
      const term = this.index.termId.get(part);
      if (term !== undefined && (terms.get(term) ?? 0) < this.params.part) terms.set(term, this.params.part);
    }
    return terms;
  }

  /**
   * Share of a page's title the query has: per query word, its best term's count in the title
   * times its share, summed over words and divided by the title's length (at most 1).
   */
  private titleCoverage(groups: WordGroup[], page: number): number {
    const length = this.index.titleLen[page]!;
    if (length === 0) return 0;
    let covered = 0;
    for (const group of groups) {
      let best = 0;
      for (const cursor of group.cursors) {
        const at = seek(cursor.titleIds, 0, page);
        if (cursor.titleIds[at] !== page) continue;
        const value = cursor.share * cursor.titleTfs[at]!;
        if (value > best) best = value;
      }
      covered += best;
    }
    return Math.min(1, covered / length);
  }

  /**
   * Reorders the hits after the first by their score plus title coverage. The first hit keeps its
   * place, and no later hit scores above it, so scores stay best first.
   */
  promoteTitles(groups: WordGroup[], hits: RankedSection[]): RankedSection[] {
    const weight = this.params.titleCoverage;
    if (weight <= 0 || hits.length < 3) return hits;
    const first = hits[0]!;
    const rest = hits.slice(1).map((hit) => ({
      section: hit.section,
      score: hit.score + weight * this.titleCoverage(groups, this.index.sectionPage[hit.section]!),
    }));
    rest.sort((a, b) => b.score - a.score || a.section - b.section);
    for (const hit of rest) if (hit.score > first.score) hit.score = first.score;
    return [first, ...rest];
  }

  /**
   * Points a hit at its page's first section when every word the searcher wrote is in the page's
   * title and none is in the heading of the section that scored best: a search for "navigation"
   * opens the Navigation page, not its Errors section that repeats the word. Scores and order stay.
   */
  landOnTitledPages(groups: WordGroup[], hits: RankedSection[]): RankedSection[] {
    const words = groups.filter((group) => !group.related);
    if (words.length === 0) return hits;
    const { sectionPage, pageStart } = this.index;
    return hits.map((hit) => {
      const page = sectionPage[hit.section]!;
      const first = pageStart[page]!;
      if (hit.section === first) return hit;
      const inTitle = words.every((group) =>
        group.cursors.some((cursor) => cursor.titleIds[seek(cursor.titleIds, 0, page)] === page),
      );
      if (!inTitle) return hit;
      // The section's own heading: its heading path also holds the headings above it.
      const heading = new Set(tokenize(this.index.sections[hit.section]!.heading).map((token) => token.term));
      const inHeading = words.some((group) =>
        group.cursors.some((cursor) => heading.has(this.index.terms[cursor.term]!)),
      );
      return inHeading ? hit : { section: first, score: hit.score };
    });
  }

  /**
   * Reorders hits by their score plus the semantic match of their page: the cosine between the
   * page's latent vector and the query's (each word's terms weighted by their shares, so one word
   * weighs as one however many forms it matched), times `params.semantic` and the first hit's score.
   */
  semanticRerank(groups: WordGroup[], hits: RankedSection[]): RankedSection[] {
    const model = this.model;
    if (!model || hits.length < 2) return hits;
    const { dims, termVectors, termWeights, pageVectors } = model;
    const query = new Float64Array(dims);
    for (const group of groups) {
      let shares = 0;
      for (const cursor of group.cursors) shares += cursor.share;
      for (const cursor of group.cursors) {
        const weight = (termWeights[cursor.term]! * cursor.share) / shares;
        if (weight === 0) continue;
        const base = cursor.term * dims;
        for (let c = 0; c < dims; c++) query[c]! += weight * termVectors[base + c]!;
      }
    }
    let norm = 0;
    for (let c = 0; c < dims; c++) norm += query[c]! * query[c]!;
    if (norm === 0) return hits;
    const scale = (this.params.semantic * hits[0]!.score) / Math.sqrt(norm);
    const reranked = hits.map((hit) => {
      const base = this.index.sectionPage[hit.section]! * dims;
      let cosine = 0;
      for (let c = 0; c < dims; c++) cosine += query[c]! * pageVectors[base + c]!;
      return { section: hit.section, score: hit.score + scale * Math.max(0, cosine) };
    });
    return reranked.sort((a, b) => b.score - a.score || a.section - b.section);
  }

  /** Turns query words into groups of the index terms they match, with cursors. */
  groupsOf(query: string, matchedTerms: Set<string>): QueryGroups {
    const groups: WordGroup[] = [];
    const words: CoverageWord[] = [];
    // The docs' wording of what a query word says in other words, to cover the word with.
    const standIns = new Map<string, number[]>();
    for (const wording of relatedWordings(query)) {
      const terms = wording.related.map((term) => this.index.termId.get(term)).filter((id) => id !== undefined);
      for (const said of wording.said) standIns.set(said, [...(standIns.get(said) ?? []), ...terms]);
    }
    for (const word of analyzeQuery(query)) {
      const related = this.params.related > 0 ? (standIns.get(word.term) ?? []) : [];
      const cursors: TermCursor[] = [];
      let best = 0;
      for (const [term, share] of this.termsOf(word)) {
        if (!this.occurs(term)) continue;
        matchedTerms.add(this.index.terms[term]!);
        cursors.push(this.cursor(term, share));
        best = Math.max(best, this.idfPage[term]!);
      }
      if (cursors.length === 0) {
        words.push({ weight: this.unknownWeight, group: null, related });
        continue;
      }
      const exact = this.index.termId.get(word.term);
      const weight = exact !== undefined && this.occurs(exact) ? this.idfPage[exact]! : best;
      const group: WordGroup = { cursors, reach: 0, weight };
      if (word.parts.length > 0) {
        group.partCount = word.parts.length;
        group.partTerms = new Set();
        for (const part of word.parts) {
          const term = this.index.termId.get(part);
          if (term !== undefined) group.partTerms.add(term);
        }
      }
      groups.push(group);
      words.push({ weight, group, related });
    }
    if (this.params.related > 0) {
      for (const related of relatedTerms(query)) {
        const term = this.index.termId.get(related);
        if (term === undefined || !this.occurs(term)) continue;
        matchedTerms.add(related);
        groups.push({ cursors: [this.cursor(term, this.params.related)], reach: 0, weight: 0, related: true });
      }
    }
    // Words that can add the most first: a page that cannot make the results is then found out
    // after its first words (see `scorePage`).
    for (const group of groups) {
      for (const cursor of group.cursors)
        group.reach = Math.max(group.reach, cursor.share * this.termMax[cursor.term]!);
    }
    const ordered = groups
      .map((group, at) => ({ group, at }))
      .sort((a, b) => b.group.reach - a.group.reach || a.at - b.at)
      .map((entry) => entry.group);
    let bit = 0;
    for (const group of ordered) for (const cursor of group.cursors) cursor.bit = bit++;
    return { groups: ordered, words };
  }

  /** The page a section belongs to. */
  pageOf(section: number): number {
    return this.index.sectionPage[section]!;
  }

  /** The index of a page's first section. */
  firstSection(page: number): number {
    return this.index.pageStart[page]!;
  }

  /** Whether a term occurs on a page (in its title, description or any section), from its page impacts. */
  private onPage(term: number, page: number): boolean {
    const record = this.impacts[term]!;
    let low = 0;
    let high = record.length / IMPACT_STRIDE;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const at = record[mid * IMPACT_STRIDE]!;
      if (at === page) return true;
      if (at < page) low = mid + 1;
      else high = mid;
    }
    return false;
  }

  /**
   * Share of the query a page covers (0 to 1): per word the searcher wrote, its weight when the page
   * has its term, a reduced share of it for a typo, prefix or related-wording match, and for a
   * camelCase word matched by parts, the part share in proportion to the parts the page has; over
   * the weight of every word, the words no page has included.
   */
  coverage(query: QueryGroups, page: number): number {
    const covered = this.wordCoverage(query, page);
    return this.share(query, covered);
  }

  /** Covered weights over the query's whole weight (0 to 1); a query of no weight is covered. */
  share(query: QueryGroups, covered: number[]): number {
    let total = 0;
    let sum = 0;
    query.words.forEach((word, at) => {
      total += word.weight;
      sum += covered[at]!;
    });
    return total <= 0 ? 1 : Math.min(1, sum / total);
  }

  /** What a page covers of each word of the query (see {@link coverage}), in query order. */
  wordCoverage(query: QueryGroups, page: number): number[] {
    return query.words.map((word) => {
      let best = 0;
      for (const term of word.related) {
        if (this.onPage(term, page)) {
          best = this.params.related * word.weight;
          break;
        }
      }
      const group = word.group;
      if (group) {
        let parts = 0;
        for (const cursor of group.cursors) {
          if (!this.onPage(cursor.term, page)) continue;
          // A part alone stands for the word in proportion: the share of its parts the page has.
          if (group.partTerms?.has(cursor.term) && cursor.share <= this.params.part) {
            parts++;
            continue;
          }
          const value = Math.min(word.weight, cursor.share * this.idfPage[cursor.term]!);
          if (value > best) best = value;
        }
        if (parts > 0 && group.partCount) {
          best = Math.max(best, (this.params.part * word.weight * parts) / group.partCount);
        }
      }
      return best;
    });
  }

  /**
   * Every section of one page with its total for the query (the words' best term scores summed, as
   * `scorePage` sums them) and whether the section has a query word itself, not only through the
   * page's title or description that count in each of its sections.
   */
  sectionTotals(groups: WordGroup[], page: number): Array<{ local: number; total: number; own: boolean }> {
    const { acc, touched } = this;
    const k1 = this.params.k1;
    const start = this.index.pageStart[page]!;
    const count = this.index.pageStart[page + 1]! - start;
    const totals = new Float64Array(count);
    const own = new Uint8Array(count);
    const word = new Float64Array(count);
    this.rewind(groups);
    for (const group of groups) {
      word.fill(0);
      for (const cursor of group.cursors) {
        this.accumulate(cursor, page, start, count);
        const whole = this.whole;
        const sectionIdf = this.idfSection[cursor.term]! * cursor.share;
        for (let i = 0; i < this.touchedCount; i++) {
          const local = touched[i]!;
          if (!group.related) own[local] = 1;
        }
        for (let local = 0; local < count; local++) {
          const tf = acc[local]! + whole;
          if (tf === 0) continue;
          const value = (sectionIdf * tf) / (k1 + tf);
          if (value > word[local]!) word[local] = value;
        }
        for (let i = 0; i < this.touchedCount; i++) acc[touched[i]!] = 0;
      }
      for (let local = 0; local < count; local++) totals[local]! += word[local]!;
    }
    this.rewind(groups);
    return Array.from(totals, (total, local) => ({ local, total, own: own[local] === 1 }));
  }
}

const rankers = new WeakMap<EngineIndex, WeakMap<RankingParams, Ranker>>();

function rankerFor(index: EngineIndex, params: RankingParams): Ranker {
  let byParams = rankers.get(index);
  if (!byParams) {
    byParams = new WeakMap();
    rankers.set(index, byParams);
  }
  let ranker = byParams.get(params);
  if (!ranker) {
    ranker = new Ranker(index, params);
    byParams.set(params, ranker);
  }
  return ranker;
}

/**
 * Computes the per-term statistics ranking needs (one pass over the postings) ahead of the first
 * query, so that query does not pay for it. Optional: `rankSections` prepares on first use.
 */
export function prepareRanking(index: EngineIndex, params: RankingParams = DEFAULT_RANKING): void {
  rankerFor(index, params);
}

/**
 * Ranks the sections of an index for a query with BM25F over page title, heading path, page
 * description and section body, plus a share of the whole page's BM25 score so a section of the
 * page that is about the question wins over a stray mention. Returns the best section of each of
 * the best `limit` pages; after the first, pages whose title the query has move up (see
 * `RankingParams.titleCoverage`), then the first 20 are reordered by their semantic match (see
 * `RankingParams.semantic`).
 */
export function rankSections(
  index: EngineIndex,
  query: string,
  limit: number,
  params: RankingParams = DEFAULT_RANKING,
  options: RankOptions = {},
): RankOutcome {
  const matchedTerms = new Set<string>();
  if (index.sections.length === 0 || limit < 1) return { hits: [], matchedTerms };
  const ranker = rankerFor(index, params);
  const words = ranker.groupsOf(query, matchedTerms);
  const { groups } = words;
  if (groups.length === 0) return { hits: [], matchedTerms };
  let pool = limit;
  if (params.titleCoverage > 0) pool = Math.max(pool, TITLE_COVERAGE_POOL);
  if (params.semantic > 0) pool = Math.max(pool, SEMANTIC_POOL);
  let hits = ranker.run(groups, pool, options.exhaustive === true, options.stats ?? null);
  // No-match threshold: a query whose best page covers too little of it has no results, and pages
  // covering too little of a real one are left out, however they score.
  if (params.minCoverage > 0 || params.minHitCoverage > 0) {
    const covered = hits.map((hit) => ranker.coverage(words, index.sectionPage[hit.section]!));
    if (Math.max(0, ...covered) < params.minCoverage) return { hits: [], matchedTerms };
    hits = hits.filter((_, at) => covered[at]! >= params.minHitCoverage);
  }
  const ranked = ranker.semanticRerank(groups, ranker.promoteTitles(groups, hits)).slice(0, limit);
  const landed = ranker.landOnTitledPages(groups, ranked);
  const sections = options.sections ?? 1;
  if (sections <= 1) return { hits: landed, matchedTerms };
  return { hits: landed.map((hit) => withMoreSections(ranker, groups, hit, sections, params)), matchedTerms };
}

/**
 * A hit with up to `sections - 1` more sections of its page: those with a query word of their own
 * scoring at least {@link MORE_SECTION_SHARE} of the page's best section, best first. Each scores
 * the hit's score less what its section part falls short of the best section's.
 */
function withMoreSections(
  ranker: Ranker,
  groups: WordGroup[],
  hit: RankedSection,
  sections: number,
  params: RankingParams,
): RankedSection {
  const page = ranker.pageOf(hit.section);
  const start = ranker.firstSection(page);
  const totals = ranker.sectionTotals(groups, page);
  const best = totals.reduce((most, entry) => Math.max(most, entry.total), 0);
  if (best <= 0) return hit;
  const more = totals
    .filter((entry) => entry.own && start + entry.local !== hit.section && entry.total >= MORE_SECTION_SHARE * best)
    .sort((a, b) => b.total - a.total || a.local - b.local)
    .slice(0, sections - 1)
    .map((entry) => ({
      section: start + entry.local,
      score: Math.max(0, hit.score - params.section * (best - entry.total)),
    }));
  return more.length > 0 ? { ...hit, more } : hit;
}
