import { analyzeQuery, type QueryWord } from '../text/analyze.js';
import type { EngineIndex, FieldPostings } from './types.js';

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
  /** Score share of a prefix and of a one- and two-edit typo match. */
  prefix: number;
  typo1: number;
  typo2: number;
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
  prefix: 0.5,
  typo1: 0.7,
  typo2: 0.45,
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

interface Scratch {
  acc: Float64Array;
  word: Float64Array;
  total: Float64Array;
  pageAcc: Float64Array;
  pageWord: Float64Array;
  pageTotal: Float64Array;
  avg: { body: number; head: number; title: number; desc: number; page: number };
  pageLen: Float64Array;
}

const scratchOf = new WeakMap<EngineIndex, Scratch>();

function scratchFor(index: EngineIndex): Scratch {
  let scratch = scratchOf.get(index);
  if (scratch) return scratch;
  const sectionCount = index.sections.length;
  const pageCount = index.pages.length;
  const mean = (values: Uint32Array) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0) || 1;
  const pageLen = new Float64Array(pageCount);
  for (let s = 0; s < sectionCount; s++) pageLen[index.sectionPage[s]!]! += index.bodyLen[s]! + index.headLen[s]!;
  scratch = {
    acc: new Float64Array(sectionCount),
    word: new Float64Array(sectionCount),
    total: new Float64Array(sectionCount),
    pageAcc: new Float64Array(pageCount),
    pageWord: new Float64Array(pageCount),
    pageTotal: new Float64Array(pageCount),
    avg: {
      body: mean(index.bodyLen),
      head: mean(index.headLen),
      title: mean(index.titleLen),
      desc: mean(index.descLen),
      page: pageCount ? pageLen.reduce((a, b) => a + b, 0) / pageCount || 1 : 1,
    },
    pageLen,
  };
  scratchOf.set(index, scratch);
  return scratch;
}

/** Lower bound of `prefix` in the sorted `list`. */
function lowerBound(list: string[], prefix: string): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (list[mid]! < prefix) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Optimal-string-alignment distance, or `max + 1` as soon as it must exceed `max`. */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const width = b.length + 1;
  let previous2 = new Array<number>(width).fill(0);
  let previous = Array.from({ length: width }, (_, j) => j);
  let current = new Array<number>(width).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, previous2[j - 2]! + 1);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    [previous2, previous, current] = [previous, current, previous2];
  }
  return previous[b.length]!;
}

const MAX_EXPANSIONS = 16;

/** The index terms one query word stands for, each with the share of score a match earns. */
function expand(index: EngineIndex, word: QueryWord, params: RankingParams): Map<number, number> {
  const found = new Map<number, number>();
  const exact = index.termId.get(word.term);
  if (exact !== undefined) found.set(exact, 1);
  const offer = (term: number, weight: number) => {
    if ((found.get(term) ?? 0) < weight) found.set(term, weight);
  };
  if ((word.partial || exact === undefined) && word.surface.length >= 3) {
    let added = 0;
    for (let i = lowerBound(index.surfaces, word.surface); i < index.surfaces.length; i++) {
      if (!index.surfaces[i]!.startsWith(word.surface) || added >= MAX_EXPANSIONS) break;
      offer(index.surfaceTerm[i]!, params.prefix);
      added++;
    }
  }
  if (exact === undefined && word.surface.length >= 4) {
    const max = word.surface.length >= 8 ? 2 : 1;
    // Typos rarely hit the first letter; requiring it keeps the scan to one sorted run of words.
    const first = word.surface[0]!;
    const end = lowerBound(index.surfaces, String.fromCharCode(first.charCodeAt(0) + 1));
    for (let i = lowerBound(index.surfaces, first); i < end; i++) {
      const candidate = index.surfaces[i]!;
      if (Math.abs(candidate.length - word.surface.length) > max) continue;
      const distance = editDistance(word.surface, candidate, max);
      if (distance > max) continue;
      offer(index.surfaceTerm[i]!, distance === 1 ? params.typo1 : params.typo2);
    }
  }
  return found;
}

function idf(total: number, df: number): number {
  return Math.log(1 + (total - df + 0.5) / (df + 0.5));
}

/**
 * Ranks the sections of an index for a query with BM25F over page title, heading path, page
 * description and section body, plus a share of the whole page's BM25 score so a section of the
 * page that is about the question wins over a stray mention. Returns the best section of each of
 * the best `limit` pages.
 */
