import { MAX_SEARCH_LIMIT } from '@kit/core/internal';
import { coverage } from './ranking/coverage.js';
import { type RankingData, rankingDataOf } from './ranking/data.js';
import { MORE_SECTION_SHARE, withMoreSections } from './ranking/more-sections.js';
import { DEFAULT_RANKING, type RankingParams } from './ranking/params.js';
import { groupsOf } from './ranking/query-groups.js';
import { rankPages } from './ranking/rank-pages.js';
import { landOnTitledPages, promoteTitles, semanticRerank } from './ranking/reorder.js';
import { QueryScratch } from './ranking/scratch.js';
import type { RankedSection, RankStats } from './ranking/types.js';
import type { EngineIndex } from './types.js';

export { MORE_SECTION_SHARE } from './ranking/more-sections.js';
export type { RankingParams } from './ranking/params.js';
export { DEFAULT_RANKING } from './ranking/params.js';
export type { RankedSection, RankStats } from './ranking/types.js';

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
 * Pages ranked when title coverage reorders the results after the first: at least this many, so
 * the first results are the same whatever `limit` asks for (up to it).
 */
const TITLE_COVERAGE_POOL = 10;
/**
 * Pages the semantic match reorders: the most any search returns, so the first results are the
 * same whatever `limit` asks for.
 */
const SEMANTIC_POOL = MAX_SEARCH_LIMIT;

/**
 * Ranking one index under one set of weights: what is computed once (`data`) and the scratch
 * space every query reuses (`scratch`), so nothing scales with the corpus per query except the
 * posting lists actually read.
 */
interface Ranker {
  data: RankingData;
  scratch: QueryScratch;
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
    const data = rankingDataOf(index, params);
    ranker = { data, scratch: new QueryScratch(data) };
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
  const { data, scratch } = rankerFor(index, params);
  const words = groupsOf(data, query, matchedTerms);
  const { groups } = words;
  if (groups.length === 0) return { hits: [], matchedTerms };
  let pool = limit;
  if (params.titleCoverage > 0) pool = Math.max(pool, TITLE_COVERAGE_POOL);
  if (params.semantic > 0) pool = Math.max(pool, SEMANTIC_POOL);
  let hits = rankPages(data, scratch, groups, pool, options.exhaustive === true, options.stats ?? null);
  // No-match threshold: a query whose best page covers too little of it has no results, and pages
  // covering too little of a real one are left out, however they score.
  if (params.minCoverage > 0 || params.minHitCoverage > 0) {
    const covered = hits.map((hit) => coverage(data, words, index.sectionPage[hit.section]!));
    if (Math.max(0, ...covered) < params.minCoverage) return { hits: [], matchedTerms };
    hits = hits.filter((_, at) => covered[at]! >= params.minHitCoverage);
  }
  const ranked = semanticRerank(data, groups, promoteTitles(data, groups, hits)).slice(0, limit);
  const landed = landOnTitledPages(data, groups, ranked);
  const sections = options.sections ?? 1;
  if (sections <= 1) return { hits: landed, matchedTerms };
  return { hits: landed.map((hit) => withMoreSections(data, scratch, groups, hit, sections)), matchedTerms };
}
