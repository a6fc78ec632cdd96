import type { RateLimitStore } from '@kit/core';
import { loadOptionalPeer } from '@kit/core/node';
import type { Redis } from 'ioredis';

/**
 * A rate-limit store kept in Redis, so several server processes share one count per caller.
 * Each key is a fixed window: the first hit sets its expiry, later hits only increment.
 *
 * @example
 * const store = createRedisRateLimitStore({ url: 'redis://127.0.0.1:6379' });
 */
export function createRedisRateLimitStore(options: { url: string; keyPrefix?: string }): RateLimitStore & {
  close(): Promise<void>;
} {
  // ioredis is loaded here, not at import: it costs a server without Redis a quarter second of start-up.
  const connecting: Promise<Redis> = loadOptionalPeer(
    () => import('ioredis'),
    'ioredis',
    'The Redis rate-limit store',
  ).then(
    ({ Redis }) => new Redis(options.url, { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true }),
  );
  const prefix = options.keyPrefix ?? 'kit:rl:';
  return {
    async hit(key, windowMs) {
      const redis = await connecting;
      const fullKey = prefix + key;
      const [[, count], [, ttl]] = (await redis.multi().incr(fullKey).pttl(fullKey).exec()) as [
        [Error | null, number],
        [Error | null, number],
      ];
      let remaining = ttl;
      if (ttl < 0) {
        await redis.pexpire(fullKey, windowMs);
        remaining = windowMs;
      }
      return { count, resetAt: Date.now() + remaining };
    },
    async close() {
      await (await connecting).quit();
    },
  };
}
