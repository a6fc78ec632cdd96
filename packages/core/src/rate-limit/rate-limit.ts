import { KitError } from '../errors/kit-error.js';

/**
 * Where rate-limit counters live. Several server processes must share one store (Redis, in
 * `@kit/http-hono`); the memory store serves one process and tests.
 */
export interface RateLimitStore {
  /** Counts one request for `key` in its current fixed window and returns the count so far. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetAt: number }>;
  /**
   * Takes back one hit of `key` in its current window, for a request that turned out not to use
   * what was counted (Ask AI gives back the daily-budget place of a question no provider
   * answered). Nothing happens once the window has ended, or when the count is already zero.
   */
  undo(key: string): Promise<void>;
}

/** A parsed `requests,minutes` limit. */
export interface RateLimitRule {
  max: number;
  windowMs: number;
}

export interface RateLimitVerdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch milliseconds when the window ends. */
  resetAt: number;
  /** Seconds to wait before retrying (`Retry-After`); 0 when allowed. */
  retryAfterSeconds: number;
}

/**
 * Reads a rate limit as configuration writes it: `'requests,minutes'`, e.g. `'60,1'` is sixty
 * requests a minute. Throws `config.invalid` naming the value and the expected shape.
 *
 * @example
 * parseRateLimit('60,1'); // { max: 60, windowMs: 60000 }
 */
export function parseRateLimit(value: string, key = 'rate_limit'): RateLimitRule {
  const match = /^\s*(\d+)\s*,\s*(\d+(?:\.\d+)?)\s*$/.exec(String(value));
  const max = match ? Number(match[1]) : Number.NaN;
  const minutes = match ? Number(match[2]) : Number.NaN;
  if (!match || !Number.isSafeInteger(max) || max < 1 || !(minutes > 0)) {
    throw new KitError(
      'config.invalid',
      `${key} is "${value}", which is not a rate limit. Write it as 'requests,minutes' with both above zero, for example '60,1' for sixty requests a minute.`,
      { details: { key, value } },
    );
  }
  return { max, windowMs: Math.round(minutes * 60_000) };
}

export interface MemoryRateLimitStoreOptions {
  /** Most keys kept at once; when full, expired windows go first, then the least recently hit. Default 10000. */
  maxKeys?: number;
  /** Clock in epoch milliseconds (tests pass their own). */
  now?: () => number;
}

/**
 * A fixed-window counter store in this process's memory, bounded in size. Fits one process and
 * tests; servers that run several processes use a shared store so limits hold across them.
 *
 * @example
 * const store = createMemoryRateLimitStore({ maxKeys: 5000 });
 * await checkRateLimit(store, `mcp:${ip}`, parseRateLimit('60,1'));
 */
export function createMemoryRateLimitStore(options: MemoryRateLimitStoreOptions = {}): RateLimitStore & {
  readonly size: number;
} {
  const maxKeys = Math.max(1, options.maxKeys ?? 10_000);
  const now = options.now ?? Date.now;
  const windows = new Map<string, { count: number; resetAt: number }>();

  const makeRoom = (at: number) => {
    if (windows.size < maxKeys) return;
    for (const [key, window] of windows) {
      if (window.resetAt <= at) windows.delete(key);
    }
    // Map order is least recently hit first, because every hit re-inserts its key.
    while (windows.size >= maxKeys) {
      const oldest = windows.keys().next().value as string;
      windows.delete(oldest);
    }
  };

  return {
    get size() {
      return windows.size;
    },
    async hit(key, windowMs) {
      const at = now();
      const existing = windows.get(key);
      windows.delete(key);
      let window: { count: number; resetAt: number };
      if (existing && existing.resetAt > at) {
        window = { count: existing.count + 1, resetAt: existing.resetAt };
      } else {
        makeRoom(at);
        window = { count: 1, resetAt: at + windowMs };
      }
      windows.set(key, window);
      return { ...window };
    },
    async undo(key) {
      const window = windows.get(key);
      if (window && window.resetAt > now() && window.count > 0) window.count -= 1;
    },
  };
}

/**
 * Counts one request against a rule and says whether it may proceed. The key names the caller and
 * the surface (`mcp:docs:user:7`, `feedback:203.0.113.9`); the caller picks the user, else the IP.
 *
 * @example
 * const verdict = await checkRateLimit(store, `ask:${set}:${caller}`, parseRateLimit(config.ai.ask.rate_limit));
 * if (!verdict.allowed) return c.text('Too many requests', 429, { 'Retry-After': String(verdict.retryAfterSeconds) });
 */
export async function checkRateLimit(
  store: RateLimitStore,
  key: string,
  rule: RateLimitRule,
  now: number = Date.now(),
): Promise<RateLimitVerdict> {
  const { count, resetAt } = await store.hit(key, rule.windowMs);
  const allowed = count <= rule.max;
  return {
    allowed,
    limit: rule.max,
    remaining: Math.max(0, rule.max - count),
    resetAt,
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((resetAt - now) / 1000)),
  };
}