export function rankSections(
  index: EngineIndex,
  query: string,
  limit: number,
  params: RankingParams = DEFAULT_RANKING,
): RankOutcome {
  const matchedTerms = new Set<string>();
  const words = analyzeQuery(query);
  const sectionCount = index.sections.length;
  if (words.length === 0 || sectionCount === 0) return { hits: [], matchedTerms };
  const s = scratchFor(index);
  const pageCount = index.pages.length;
  const totalTouched: number[] = [];
  const pageTotalTouched: number[] = [];

  const accumulateSections = (
    postings: FieldPostings,
    term: number,
    weight: number,
    b: number,
    lengths: Uint32Array,
    avg: number,
    touched: number[],
    pagesTouched: number[],
  ) => {
    const ids = postings.ids[term];
    const tfs = postings.tfs[term]!;
    if (!ids) return;
    for (let i = 0; i < ids.length; i++) {
      const section = ids[i]!;
      const norm = 1 - b + (b * lengths[section]!) / avg;
      if (s.acc[section] === 0) touched.push(section);
      s.acc[section]! += (weight * tfs[i]!) / norm;
      // Raw counts feed the page's own score; the page length normalizes them below.
      const page = index.sectionPage[section]!;
      if (s.pageAcc[page] === 0) pagesTouched.push(page);
      s.pageAcc[page]! += weight * tfs[i]!;
    }
  };
  const accumulatePages = (
    postings: FieldPostings,
    term: number,
    weight: number,
    b: number,
    lengths: Uint32Array,
    avg: number,
    touched: number[],
    pagesTouched: number[],
  ) => {
    const ids = postings.ids[term];
    const tfs = postings.tfs[term]!;
    if (!ids) return;
    for (let i = 0; i < ids.length; i++) {
      const page = ids[i]!;
      const value = (weight * tfs[i]!) / (1 - b + (b * lengths[page]!) / avg);
      for (let section = index.pageStart[page]!; section < index.pageStart[page + 1]!; section++) {
        if (s.acc[section] === 0) touched.push(section);
        s.acc[section]! += value;
      }
      if (s.pageAcc[page] === 0) pagesTouched.push(page);
      s.pageAcc[page]! += value;
    }
  };

  for (const word of words) {
    const expansions = expand(index, word, params);
    const wordTouched: number[] = [];
    const pageWordTouched: number[] = [];
    for (const [term, share] of expansions) {
      const touched: number[] = [];
      const pagesTouched: number[] = [];
      accumulateSections(index.body, term, params.body, params.bBody, index.bodyLen, s.avg.body, touched, pagesTouched);
      accumulateSections(index.head, term, params.head, params.bHead, index.headLen, s.avg.head, touched, pagesTouched);
      for (const page of pagesTouched) {
        const norm = 1 - params.bBody + (params.bBody * s.pageLen[page]!) / s.avg.page;
        s.pageAcc[page] = s.pageAcc[page]! / norm;
      }
      accumulatePages(
        index.title,
        term,
        params.title,
        params.bTitle,
        index.titleLen,
        s.avg.title,
        touched,
        pagesTouched,
      );
      accumulatePages(index.desc, term, params.desc, params.bDesc, index.descLen, s.avg.desc, touched, pagesTouched);
      if (touched.length === 0) continue;
      matchedTerms.add(index.terms[term]!);
      const sectionIdf = idf(sectionCount, touched.length) * share;
      for (const section of touched) {
        const tf = s.acc[section]!;
        const value = (sectionIdf * tf) / (params.k1 + tf);
        if (s.word[section] === 0) wordTouched.push(section);
        if (value > s.word[section]!) s.word[section] = value;
        s.acc[section] = 0;
      }
      const pageIdf = idf(pageCount, pagesTouched.length) * share;
      for (const page of pagesTouched) {
        const tf = s.pageAcc[page]!;
        const value = (pageIdf * tf) / (params.k1 + tf);
        if (s.pageWord[page] === 0) pageWordTouched.push(page);
        if (value > s.pageWord[page]!) s.pageWord[page] = value;
        s.pageAcc[page] = 0;
      }
    }
    for (const section of wordTouched) {
      if (s.total[section] === 0) totalTouched.push(section);
      s.total[section]! += s.word[section]!;
      s.word[section] = 0;
    }
    for (const page of pageWordTouched) {
      if (s.pageTotal[page] === 0) pageTotalTouched.push(page);
      s.pageTotal[page]! += s.pageWord[page]!;
      s.pageWord[page] = 0;
    }
  }

  // Best section per page, then the best pages.
  const bestOfPage = new Map<number, RankedSection>();
  for (const section of totalTouched) {
    const page = index.sectionPage[section]!;
    const score = s.total[section]! + params.page * s.pageTotal[page]!;
    s.total[section] = 0;
    const best = bestOfPage.get(page);
    if (!best || score > best.score || (score === best.score && section < best.section)) {
      bestOfPage.set(page, { section, score });
    }
  }
  for (const page of pageTotalTouched) s.pageTotal[page] = 0;
  const hits = [...bestOfPage.values()].sort((a, b) => b.score - a.score || a.section - b.section).slice(0, limit);
  return { hits, matchedTerms };
}
