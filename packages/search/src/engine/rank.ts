import { MAX_SEARCH_LIMIT } from '@kit/core';
import { analyzeQuery, type QueryWord, tokenize } from '../text/analyze.js';
import { relatedTerms } from '../text/related.js';
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
};

/** One ranked section: the best of its page. */
export interface RankedSection {
  section: number;
  score: number;
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
/** Pages scored in bound order after the first `limit` before switching to page order. */
const EAGER_PAGES = 32;
/**
 * Upper bounds are inflated by this much so that rounding (sums taken in another order than the
 * scores they bound) can never prune a page that would have made the results.
 */
const BOUND_SLACK = 1 + 1e-9;
/**
 * Query words whose per-page bounds are kept for stopping a page's exact scoring early, and
 * cursors whose presence on a page is remembered so that scoring skips the absent ones; a query
 * with more still ranks the same, only without these shortcuts for the words past it.
 */
const TRACKED_GROUPS = 32;
const TRACKED_CURSORS = 32;

/** Where one term's four posting lists stand while pages are visited in order. */
interface TermCursor {
  term: number;
  share: number;
  /** Bit of the cursor in a page's presence mask (`TRACKED_CURSORS` or more: not tracked). */
  bit: number;
  bodyIds: Uint32Array;
  bodyTfs: Uint16Array;
  bodyAt: number;
  headIds: Uint32Array;
  headTfs: Uint16Array;
  headAt: number;
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
   * Page impacts: per term, the pages it occurs in (ascending) with upper bounds of what it adds
   * to that page at share 1: its best section score and its whole-page score (rounded up to
   * 32-bit floats, which keeps them at half the size of exact values).
   */
  private readonly impactPages: Uint32Array[];
  private readonly impactSection: Float32Array[];
  private readonly impactPage: Float32Array[];
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
  /** Best section total so far on the current page. */
  private runningBest = 0;
  /** Per page and tracked word: the word's bound on the page (`TRACKED_GROUPS` slots a page). */
  private readonly groupBound: Float64Array;
  /** Per page: which tracked cursors have postings on it (filled in by `boundPages`). */
  private readonly presence: Uint32Array;
  private readonly word: Float64Array;
  private readonly wordMark: Uint8Array;
  private readonly wordList: Int32Array;
  private wordCount = 0;
  private readonly total: Float64Array;
  private readonly totalMark: Uint8Array;
  private readonly totalList: Int32Array;
  private totalCount = 0;
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
    this.groupBound = new Float64Array(pageCount * TRACKED_GROUPS);
    this.presence = new Uint32Array(pageCount);
    this.model = params.semantic > 0 ? semanticModelOf(index) : null;

