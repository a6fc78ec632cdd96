import type { CacheSetOptions, CacheStore } from '@kit/core';
import { connectFailFastRedis, redactedRedisUrl } from './fail-fast-redis.js';
import type { Redis } from 'ioredis';

/** Options of {@link createRedisCacheStore}. */
export interface RedisCacheStoreOptions {
  /** `redis://` or `rediss://` URL (`stores.{name}.url`). */
  url: string;
  /** Put before every key, so one Redis can serve several applications. @default 'kit:cache:' */
  keyPrefix?: string;
  /** Seconds an entry lives when `set` names none; content-addressed keys of old content age out. @default 86400 */
  ttlSeconds?: number;
  /** Longest one command may take before Redis counts as unavailable for it, in milliseconds. @default 500 */
  commandTimeoutMs?: number;
  /** Where the one warning of each outage goes. @default console.warn */
  warn?: (message: string) => void;
}

const DEFAULT_TTL_SECONDS = 24 * 60 * 60;

/**
 * The `redis` cache store: one Redis shared by every server process, so a page rendered or a list
 * read by one process is there for the others. Values are stored as JSON with a time to live.
 *
 * Redis being down never fails a request: while it cannot be reached, `get` answers `undefined`
 * and `set` and `delete` do nothing, so the set reads the database; one warning is written when an
 * outage begins, and the store picks Redis up again when it is back. ioredis is loaded on creation,
 * not on import, so an application without Redis never loads it.
 *
 * @example
 * const store = createRedisCacheStore({ url: 'redis://127.0.0.1:6379' });
 * await store.set('k', { pages: [] });
 * await store.get('k'); // { pages: [] }
 * await store.close();
 */
export function createRedisCacheStore(options: RedisCacheStoreOptions): CacheStore {
  const prefix = options.keyPrefix ?? 'kit:cache:';
  const ttl = options.ttlSeconds ?? DEFAULT_TTL_SECONDS;
  const timeout = options.commandTimeoutMs ?? 500;
  const warn = options.warn ?? ((message: string) => console.warn(message));
  const where = redactedRedisUrl(options.url);
  let warned = false;
  let closed = false;

  const outage = (error: unknown) => {
    if (warned || closed) return;
    warned = true;
    warn(
      `[kit] The Redis cache store at ${where} is unavailable (${(error as Error)?.message ?? error}); reading from the database until it is back.`,
    );
  };

  // Commands never wait for a connection: with Redis down the database answers at once.
  const connecting: Promise<Redis | null> = connectFailFastRedis({
    url: options.url,
    timeoutMs: timeout,
    purpose: 'The redis cache store',
    load: () => import('ioredis'),
    onError: outage,
    onReady: () => {
      warned = false;
    },
  });

  /** The client when it can take a command now, else null (counting the outage once). */
  const ready = async (): Promise<Redis | null> => {
    const redis = await connecting;
    if (!redis || closed) return null;
    if (redis.status !== 'ready') {
      outage(new Error(`connection ${redis.status}`));
      return null;
    }
    return redis;
  };

  return {
    async get<T>(key: string): Promise<T | undefined> {
      const redis = await ready();
      if (!redis) return undefined;
      let text: string | null;
      try {
        text = await redis.get(prefix + key);
      } catch (error) {
        outage(error);
        return undefined;
      }
      if (text === null) return undefined;
      try {
        return JSON.parse(text) as T;
      } catch {
        // Not written by this store (or cut short): a miss, like any entry that is not there.
        return undefined;
      }
    },

    async set(key: string, value: unknown, setOptions?: CacheSetOptions): Promise<void> {
      const text = JSON.stringify(value);
      if (text === undefined) throw new TypeError(`Cache value for "${key}" cannot be stored as JSON.`);
      const redis = await ready();
      if (!redis) return;
      const seconds = Math.max(1, Math.ceil(setOptions?.ttlSeconds ?? ttl));
      try {
        await redis.set(prefix + key, text, 'EX', seconds);
      } catch (error) {
        outage(error);
      }
    },

    async delete(key: string): Promise<void> {
      const redis = await ready();
      if (!redis) return;
      try {
        await redis.del(prefix + key);
      } catch (error) {
        outage(error);
      }
    },

    async close(): Promise<void> {
      closed = true;
      const redis = await connecting;
      if (!redis) return;
      // quit waits for Redis to answer; with Redis gone, disconnect ends the retries at once.
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    },
  };
}

/** The store's URL without its password, for messages. */
