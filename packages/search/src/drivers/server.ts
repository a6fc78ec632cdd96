import type { SearchDriver, SearchHit, SearchIndexOptions, SearchOptions, SearchScope, SearchSection } from '@kit/core';
import { assertSearchQuery, normalizeSearchLimit, normalizeSearchSections } from '@kit/core';
import { buildEngineIndex } from '../engine/build.js';
import { toSearchHits } from '../engine/hits.js';
import { indexFromStored, storedIndexOf } from '../engine/persist.js';
import { DEFAULT_RANKING, prepareRanking, type RankingParams, rankSections } from '../engine/rank.js';
import type { EngineIndex } from '../engine/types.js';
import type { SearchIndexCache } from './index-cache.js';
import { assertSearchScope, scopeKey } from './scope.js';

/** What {@link ServerSearchOptions.onIndex} is told each time a scope gets its index. */
export interface SearchIndexReport {
  scope: SearchScope;
  /** `built` from sections, or `cache` when the index cache had it. */
  origin: 'built' | 'cache';
  /** Sections in the index. */
  sections: number;
  /** Milliseconds it took, building or loading (and for `built`, keeping it in the cache). */
  ms: number;
}

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
}

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
  const { cache, onIndex } = options;
  const indexes = new Map<string, EngineIndex>();
  // Keys `restore` just found missing, so the `index` call that follows does not look again.
  const missing = new Set<string>();

  /** The cached index under `key`, made the scope's; false when there is none (or it was unusable). */
  async function load(scope: SearchScope, key: string): Promise<boolean> {
    if (!cache) return false;
    const startedAt = performance.now();
    const value = await cache.read(scope, key).catch(() => undefined);
    if (value === undefined) return false;
    const index = indexFromStored(value);
    if (typeof index === 'string') {
      await cache.reject(scope, key, index).catch(() => {});
      return false;
    }
    prepareRanking(index, ranking);
    indexes.set(scopeKey(scope), index);
    onIndex?.({ scope, origin: 'cache', sections: index.sections.length, ms: performance.now() - startedAt });
    return true;
  }

  return {
    name: 'server',
    async restore(scope: SearchScope, key: string): Promise<boolean> {
      assertSearchScope(scope);
      const loaded = await load(scope, key);
      if (!loaded) missing.add(`${scopeKey(scope)}\u0000${key}`);
      return loaded;
    },
    async index(scope: SearchScope, sections: SearchSection[], indexOptions?: SearchIndexOptions): Promise<void> {
      assertSearchScope(scope);
      const key = cache ? (indexOptions?.key ?? (await sectionsDigest(sections))) : null;
      if (key !== null) {
        const asked = `${scopeKey(scope)}\u0000${key}`;
        const checked = missing.delete(asked);
        if (!checked && (await load(scope, key))) return;
      }
      const startedAt = performance.now();
      const index = buildEngineIndex(sections);
      // Term statistics (and the semantic model) are computed here, not by the first query after a rebuild.
      prepareRanking(index, ranking);
      indexes.set(scopeKey(scope), index);
      if (cache && key !== null) {
        // Encoding is synchronous: requests that arrived during the build are answered first.
        await new Promise((resume) => setTimeout(resume, 0));
        await cache.write(scope, key, storedIndexOf(index)).catch(() => {});
      }
      onIndex?.({ scope, origin: 'built', sections: index.sections.length, ms: performance.now() - startedAt });
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

/** A key for sections given without one: the SHA-256 of their JSON (Web Crypto, so it runs anywhere). */
async function sectionsDigest(sections: SearchSection[]): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(sections));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return `sections:${Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}
