import type { KitEnv, RateLimitStore, ResolvedConfig } from '@kit/core';
import { createRedisRateLimitStore } from './redis-rate-limit.js';

/** A rate-limit store a server opened, to close when it stops. */
export type OpenedRateLimitStore = RateLimitStore & { close(): Promise<void> };

/**
 * The rate-limit store every server Kit starts (`kit serve`, the reference server) counts in, so
 * several processes share one limit per caller: Redis at `KIT_REDIS_URL` (keys under
 * `KIT_REDIS_PREFIX`, default `kit:rl:`), else the Redis of the top-level `cache.store` when that
 * store is a `redis` one. Null when neither is set: the server then counts in its own memory.
 * While Redis cannot be reached each process counts on its own and warns once (see
 * `createRedisRateLimitStore`).
 *
 * @example
 * const rateLimitStore = await openRateLimitStore(kit.config, process.env);
 * app.route('/', createKitApp({ kit, ...(rateLimitStore ? { rateLimitStore } : {}) }));
 * // on shutdown
 * await rateLimitStore?.close();
 */
export async function openRateLimitStore(
  config: ResolvedConfig,
  env: KitEnv = process.env,
): Promise<OpenedRateLimitStore | null> {
  const url = env.KIT_REDIS_URL?.trim() || sharedCacheRedisUrl(config);
  if (!url) return null;
  const keyPrefix = env.KIT_REDIS_PREFIX?.trim();
  return createRedisRateLimitStore({ url, ...(keyPrefix ? { keyPrefix } : {}) });
}

/** The URL of the top-level cache store when it is Redis: processes sharing a cache share limits too. */
function sharedCacheRedisUrl(config: ResolvedConfig): string | null {
  const name = config.cache.store;
  if (!name) return null;
  const store = config.stores[name];
  return store?.driver === 'redis' && store.url ? store.url : null;
}
