import type { EngineIndex } from '../types.js';
import { type FieldUnits, SectionAccumulator } from './accumulate.js';
import { BOUND_SLACK, bucketOf, LEVEL_PLANES, LEVELS, SECTION_BUCKETS } from './layout.js';
import type { RankingParams } from './params.js';
import { NO_PAGE, nextPage, openCursor, type SkipTables } from './postings.js';

/** 32-bit words of a page impact record (see {@link TermImpacts.impacts}). */
export const IMPACT_STRIDE = 3 + LEVEL_PLANES;

/** A 32-bit float at least `value` (plus slack for the sums it is later part of). */
function roundUp(value: number): number {
  return Math.fround(value * BOUND_SLACK * (1 + 2 ** -20));
}

/** BM25's inverse document frequency of a term on `df` of `total` documents. */
export function idf(total: number, df: number): number {
  return Math.log(1 + (total - df + 0.5) / (df + 0.5));
}

/** Per-term statistics of an index under one set of weights, computed in one pass over the postings. */
export interface TermImpacts {
  idfSection: Float64Array;
  idfPage: Float64Array;
  /**
   * Page impacts: per term, a record (`IMPACT_STRIDE` 32-bit words) for each page it occurs in,
   * ascending: the page; upper bounds of what the term adds to it at share 1, its best section
   * score and its whole-page score (rounded up to 32-bit floats, half the size of exact values,
   * read through `impactValues`); and the level of its best section score in each of the page's
   * section buckets (see `bucketOf`), one mask a binary digit. Every bucket has a level when the
   * page's title or description has the term, since those count in every section.
   */
  impacts: Uint32Array[];
  impactValues: Float32Array[];
  /** Per term: the most its impacts add to any page's bound at share 1. */
  termMax: Float64Array;
}

/**
 * What one term's pass over its postings found, page by page, before its IDFs are known. A term
 * meets each page at most once, so page-sized buffers hold any term's pages.
 */
class TermScan {
  readonly pages: Uint32Array;
  readonly sectionTf: Float64Array;
  readonly pageTf: Float64Array;
  readonly levels: Uint32Array;
  private readonly bucketTf = new Float64Array(SECTION_BUCKETS);
  private readonly reader: SectionAccumulator;
  /** After `scan`: pages and sections the term occurs in (a page's title or description counts in all its sections). */
  pageCount = 0;
  sectionCount = 0;

  constructor(
    private readonly index: EngineIndex,
    private readonly skips: SkipTables,
    private readonly k1: number,
    units: FieldUnits,
    maxSections: number,
  ) {
    const pageCount = index.pages.length;
    this.pages = new Uint32Array(pageCount);
    this.sectionTf = new Float64Array(pageCount);
    this.pageTf = new Float64Array(pageCount);
    this.levels = new Uint32Array(pageCount * LEVEL_PLANES);
    this.reader = new SectionAccumulator(units, maxSections);
  }

  /** Reads every posting of `term`: its best section count, page count and bucket levels per page. */
  scan(term: number): void {
    const { index, reader, bucketTf, k1 } = this;
    const { acc, touched } = reader;
    const cursor = openCursor(index, this.skips, term, 1);
    let sections = 0;
    let pages = 0;
    for (let page = nextPage(index.sectionPage, cursor); page !== NO_PAGE; page = nextPage(index.sectionPage, cursor)) {
      const start = index.pageStart[page]!;
      const count = index.pageStart[page + 1]! - start;
      reader.read(cursor, page, start, count);
      sections += reader.whole > 0 ? count : reader.touchedCount;
      let best = 0;
      for (let i = 0; i < reader.touchedCount; i++) {
        const local = touched[i]!;
        const tf = acc[local]!;
        if (tf > best) best = tf;
        const bucket = bucketOf(local, count);
        if (tf > bucketTf[bucket]!) bucketTf[bucket] = tf;
        acc[local] = 0;
      }
      // Score is idf * tf / (k1 + tf): a bucket's share of the page's best does without the idf.
      const top = best + reader.whole;
      const topShare = top / (k1 + top);
      for (let b = 0, end = Math.min(count, SECTION_BUCKETS); b < end; b++) {
        const tf = bucketTf[b]! + reader.whole;
        bucketTf[b] = 0;
        if (tf === 0) continue;
        // Rounded up (the bound must hold); impacts are rounded up far more than the 1e-9 taken off.
        const level = Math.min(LEVELS, Math.max(1, Math.ceil((LEVELS * (tf / (k1 + tf))) / topShare - 1e-9)));
        for (let plane = 0; plane < LEVEL_PLANES; plane++)
          if ((level & (1 << plane)) !== 0) this.levels[pages * LEVEL_PLANES + plane]! |= 1 << b;
      }
      this.pages[pages] = page;
      this.sectionTf[pages] = best + reader.whole;
      this.pageTf[pages] = reader.pageTf;
      pages++;
    }
    this.pageCount = pages;
    this.sectionCount = sections;
  }
}

/** Computes the {@link TermImpacts} of every term of an index (one pass over its postings). */
export function termImpactsOf(
  index: EngineIndex,
  params: RankingParams,
  units: FieldUnits,
  skips: SkipTables,
  maxSections: number,
): TermImpacts {
  const pageCount = index.pages.length;
  const sectionCount = index.sections.length;
  const termCount = index.terms.length;
  const result: TermImpacts = {
    idfSection: new Float64Array(termCount),
    idfPage: new Float64Array(termCount),
    impacts: new Array(termCount),
    impactValues: new Array(termCount),
    termMax: new Float64Array(termCount),
  };
  const sectionWeight = params.section + params.spread;
  const k1 = params.k1;
  const scan = new TermScan(index, skips, k1, units, maxSections);
  for (let term = 0; term < termCount; term++) {
    scan.scan(term);
    const pages = scan.pageCount;
    // One record a page, read in one pass by `boundPages`: page, impacts, level masks.
    const buffer = new ArrayBuffer(pages * IMPACT_STRIDE * 4);
    const record = new Uint32Array(buffer);
    const value = new Float32Array(buffer);
    for (let i = 0; i < pages; i++) {
      record[i * IMPACT_STRIDE] = scan.pages[i]!;
      for (let plane = 0; plane < LEVEL_PLANES; plane++)
        record[i * IMPACT_STRIDE + 3 + plane] = scan.levels[i * LEVEL_PLANES + plane]!;
    }
    scan.levels.fill(0, 0, pages * LEVEL_PLANES);
    result.impacts[term] = record;
    result.impactValues[term] = value;
    let most = 0;
    if (pages > 0) {
      const sectionIdf = idf(sectionCount, scan.sectionCount);
      const pageIdf = idf(pageCount, pages);
      result.idfSection[term] = sectionIdf;
      result.idfPage[term] = pageIdf;
      for (let i = 0; i < pages; i++) {
        const sectionTf = scan.sectionTf[i]!;
        const pageTf = scan.pageTf[i]!;
        const sectionImpact = roundUp((sectionIdf * sectionTf) / (k1 + sectionTf));
        const pageImpact = roundUp((pageIdf * pageTf) / (k1 + pageTf));
        value[i * IMPACT_STRIDE + 1] = sectionImpact;
        value[i * IMPACT_STRIDE + 2] = pageImpact;
        const reach = sectionWeight * sectionImpact + params.page * pageImpact;
        if (reach > most) most = reach;
      }
    }
    result.termMax[term] = most;
  }
  return result;
}

/** Whether a term occurs on a page (in its title, description or any section), from its page impacts. */
export function onPage(impacts: TermImpacts, term: number, page: number): boolean {
  const record = impacts.impacts[term]!;
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
