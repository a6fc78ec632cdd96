import type { CacheSetOptions, CacheStore } from '../ports/cache-store.js';

/** Entries a `memory` store keeps when `stores.{name}.max_entries` is not set. */
export const DEFAULT_MEMORY_CACHE_ENTRIES = 1000;

/** Options of {@link createMemoryCacheStore}. */
export interface MemoryCacheStoreOptions {
  /** Most entries kept; past it the least recently used goes. @default 1000 */
  maxEntries?: number;
  /** Clock in epoch milliseconds (tests pass their own). */
  now?: () => number;
}

interface Entry {
  value: unknown;
  /** Epoch milliseconds after which the entry is gone, or null for none. */
  expires: number | null;
}

/** A store kept in this process's memory: `entries` in least-recently-used order. */
function mapStore(entries: Map<string, Entry>, maxEntries: number, now: () => number) {
  return {
    get size() {
      return entries.size;
    },
    async get<T>(key: string): Promise<T | undefined> {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      if (entry.expires !== null && entry.expires <= now()) return undefined;
      // Re-inserted so the Map's order stays least recently used first.
      entries.set(key, entry);
      return entry.value as T;
    },
    async set(key: string, value: unknown, options?: CacheSetOptions): Promise<void> {
      if (value === undefined) throw new TypeError(`Cache value for "${key}" is undefined; store null instead.`);
      const ttl = options?.ttlSeconds;
      entries.delete(key);
      entries.set(key, { value, expires: ttl === undefined ? null : now() + ttl * 1000 });
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    },
    async delete(key: string): Promise<void> {
      entries.delete(key);
    },
    async close(): Promise<void> {
      entries.clear();
    },
  };
}

/**
 * The `memory` cache store: a least-recently-used map in this process, bounded by `maxEntries`
 * (`stores.{name}.max_entries`). Values are kept as given, not copied: treat what `get` returns
 * as read-only. Each server process has its own; Kit's content-addressed keys keep it correct when
 * another process writes, but only a shared store (`redis`) saves the other processes the work.
 *
 * @example
 * const store = createMemoryCacheStore({ maxEntries: 500 });
 * await store.set('greeting', { text: 'hello' });
 * await store.get('greeting'); // { text: 'hello' }
 */
export function createMemoryCacheStore(options: MemoryCacheStoreOptions = {}): CacheStore & { readonly size: number } {
  const maxEntries = options.maxEntries ?? DEFAULT_MEMORY_CACHE_ENTRIES;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
    throw new RangeError(`maxEntries is ${maxEntries}; give a whole number of entries, 1 or more (default 1000).`);
  }
  return mapStore(new Map(), maxEntries, options.now ?? Date.now);
}

/**
 * The `array` cache store, for tests: like `memory` but unbounded, so a test can count on every
 * entry it wrote still being there. Refused outside tests by the config.
 *
 * @example
 * const store = createArrayCacheStore();
 */
export function createArrayCacheStore(options: { now?: () => number } = {}): CacheStore & { readonly size: number } {
  return mapStore(new Map(), Number.POSITIVE_INFINITY, options.now ?? Date.now);
}

/**
 * The `null` cache store, for tests: stores nothing, so every read goes to the database. Refused
 * outside tests by the config.
 *
 * @example
 * const store = createNullCacheStore();
 * await store.set('k', 1);
 * await store.get('k'); // undefined
 */
export function createNullCacheStore(): CacheStore {
  return {
    async get() {
      return undefined;
    },
    async set() {},
    async delete() {},
    async close() {},
  };
}

/**
 * A view of `store` whose keys all start with `prefix`, so several users of one store (two apps on
 * one Redis, or one test per prefix) never meet. Closing the view leaves the store open.
 *
 * @example
 * const docs = prefixCacheStore(shared, 'site-a:');
 * await docs.set('k', 1); // stored at 'site-a:k'
 */
export function prefixCacheStore(store: CacheStore, prefix: string): CacheStore {
  return {
    get: <T>(key: string) => store.get<T>(prefix + key),
    set: (key, value, options) => store.set(prefix + key, value, options),
    delete: (key) => store.delete(prefix + key),
  };
}
