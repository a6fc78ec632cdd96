import {
  type CacheStore,
  createArrayCacheStore,
  createMemoryCacheStore,
  createNullCacheStore,
  KitError,
  type ResolvedConfig,
} from '@kit/core';
import { createRedisCacheStore, type RedisCacheStoreOptions } from './redis-cache-store.js';

/** One entry of `stores` as the resolved config holds it. */
export type CacheStoreConfig = ResolvedConfig['stores'][string];

/** Options of {@link createCacheStore}. */
export interface CreateCacheStoreOptions extends Pick<RedisCacheStoreOptions, 'keyPrefix' | 'ttlSeconds' | 'warn'> {
  /** The store's name in `stores`, for messages. */
  name?: string;
}

/**
 * Turns a declared cache store (`stores.{name}`, as `cacheStoreFor(config, setKey).store` gives it)
 * into a {@link CacheStore}: `memory` (a least-recently-used map per process, `max_entries` long,
 * 1000 by default), `redis` (shared by every process; needs `url`), and the test stores `array`
 * (unbounded) and `null` (stores nothing). The config already refuses the test stores outside
 * tests; the factory builds whatever it is given.
 *
 * @example
 * const { name, store } = cacheStoreFor(config, 'docs');
 * const cache = createCacheStore(store, { name });
 * const source = createDbSource({ db, setKey: 'docs', cache });
 */
export function createCacheStore(config: CacheStoreConfig, options: CreateCacheStoreOptions = {}): CacheStore {
  const label = options.name ? `stores.${options.name}` : 'the cache store';
  switch (config.driver) {
    case 'memory':
      return createMemoryCacheStore(config.max_entries !== undefined ? { maxEntries: config.max_entries } : {});
    case 'array':
      return createArrayCacheStore();
    case 'null':
      return createNullCacheStore();
    case 'redis': {
      if (!config.url) {
        throw new KitError(
          'config.invalid',
          `${label} uses the redis driver and needs \`url\`, such as 'redis://127.0.0.1:6379'.`,
        );
      }
      return createRedisCacheStore({
        url: config.url,
        ...(options.keyPrefix !== undefined ? { keyPrefix: options.keyPrefix } : {}),
        ...(options.ttlSeconds !== undefined ? { ttlSeconds: options.ttlSeconds } : {}),
        ...(options.warn ? { warn: options.warn } : {}),
      });
    }
    default:
      throw new KitError(
        'config.invalid',
        `${label} has the driver \`${(config as { driver: unknown }).driver}\`; use 'memory' or 'redis' ('array' and 'null' in tests).`,
      );
  }
}
