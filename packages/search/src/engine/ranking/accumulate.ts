import type { EngineIndex } from '../types.js';
import type { RankingParams } from './params.js';
import { SKIP_AHEAD, seek } from './postings.js';
import type { TermCursor } from './types.js';

/**
 * Field weight over length normalization, per section (body, heading path) and per page (title,
 * description): what one occurrence adds, computed once per index instead of per posting; and
 * each page's whole length normalization.
 */
export interface FieldUnits {
  bodyWeight: number;
  headWeight: number;
  bodyUnit: Float64Array;
  headUnit: Float64Array;
  titleUnit: Float64Array;
  descUnit: Float64Array;
  pageNorm: Float64Array;
}

/** The {@link FieldUnits} of an index under one set of weights. */
export function fieldUnitsOf(index: EngineIndex, params: RankingParams): FieldUnits {
  const pageCount = index.pages.length;
  const sectionCount = index.sections.length;
  const mean = (values: Uint32Array) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0) || 1;
  const avg = {
    body: mean(index.bodyLen),
    head: mean(index.headLen),
    title: mean(index.titleLen),
    desc: mean(index.descLen),
  };
  const pageLen = new Float64Array(pageCount);
  for (let s = 0; s < sectionCount; s++) pageLen[index.sectionPage[s]!]! += index.bodyLen[s]! + index.headLen[s]!;
  const avgPage = pageCount ? pageLen.reduce((a, b) => a + b, 0) / pageCount || 1 : 1;
  return {
    bodyWeight: params.body,
    headWeight: params.head,
    pageNorm: pageLen.map((length) => 1 - params.bBody + (params.bBody * length) / avgPage),
    bodyUnit: Float64Array.from(
      index.bodyLen,
      (length) => params.body / (1 - params.bBody + (params.bBody * length) / avg.body),
    ),
    headUnit: Float64Array.from(
      index.headLen,
      (length) => params.head / (1 - params.bHead + (params.bHead * length) / avg.head),
    ),
    titleUnit: Float64Array.from(
      index.titleLen,
      (length) => params.title / (1 - params.bTitle + (params.bTitle * length) / avg.title),
    ),
    descUnit: Float64Array.from(
      index.descLen,
      (length) => params.desc / (1 - params.bDesc + (params.bDesc * length) / avg.desc),
    ),
  };
}

/**
 * Reads one term's postings on one page at a time into arrays sized to the largest page, so that
 * reading allocates nothing. After `read`: field-weighted, length-normalized counts per section in
 * `acc` (the sections listed in `touched`, which the caller sets back to 0), what the page's title
 * and description add to each section in `whole`, and the page's own count in `pageTf`.
 */
export class SectionAccumulator {
  readonly acc: Float64Array;
  readonly touched: Int32Array;
  touchedCount = 0;
  whole = 0;
  pageTf = 0;

  constructor(
    private readonly units: FieldUnits,
    maxSections: number,
  ) {
    this.acc = new Float64Array(maxSections);
    this.touched = new Int32Array(maxSections);
  }

  /** Reads the cursor's postings inside `page` (sections `start` to `start + count`), moving it past them. */
  read(cursor: TermCursor, page: number, start: number, count: number): void {
    const { units, acc, touched } = this;
    const { bodyUnit, headUnit, bodyWeight, headWeight } = units;
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
      raw += bodyWeight * tf;
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
      raw += headWeight * tf;
    }
    cursor.headAt = at;
    this.touchedCount = touchedCount;
    // The whole page's count: raw counts of all its sections, normalized by the page's length.
    let pageTf = raw > 0 ? raw / units.pageNorm[page]! : 0;
    let whole = 0;
    at = seek(cursor.titleIds, cursor.titleAt, page);
    if (at < cursor.titleIds.length && cursor.titleIds[at] === page) {
      whole += units.titleUnit[page]! * cursor.titleTfs[at]!;
      at++;
    }
    cursor.titleAt = at;
    at = seek(cursor.descIds, cursor.descAt, page);
    if (at < cursor.descIds.length && cursor.descIds[at] === page) {
      whole += units.descUnit[page]! * cursor.descTfs[at]!;
      at++;
    }
    cursor.descAt = at;
    pageTf += whole;
    this.whole = whole;
    this.pageTf = pageTf;
  }
}
