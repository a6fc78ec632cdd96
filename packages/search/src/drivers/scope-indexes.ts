import type { SearchIndexOptions, SearchOptions, SearchScope, SearchSection } from '@kit/core';
import { assertSearchQuery, normalizeSearchLimit, normalizeSearchSections } from '@kit/core/internal';
import type { SearchIndexCache, StoredIndex } from './index-cache.js';
import { assertSearchScope, scopeKey } from './scope.js';

/** What `onIndex` of a built-in driver is told each time a scope gets its index. */
export interface SearchIndexReport {
  scope: SearchScope;
  /** `built` from sections, or `cache` when the index cache had it. */
  origin: 'built' | 'cache';
  /** Sections in the index. */
  sections: number;
  /** Milliseconds it took, building or loading (and for `built`, keeping it in the cache). */
  ms: number;
}

/** How one driver makes, keeps and reads back what it searches for a scope (its entry). */
export interface EntryKind<Entry> {
  /** Builds the entry of a scope from its sections; `previous` is the scope's entry until now, whose parts it may keep. */
  build(sections: SearchSection[], previous: Entry | undefined): Entry | Promise<Entry>;
  /** The cache key of sections given without `SearchIndexOptions.key`; without it, such sections are not cached. */
  keyOf?(sections: SearchSection[]): Promise<string>;
  /** The key the cache is asked under for a content key (what else shapes the entry added). */
  cacheKey(key: string): string;
  /** The entry a cache value holds, or why it holds none (the value is then rejected). */
  fromStored(value: unknown): Entry | string;
  /** The value the cache keeps for an entry. */
  toStored(entry: Entry): StoredIndex | object | Promise<StoredIndex | object>;
  /** Sections in an entry, for {@link SearchIndexReport}. */
  sectionCount(entry: Entry): number;
}

/** The options both built-in drivers take about keeping indexes. */
export interface ScopeIndexOptions {
  cache?: SearchIndexCache | undefined;
  onIndex?: ((report: SearchIndexReport) => void) | undefined;
}

/** One entry per scope, with the `restore` and `index` methods of the `SearchDriver` port. */
export interface ScopeIndexes<Entry> {
  get(scope: SearchScope): Entry | undefined;
  restore(scope: SearchScope, key: string): Promise<boolean>;
  index(scope: SearchScope, sections: SearchSection[], indexOptions?: SearchIndexOptions): Promise<void>;
}

/**
 * The set-up the built-in drivers share: one entry per (set, version, locale, audience), built
 * from sections or, with a `cache`, loaded from it when it has the entry of the same content
 * (`restore`, or `index` with the same key); every built entry is written to the cache, and
 * `onIndex` hears of every entry a scope gets.
 */
export function createScopeIndexes<Entry>(kind: EntryKind<Entry>, options: ScopeIndexOptions): ScopeIndexes<Entry> {
  const { cache, onIndex } = options;
  const entries = new Map<string, Entry>();
  // Keys `restore` just found missing, so the `index` call that follows does not look again.
  const missing = new Set<string>();

  /** The cached entry under `key`, made the scope's; false when there is none (or it was unusable). */
  async function load(scope: SearchScope, key: string): Promise<boolean> {
    if (!cache) return false;
    const startedAt = performance.now();
    const value = await cache.read(scope, kind.cacheKey(key)).catch(() => undefined);
    if (value === undefined) return false;
    const entry = kind.fromStored(value);
    if (typeof entry === 'string') {
      await cache.reject(scope, kind.cacheKey(key), entry).catch(() => {});
      return false;
    }
    entries.set(scopeKey(scope), entry);
    onIndex?.({ scope, origin: 'cache', sections: kind.sectionCount(entry), ms: performance.now() - startedAt });
    return true;
  }

  return {
    get: (scope) => entries.get(scopeKey(scope)),
    async restore(scope, key) {
      assertSearchScope(scope);
      const loaded = await load(scope, key);
      if (!loaded) missing.add(`${scopeKey(scope)}\u0000${key}`);
      return loaded;
    },
    async index(scope, sections, indexOptions) {
      assertSearchScope(scope);
      const key = cache ? (indexOptions?.key ?? (kind.keyOf ? await kind.keyOf(sections) : null)) : null;
      if (key !== null && !missing.delete(`${scopeKey(scope)}\u0000${key}`) && (await load(scope, key))) return;
      const startedAt = performance.now();
      const entry = await kind.build(sections, entries.get(scopeKey(scope)));
      entries.set(scopeKey(scope), entry);
      if (cache && key !== null) {
        await cache.write(scope, kind.cacheKey(key), await kind.toStored(entry)).catch(() => {});
      }
      onIndex?.({ scope, origin: 'built', sections: kind.sectionCount(entry), ms: performance.now() - startedAt });
    },
  };
}

/** A search's arguments, checked the same way by every built-in driver, with its limit and sections per page. */
export function searchArguments(
  scope: SearchScope,
  query: string,
  options: SearchOptions | undefined,
): { limit: number; sections: number } {
  assertSearchScope(scope);
  assertSearchQuery(query);
  return {
    limit: normalizeSearchLimit(options?.limit),
    sections: normalizeSearchSections(options?.sections ?? 1),
  };
}