    const termCount = index.terms.length;
    this.idfSection = new Float64Array(termCount);
    this.idfPage = new Float64Array(termCount);
    this.impactPages = new Array(termCount);
    this.impactSection = new Array(termCount);
    this.impactPage = new Array(termCount);
    this.termMax = new Float64Array(termCount);
    const sectionWeight = params.section + params.spread;
    const k1 = params.k1;
    // A term meets each page at most once, so page-sized buffers hold any term's pages.
    const seenPages = new Uint32Array(pageCount);
    const seenSectionTf = new Float64Array(pageCount);
    const seenPageTf = new Float64Array(pageCount);
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
          if (this.acc[local]! > best) best = this.acc[local]!;
          this.acc[local] = 0;
        }
        seenPages[pages] = page;
        seenSectionTf[pages] = best + this.whole;
        seenPageTf[pages] = this.pageTf;
        pages++;
      }
      this.impactPages[term] = seenPages.slice(0, pages);
      const sectionImpact = new Float32Array(pages);
      const pageImpact = new Float32Array(pages);
      if (pages > 0) {
        const sectionIdf = idf(sectionCount, sections);
        const pageIdf = idf(pageCount, pages);
        this.idfSection[term] = sectionIdf;
        this.idfPage[term] = pageIdf;
        for (let i = 0; i < pages; i++) {
          const sectionTf = seenSectionTf[i]!;
          const pageTf = seenPageTf[i]!;
          sectionImpact[i] = roundUp((sectionIdf * sectionTf) / (k1 + sectionTf));
          pageImpact[i] = roundUp((pageIdf * pageTf) / (k1 + pageTf));
        }
      }
      this.impactSection[term] = sectionImpact;
      this.impactPage[term] = pageImpact;
      let most = 0;
      for (let i = 0; i < pages; i++) {
        const value = sectionWeight * sectionImpact[i]! + params.page * pageImpact[i]!;
        if (value > most) most = value;
      }
      this.termMax[term] = most;
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
      headIds: head.ids[term] ?? EMPTY_IDS,
      headTfs: head.tfs[term] ?? EMPTY_TFS,
      headAt: 0,
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
    let at = seek(ids, cursor.bodyAt, start);
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
    at = seek(ids, cursor.headAt, start);
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
  private scoreWord(group: WordGroup, page: number, start: number, count: number): number {
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
    let wordBest = 0;
    for (let i = 0; i < this.wordCount; i++) {
      const local = this.wordList[i]!;
      if (this.word[local]! > wordBest) wordBest = this.word[local]!;
      if (this.totalMark[local] === 0) {
        this.totalMark[local] = 1;
        this.totalList[this.totalCount++] = local;
      }
      this.total[local]! += this.word[local]!;
      if (this.total[local]! > this.runningBest) this.runningBest = this.total[local]!;
      this.word[local] = 0;
      this.wordMark[local] = 0;
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
    this.runningBest = 0;
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
   * Exact score of one page: its best section (local index, or -1) and score. Returns null early,
   * without finishing, once what the words scored so far plus the bounds of the words left cannot
   * reach `threshold` (the page could not make the results).
   */
  private scorePage(
    groups: WordGroup[],
    page: number,
    forward: boolean,
    threshold = Number.NEGATIVE_INFINITY,
  ): RankedSection | null {
    if (!forward) this.rewind(groups);
    const { params } = this;
    const start = this.index.pageStart[page]!;
    const count = this.index.pageStart[page + 1]! - start;
    const tracked = groups.length <= TRACKED_GROUPS && threshold > Number.NEGATIVE_INFINITY;
    const slots = page * TRACKED_GROUPS;
    let remaining = 0;
    if (tracked) for (let g = 0; g < groups.length; g++) remaining += this.groupBound[slots + g]!;
    let pageTotal = 0;
    let spread = 0;
    for (let g = 0; g < groups.length; g++) {
      pageTotal += this.scoreWord(groups[g]!, page, start, count);
      spread += this.wordBest;
      if (!tracked) continue;
      remaining -= this.groupBound[slots + g]!;
      const reach =
        params.section * this.runningBest + params.spread * spread + params.page * pageTotal + Math.max(0, remaining);
      if (reach * BOUND_SLACK < threshold) {
        this.clearPage();
        return null;
      }
    }
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
   * over each query term's page list, never its section postings). Returns how many candidates
   * `this.candidates` holds, in the order they were met.
   */
  private boundPages(groups: WordGroup[]): number {
    const { bound, wordSection, wordPage, candidates, wordPages } = this;
    const weight = this.params.page;
    const sectionWeight = this.params.section + this.params.spread;
    const { groupBound, presence } = this;
    const tracked = groups.length <= TRACKED_GROUPS;
    let candidateCount = 0;
    for (let g = 0; g < groups.length; g++) {
      const group = groups[g]!;
      if (group.cursors.length === 1) {
        // One term: its impacts are the word's, with no best-of-terms to take first.
        const cursor = group.cursors[0]!;
        const pages = this.impactPages[cursor.term]!;
        const sectionImpact = this.impactSection[cursor.term]!;
        const pageImpact = this.impactPage[cursor.term]!;
        const sectionShare = sectionWeight * cursor.share;
        const pageShare = weight * cursor.share;
        const bit = cursor.bit < TRACKED_CURSORS ? 1 << cursor.bit : 0;
        for (let i = 0; i < pages.length; i++) {
          const page = pages[i]!;
          presence[page]! |= bit;
          if (bound[page] === 0) {
            candidates[candidateCount++] = page;
            if (tracked) {
              for (let slot = page * TRACKED_GROUPS, end = slot + groups.length; slot < end; slot++)
                groupBound[slot] = 0;
            }
          }
          const value = sectionShare * sectionImpact[i]! + pageShare * pageImpact[i]!;
          bound[page]! += value;
          if (tracked) groupBound[page * TRACKED_GROUPS + g] = value;
        }
        continue;
      }
      let wordCount = 0;
      for (const cursor of group.cursors) {
        const pages = this.impactPages[cursor.term]!;
        const sectionImpact = this.impactSection[cursor.term]!;
        const pageImpact = this.impactPage[cursor.term]!;
        const share = cursor.share;
        const bit = cursor.bit < TRACKED_CURSORS ? 1 << cursor.bit : 0;
        for (let i = 0; i < pages.length; i++) {
          const page = pages[i]!;
          presence[page]! |= bit;
          if (wordSection[page] === 0 && wordPage[page] === 0) wordPages[wordCount++] = page;
          const section = share * sectionImpact[i]!;
          const whole = share * pageImpact[i]!;
          if (section > wordSection[page]!) wordSection[page] = section;
          if (whole > wordPage[page]!) wordPage[page] = whole;
        }
      }
      for (let i = 0; i < wordCount; i++) {
        const page = wordPages[i]!;
        if (bound[page] === 0) {
          candidates[candidateCount++] = page;
          // Slots of earlier queries' words: this query's words the page lacks bound it at 0.
          if (tracked) {
            for (let slot = page * TRACKED_GROUPS, end = slot + groups.length; slot < end; slot++) groupBound[slot] = 0;
          }
        }
        const value = sectionWeight * wordSection[page]! + weight * wordPage[page]!;
        bound[page]! += value;
        if (tracked) groupBound[page * TRACKED_GROUPS + g] = value;
        wordSection[page] = 0;
        wordPage[page] = 0;
      }
    }
    return candidateCount;
  }

  /**
   * Ranks pages in two phases. Page impacts give each matching page an upper bound of its score;
   * the `limit` pages with the highest bounds are scored exactly, which sets a threshold, and
   * only pages whose bound reaches it are scored after them, best bound first, stopping at the
   * first bound below the (rising) threshold. Every score is computed the same way whatever
   * order pages come in, so the results are exactly those of scoring every page.
   */
  run(groups: WordGroup[], limit: number, exhaustive: boolean): RankedSection[] {
    const bound = this.bound;
    const candidateCount = this.boundPages(groups);
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
      // The `limit` best bounds first: their exact scores set the first threshold.
      const seeds: number[] = [];
      for (const page of candidates) {
        if (seeds.length === limit && bound[page]! <= bound[seeds[limit - 1]!]!) continue;
        let at = seeds.length;
        while (at > 0 && bound[seeds[at - 1]!]! < bound[page]!) at--;
        seeds.splice(at, 0, page);
        if (seeds.length > limit) seeds.pop();
      }
      // All of them are scored, so in page order: each list is read forward once.
      seeds.sort((a, b) => a - b);
      this.rewind(groups);
      for (const page of seeds) {
        offer(this.scorePage(groups, page, true));
        bound[page] = Number.NaN; // scored: no comparison keeps it below
      }
      const threshold = () => (top.length === limit ? top[limit - 1]!.score : Number.NEGATIVE_INFINITY);
      const floor = threshold();
      // The next best bounds, in bound order, raise the threshold fast; the rest are visited in page
      // order, where reading each term's postings moves forward instead of searching from the head.
      const eager: number[] = [];
      for (const page of candidates) {
        const value = bound[page]!;
        // NaN (scored seeds) fails every comparison.
        if (!(value >= floor)) continue;
        if (eager.length === EAGER_PAGES) {
          const last = eager[EAGER_PAGES - 1]!;
          if (value < bound[last]! || (value === bound[last]! && page > last)) continue;
        }
        let at = eager.length;
        while (at > 0) {
          const before = eager[at - 1]!;
          if (bound[before]! > value || (bound[before]! === value && before < page)) break;
          at--;
        }
        eager.splice(at, 0, page);
        if (eager.length > EAGER_PAGES) eager.pop();
      }
      let stopped = false;
      for (const page of eager) {
        // A bound equal to the threshold may still tie it and win on the earlier section.
        if (bound[page]! < threshold()) {
          stopped = true;
          break;
        }
        offer(this.scorePage(groups, page, false, threshold()));
        bound[page] = Number.NaN;
      }
      if (!stopped) {
        let lateCount = 0;
        const late = this.wordPages; // free after the first phase
        const rising = threshold();
        for (const page of candidates) if (bound[page]! >= rising) late[lateCount++] = page;
        const ordered = late.subarray(0, lateCount).sort();
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
  groupsOf(query: string, matchedTerms: Set<string>): WordGroup[] {
    const groups: WordGroup[] = [];
    for (const word of analyzeQuery(query)) {
      const cursors: TermCursor[] = [];
      for (const [term, share] of this.termsOf(word)) {
        if (!this.occurs(term)) continue;
        matchedTerms.add(this.index.terms[term]!);
        cursors.push(this.cursor(term, share));
      }
      if (cursors.length > 0) groups.push({ cursors, reach: 0 });
    }
    if (this.params.related > 0) {
      for (const related of relatedTerms(query)) {
        const term = this.index.termId.get(related);
        if (term === undefined || !this.occurs(term)) continue;
        matchedTerms.add(related);
        groups.push({ cursors: [this.cursor(term, this.params.related)], reach: 0, related: true });
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
    return ordered;
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
  const groups = ranker.groupsOf(query, matchedTerms);
  if (groups.length === 0) return { hits: [], matchedTerms };
  let pool = limit;
  if (params.titleCoverage > 0) pool = Math.max(pool, TITLE_COVERAGE_POOL);
  if (params.semantic > 0) pool = Math.max(pool, SEMANTIC_POOL);
  const hits = ranker.run(groups, pool, options.exhaustive === true);
  const ranked = ranker.semanticRerank(groups, ranker.promoteTitles(groups, hits)).slice(0, limit);
  return { hits: ranker.landOnTitledPages(groups, ranked), matchedTerms };
}
