import { type SemanticModel, semanticModelOf } from '../semantic.js';
import type { EngineIndex } from '../types.js';
import { type FieldUnits, fieldUnitsOf } from './accumulate.js';
import { idf, type TermImpacts, termImpactsOf } from './impacts.js';
import type { RankingParams } from './params.js';
import { type SkipTables, skipTablesOf } from './postings.js';

/**
 * What ranking knows of one index under one set of weights, computed once (one pass over the
 * postings) and only read by queries: per-term IDFs, page impacts and score upper bounds, skip
 * tables, per-field units, and the semantic model. What a query writes lives in `QueryScratch`.
 */
export interface RankingData extends TermImpacts {
  readonly index: EngineIndex;
  readonly params: RankingParams;
  readonly units: FieldUnits;
  readonly skips: SkipTables;
  /** Sections of the largest page: the size of the per-section scratch. */
  readonly maxSections: number;
  /** Coverage weight of a query word no page has: the inverse page frequency of a word on none. */
  readonly unknownWeight: number;
  /** The index's latent vectors, when `params.semantic` asks for them. */
  readonly model: SemanticModel | null;
}

/** Sections of the index's largest page (at least 1). */
function largestPage(index: EngineIndex): number {
  let maxSections = 1;
  for (let page = 0; page < index.pages.length; page++) {
    const count = index.pageStart[page + 1]! - index.pageStart[page]!;
    if (count > maxSections) maxSections = count;
  }
  return maxSections;
}

/** Computes the {@link RankingData} of an index under `params`. */
export function rankingDataOf(index: EngineIndex, params: RankingParams): RankingData {
  const units = fieldUnitsOf(index, params);
  const skips = skipTablesOf(index);
  const maxSections = largestPage(index);
  return {
    index,
    params,
    units,
    skips,
    maxSections,
    unknownWeight: idf(index.pages.length, 0),
    model: params.semantic > 0 ? semanticModelOf(index) : null,
    ...termImpactsOf(index, params, units, skips, maxSections),
  };
}

/** Whether a term occurs anywhere in the index. */
export function occurs(data: RankingData, term: number): boolean {
  return data.idfPage[term]! > 0;
}
