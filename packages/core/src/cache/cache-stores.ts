import type { CacheSetOptions, CacheStore } from '../ports/cache-store.js';

/** Entries a `memory` store keeps when `stores.{name}.max_entries` is not set. */
export const DEFAULT_MEMORY_CACHE_ENTRIES = 1000;

/**
 * Bytes a `memory` store holds at most (64 MiB), measured as its values' JSON text: a page list or
 * the search sections of a version can be megabytes, so an entry count alone bounds nothing.
 */
export const DEFAULT_MEMORY_CACHE_BYTES = 64 * 1024 * 1024;

/** Options of {@link createMemoryCacheStore}. */
export interface MemoryCacheStoreOptions {
  /** Most entries kept; past it the least recently used goes. @default 1000 */
  maxEntries?: number;
  /**
   * Most bytes kept, counting each value as the length of its JSON text; past it the least
   * recently used go, and a value larger than the whole bound is not kept. @default 64 MiB
   */
  maxBytes?: number;
  /** Clock in epoch milliseconds (tests pass their own). */
  now?: () => number;
}

interface Entry {
  value: unknown;
  /** Epoch milliseconds after which the entry is gone, or null for none. */
  expires: number | null;
  /** Its share of the byte bound. */
  bytes: number;
}

/** The bytes a value counts for: its JSON text's length (a string's own length). */
function sizeOf(value: unknown): number {
  if (typeof value === 'string') return value.length;
  return JSON.stringify(value)?.length ?? 0;
}

/** A store kept in this process's memory: `entries` in least-recently-used order. */
function mapStore(entries: Map<string, Entry>, maxEntries: number, maxBytes: number, now: () => number) {
  let bytes = 0;
  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };
  return {
    get size() {
      return entries.size;
    },
    /** The bytes the kept values count for. */
    get bytes() {
      return bytes;
    },
    async get<T>(key: string): Promise<T | undefined> {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      if (entry.expires !== null && entry.expires <= now()) {
        bytes -= entry.bytes;
        return undefined;
      }
      // Re-inserted so the Map's order stays least recently used first.
      entries.set(key, entry);
      return entry.value as T;
    },
    async set(key: string, value: unknown, options?: CacheSetOptions): Promise<void> {
      if (value === undefined) throw new TypeError(`Cache value for "${key}" is undefined; store null instead.`);
      const ttl = options?.ttlSeconds;
      remove(key);
      const size = Number.isFinite(maxBytes) ? sizeOf(value) : 0;
      if (size > maxBytes) return;
      entries.set(key, { value, expires: ttl === undefined ? null : now() + ttl * 1000, bytes: size });
      bytes += size;
      while (entries.size > maxEntries || bytes > maxBytes) remove(entries.keys().next().value as string);
    },
    async delete(key: string): Promise<void> {
      remove(key);
    },
    async close(): Promise<void> {
      entries.clear();
      bytes = 0;
    },
  };
}

/**
 * The `memory` cache store: a least-recently-used map in this process, bounded by `maxEntries`
 * (`stores.{name}.max_entries`) and by `maxBytes` (64 MiB of JSON text by default). Values are kept
 * as given, not copied: treat what `get` returns as read-only. Each server process has its own; Kit's content-addressed keys keep it correct when
 * another process writes, but only a shared store (`redis`) saves the other processes the work.
 *
 * @example
 * const store = createMemoryCacheStore({ maxEntries: 500 });
 * await store.set('greeting', { text: 'hello' });
 * await store.get('greeting'); // { text: 'hello' }
 */
export function createMemoryCacheStore(
  options: MemoryCacheStoreOptions = {},
): CacheStore & { readonly size: number; readonly bytes: number } {
  const maxEntries = options.maxEntries ?? DEFAULT_MEMORY_CACHE_ENTRIES;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
    throw new RangeError(`maxEntries is ${maxEntries}; give a whole number of entries, 1 or more (default 1000).`);
  }
  const maxBytes = options.maxBytes ?? DEFAULT_MEMORY_CACHE_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
    throw new RangeError(`maxBytes is ${maxBytes}; give a whole number of bytes, 1 or more (default 64 MiB).`);
  }
  return mapStore(new Map(), maxEntries, maxBytes, options.now ?? Date.now);
}

/**
 * The `array` cache store, for tests: like `memory` but unbounded, so a test can count on every
 * entry it wrote still being there. Refused outside tests by the config.
 *
 * @example
 * const store = createArrayCacheStore();
 */
export function createArrayCacheStore(options: { now?: () => number } = {}): CacheStore & { readonly size: number } {
  return mapStore(new Map(), Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, options.now ?? Date.now);
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
