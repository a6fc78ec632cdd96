import type { SearchDriver, SearchHit, SearchOptions, SearchScope, SearchSection } from '@kit/core';
import { buildEngineIndex } from '../engine/build.js';
import { toSearchHits } from '../engine/hits.js';
import { indexFromStored, type StoredIndex, storedIndexOf } from '../engine/persist.js';
import { DEFAULT_RANKING, prepareRanking, type RankingParams, rankSections } from '../engine/rank.js';
import type { EngineIndex } from '../engine/types.js';
import type { SearchIndexCache } from './index-cache.js';
import { createScopeIndexes, type SearchIndexReport, searchArguments } from './scope-indexes.js';

export interface ServerSearchOptions {
  /** BM25F weights; the defaults are the ones `bench/search-quality` measured. */
  ranking?: Partial<RankingParams>;
  /**
   * Keeps built indexes between runs (`createDiskIndexCache` from `@kit/search/node`, which `kit
   * serve`, `kit mcp` and the reference server use): an index whose key is found is loaded, not
   * built. Default: indexes live in memory only.
   */
  cache?: SearchIndexCache;
  /** Told each time a scope gets its index, built or loaded (logs, tests). */
  onIndex?: (report: SearchIndexReport) => void;
  /**
   * Builds indexes away from the calling thread (`createWorkerIndexBuilder` from `@kit/search/node`,
   * which `kit serve`, `kit mcp` and the reference server use). Indexes of fewer than
   * `builderFrom` sections are still built in place, where a worker would cost more than it saves.
   * Either way the index, and so every search, is the same.
   */
  builder?: IndexBuilder;
  /** @default 2000 ({@link WORKER_BUILD_FROM_SECTIONS}) */
  builderFrom?: number;
}

/** Builds the stored form of a server index from its sections, elsewhere (a worker thread). */
export type IndexBuilder = (sections: SearchSection[], ranking: RankingParams) => Promise<StoredIndex>;

/** Sections from which a server driver with a `builder` hands the build to it. */
export const WORKER_BUILD_FROM_SECTIONS = 2000;

/**
 * The `server` search driver: a BM25F ranker over page title, heading path, description and
 * body, with Porter stemming, prefix matching of the word being typed and one- or two-edit typo
 * tolerance, whose first pages are reordered by a semantic match learned from the set itself
 * (latent semantic analysis, see `engine/semantic.ts`). Indexes live in memory, one per (set,
 * version, locale, audience); with a `cache`, each built index is also kept there under the key
 * of its content, and `restore` (or `index` with the same content) loads it back instead of
 * building it again.
 *
 * @example
 * const search = createServerSearch({ cache: createDiskIndexCache({ dir: '.kit/cache/search' }) });
 * await search.index(scope, sections);
 * const hits = await search.search(scope, 'queued listeners', { limit: 8 });
 */
export function createServerSearch(options: ServerSearchOptions = {}): SearchDriver {
  const ranking: RankingParams = { ...DEFAULT_RANKING, ...options.ranking };
  const indexes = createScopeIndexes<EngineIndex>(
    {
      async build(sections) {
        const { builder } = options;
        if (builder && sections.length >= (options.builderFrom ?? WORKER_BUILD_FROM_SECTIONS)) {
          const index = indexFromStored(await builder(sections, ranking));
          if (typeof index === 'string') throw new Error(`The search index built on a worker is not usable: ${index}.`);
          prepareRanking(index, ranking);
          return index;
        }
        const index = buildEngineIndex(sections);
        // Term statistics (and the semantic model) are computed here, not by the first query after a rebuild.
        prepareRanking(index, ranking);
        return index;
      },
      keyOf: sectionsDigest,
      cacheKey: (key) => key,
      fromStored(value) {
        const index = indexFromStored(value);
        if (typeof index !== 'string') prepareRanking(index, ranking);
        return index;
      },
      async toStored(index) {
        // Encoding is synchronous: requests that arrived during the build are answered first.
        await new Promise((resume) => setTimeout(resume, 0));
        return storedIndexOf(index);
      },
      sectionCount: (index) => index.sections.length,
    },
    options,
  );

  return {
    name: 'server',
    restore: indexes.restore,
    index: indexes.index,
    async search(scope: SearchScope, query: string, searchOptions: SearchOptions): Promise<SearchHit[]> {
      const { limit, sections } = searchArguments(scope, query, searchOptions);
      const index = indexes.get(scope);
      if (!index) return [];
      return toSearchHits(index, rankSections(index, query, limit, ranking, { sections }));
    },
  };
}

/** A key for sections given without one: the SHA-256 of their JSON (Web Crypto, so it runs anywhere). */
async function sectionsDigest(sections: SearchSection[]): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(sections));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return `sections:${Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}
