import { loadOptionalPeer } from '@kit/core/node';

/** The part of an ioredis client {@link connectFailFastRedis} needs to watch its connection. */
export interface RedisConnectionEvents {
  on(event: 'error', listener: (error: unknown) => void): unknown;
  on(event: 'ready', listener: () => void): unknown;
}

/** Options of {@link connectFailFastRedis}. */
export interface FailFastRedisOptions<R extends RedisConnectionEvents> {
  /** `redis://` or `rediss://` URL. */
  url: string;
  /** Longest one command, and the first connection, may take, in milliseconds. */
  timeoutMs: number;
  /** What the client serves, for the "not installed" error ("The redis cache store"). */
  purpose: string;
  /** The caller's own `() => import('ioredis')`, so ioredis resolves from the package declaring it. */
  load: () => Promise<{ Redis: new (url: string, options: Record<string, unknown>) => R }>;
  /** Called on every connection error (an outage begins, or goes on). */
  onError(error: unknown): void;
  /** Called each time the connection is (again) ready. */
  onReady(): void;
}

/**
 * Opens an ioredis client that never makes a request wait for Redis: commands are not queued while
 * the connection is down, each is cut off after `timeoutMs`, reconnects back off up to 2 s, and the
 * first commands wait for the first connection no longer than one command may. Resolves to the
 * client (connected or not yet), or null when ioredis cannot be loaded (after `onError`).
 * ioredis is loaded here, not at import: it costs a server without Redis a quarter second of start-up.
 *
 * @example
 * const redis = await connectFailFastRedis({ url, timeoutMs: 500, purpose: 'The redis cache store',
 *   load: () => import('ioredis'), onError: warnOnce, onReady: () => {} });
 */
export function connectFailFastRedis<R extends RedisConnectionEvents>(
  options: FailFastRedisOptions<R>,
): Promise<R | null> {
  const { timeoutMs } = options;
  return loadOptionalPeer(options.load, 'ioredis', options.purpose).then(
    ({ Redis }) =>
      new Promise<R | null>((resolve) => {
        const redis = new Redis(options.url, {
          enableOfflineQueue: false,
          maxRetriesPerRequest: 1,
          commandTimeout: timeoutMs,
          connectTimeout: Math.max(timeoutMs, 1000),
          // ioredis keeps a closed client's socket (and so the process) up to 2 s by default.
          disconnectTimeout: timeoutMs,
          retryStrategy: (times: number) => Math.min(times * 200, 2000),
        });
        // Without a listener ioredis prints "Unhandled error event" for every failed reconnect; a
        // refused connection also answers the waiting commands now, as if Redis were away.
        redis.on('error', (error: unknown) => {
          options.onError(error);
          resolve(redis);
        });
        redis.on('ready', () => {
          options.onReady();
          resolve(redis);
        });
        setTimeout(() => resolve(redis), timeoutMs).unref?.();
      }),
    (error: unknown) => {
      options.onError(error);
      return null;
    },
  );
}

/**
 * A Redis URL fit for a log line: the password masked, or a neutral phrase when it does not parse.
 *
 * @example
 * redactedRedisUrl('redis://:s3cret@cache:6379'); // 'redis://:***@cache:6379'
 */
export function redactedRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the configured URL';
  }
}
