import type { SearchDriver, SearchHit, SearchOptions, SearchScope, SearchSection } from '@kit/core';
import { assertSearchQuery, normalizeSearchLimit, normalizeSearchSections } from '@kit/core';
import { buildEngineIndex } from '../engine/build.js';
import { toSearchHits } from '../engine/hits.js';
import { DEFAULT_RANKING, prepareRanking, type RankingParams, rankSections } from '../engine/rank.js';
import type { EngineIndex } from '../engine/types.js';
import { assertSearchScope, scopeKey } from './scope.js';

export interface ServerSearchOptions {
  /** BM25F weights; the defaults are the ones `bench/search-quality` measured. */
  ranking?: Partial<RankingParams>;
}

/**
 * The `server` search driver: a BM25F ranker over page title, heading path, description and
 * body, with Porter stemming, prefix matching of the word being typed and one- or two-edit typo
 * tolerance, whose first pages are reordered by a semantic match learned from the set itself
 * (latent semantic analysis, see `engine/semantic.ts`). Indexes live in memory, one per (set,
 * version, locale, audience).
 *
 * @example
 * const search = createServerSearch();
 * await search.index(scope, sections);
 * const hits = await search.search(scope, 'queued listeners', { limit: 8 });
 */
export function createServerSearch(options: ServerSearchOptions = {}): SearchDriver {
  const ranking: RankingParams = { ...DEFAULT_RANKING, ...options.ranking };
  const indexes = new Map<string, EngineIndex>();
  return {
    name: 'server',
    async index(scope: SearchScope, sections: SearchSection[]): Promise<void> {
      assertSearchScope(scope);
      const index = buildEngineIndex(sections);
      // Term statistics are computed here, not by the first query after a rebuild.
      prepareRanking(index, ranking);
      indexes.set(scopeKey(scope), index);
    },
    async search(scope: SearchScope, query: string, searchOptions: SearchOptions): Promise<SearchHit[]> {
      assertSearchScope(scope);
      assertSearchQuery(query);
      const limit = normalizeSearchLimit(searchOptions?.limit);
      const sections = normalizeSearchSections(searchOptions?.sections ?? 1);
      const index = indexes.get(scopeKey(scope));
      if (!index) return [];
      return toSearchHits(index, rankSections(index, query, limit, ranking, { sections }));
    },
  };
}
