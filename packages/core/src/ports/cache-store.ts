/** Options of {@link CacheStore.set}. */
export interface CacheSetOptions {
  /** Seconds the entry lives; the store's own default (or forever) when absent. */
  ttlSeconds?: number;
}

/**
 * The cache-store port: where a database set keeps what it would otherwise read and render again
 * (page lists, rendered pages, search sections). A value is a string or anything JSON can hold.
 *
 * Kit's own keys are content-addressed (they carry the hashes of what the value was made from), so
 * a stale entry is never read: a change makes new keys, and old ones age out. That is why a store
 * may be shared by every server process (Redis) or kept per process (memory) with the same result.
 *
 * A store never throws on a read or write it cannot do: an unreachable Redis answers `get` with
 * `undefined` and drops `set`, and the caller reads the database instead.
 *
 * `@kit/core` ships `memory`, `array` and `null`; `@kit/source-db` adds `redis` and the factory that
 * turns `stores.{name}` into a store.
 */
export interface CacheStore {
  /** The value stored at `key`, or `undefined` when there is none (a stored `null` comes back as `null`). */
  get<T = unknown>(key: string): Promise<T | undefined>;
  /** Stores `value` (a string or a JSON value) at `key`, replacing what was there. */
  set(key: string, value: unknown, options?: CacheSetOptions): Promise<void>;
  /** Removes the entry at `key`, if any. */
  delete(key: string): Promise<void>;
  /** Releases connections; the store is not used after. */
  close?(): Promise<void>;
}
