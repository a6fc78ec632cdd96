import { createMemoryRateLimitStore, type RateLimitStore } from '@kit/core';
import { connectFailFastRedis, redactedRedisUrl } from './fail-fast-redis.js';
import type { Redis } from 'ioredis';

/** Options of {@link createRedisRateLimitStore}. */
export interface RedisRateLimitStoreOptions {
  /** `redis://` or `rediss://` URL. */
  url: string;
  /** Put before every key, so one Redis can serve several applications. @default 'kit:rl:' */
  keyPrefix?: string;
  /** Longest one count may wait for Redis before this process counts alone, in milliseconds. @default 500 */
  commandTimeoutMs?: number;
  /** Where the one warning of each outage goes, and the line saying Redis is back. @default console.warn */
  warn?: (message: string) => void;
}

/**
 * A rate-limit store kept in Redis, so several server processes share one count per caller.
 * Each key is a fixed window: the first hit of a window creates the key with its expiry, and every
 * hit increments it, in one transaction, so no key is ever left without an expiry.
 *
 * Redis being unreachable never fails or slows a request: each process then counts in its own
 * memory (the same limit, held per process rather than across them) and answers within
 * `commandTimeoutMs` at worst, at once while the outage lasts. One warning is written when an
 * outage begins and one line when Redis answers again; the shared counts take over from then on.
 *
 * @example
 * const store = createRedisRateLimitStore({ url: 'redis://127.0.0.1:6379' });
 */
export function createRedisRateLimitStore(options: RedisRateLimitStoreOptions): RateLimitStore & {
  close(): Promise<void>;
} {
  const prefix = options.keyPrefix ?? 'kit:rl:';
  const timeout = options.commandTimeoutMs ?? 500;
  const warn = options.warn ?? ((message: string) => console.warn(message));
  const where = redactedRedisUrl(options.url);
  // Counts while Redis is away. Bounded, and fresh for each outage: an old outage's counts are stale.
  let fallback = createMemoryRateLimitStore();
  let down = false;
  let closed = false;
  // After a count that failed on a connection that still looked up (Redis hanging rather than
  // gone), counts skip Redis for a moment: one slow count a second, not one per request.
  let skipUntil = 0;

  const outage = (error: unknown) => {
    if (down || closed) return;
    down = true;
    fallback = createMemoryRateLimitStore();
    warn(
      `[kit] The Redis rate-limit store at ${where} is unavailable (${(error as Error)?.message ?? error}); each process counts rate limits on its own until it is back.`,
    );
  };

  const recovered = () => {
    if (!down) return;
    down = false;
    if (!closed) warn(`[kit] The Redis rate-limit store at ${where} answers again; limits are shared again.`);
  };

  const connecting: Promise<Redis | null> = connectFailFastRedis({
    url: options.url,
    timeoutMs: timeout,
    purpose: 'The Redis rate-limit store',
    load: () => import('ioredis'),
    onError: outage,
    onReady: () => {
      // A new connection is worth trying at once.
      skipUntil = 0;
      recovered();
    },
  });

  return {
    async hit(key, windowMs) {
      const redis = await connecting;
      if (!redis || closed || redis.status !== 'ready') {
        if (redis && !closed) outage(new Error(`connection ${redis.status}`));
        return fallback.hit(key, windowMs);
      }
      if (Date.now() < skipUntil) return fallback.hit(key, windowMs);
      const fullKey = prefix + key;
      try {
        const replies = await redis.multi().set(fullKey, '0', 'PX', windowMs, 'NX').incr(fullKey).pttl(fullKey).exec();
        const count = replies?.[1]?.[1];
        const ttl = replies?.[2]?.[1];
        if (typeof count !== 'number' || typeof ttl !== 'number') {
          throw replies?.find(([error]) => error)?.[0] ?? new Error('the transaction was discarded');
        }
        recovered();
        return { count, resetAt: Date.now() + (ttl > 0 ? ttl : windowMs) };
      } catch (error) {
        outage(error);
        skipUntil = Date.now() + RETRY_AFTER_FAILURE_MS;
        return fallback.hit(key, windowMs);
      }
    },
    async undo(key) {
      const redis = await connecting;
      if (!redis || closed || redis.status !== 'ready' || Date.now() < skipUntil) return fallback.undo(key);
      try {
        // Only a window that still exists is taken back from, and its expiry stays as it was.
        await redis.eval(UNDO_SCRIPT, 1, prefix + key);
        recovered();
      } catch (error) {
        outage(error);
        skipUntil = Date.now() + RETRY_AFTER_FAILURE_MS;
        await fallback.undo(key);
      }
    },
    async close() {
      closed = true;
      const redis = await connecting;
      if (!redis) return;
      // quit waits for Redis to answer; with Redis gone, disconnect ends the retries at once.
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    },
  };
}

/** Decrements a window's count when the window still exists and holds a hit; never creates a key. */
const UNDO_SCRIPT =
  "if redis.call('EXISTS', KEYS[1]) == 1 and tonumber(redis.call('GET', KEYS[1])) > 0 then return redis.call('DECR', KEYS[1]) end return 0";

/** How long counts skip a Redis whose last command failed while its connection stayed up. */
const RETRY_AFTER_FAILURE_MS = 1000;

/** The store's URL without its password, for messages. */
