import { isKitError, KitError } from '@kit/core';
import type { KitDatabase } from './database.js';

/**
 * SQLSTATE codes meaning the server cannot serve this connection now (class 08 is every connection
 * exception): an administrator or an idle-connection killer ended the backend, the server is
 * shutting down or starting, or it has no connection slot left.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** Socket errors of a connection that went away or never came. */
const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** What `pg`, its pool and PGlite say when the connection is gone (they set no code for these). */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /not queryable/,
  /^timeout exceeded when trying to connect/,
  /^Cannot use a pool after calling end/,
  /^PGlite is closed/,
];

/**
 * Whether `error` (or any error in its `cause` chain: drizzle wraps the driver's error) says the
 * database cannot be reached, as opposed to a query that failed on its own merits.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 8; depth++) {
    if (isKitError(current, 'database.unavailable')) return true;
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(code))) return true;
    if (typeof code === 'string' && UNAVAILABLE_ERRNOS.has(code)) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

interface Outage {
  down: boolean;
  /** Whether this outage's start was written (and so its end will be). */
  announced: boolean;
  /** When an outage was last written, epoch milliseconds. */
  lastWarnedAt: number;
  /** Calls answered `database.unavailable` since the written outage began. */
  failures: number;
}

/**
 * At most one outage warning a minute: connections cut again and again (a restart loop, an
 * idle-connection killer under load) are one incident in the log, not a line per cut.
 */
const WARN_EVERY_MS = 60_000;

const outages = new WeakMap<KitDatabase, Outage>();

function outageOf(db: KitDatabase): Outage {
  let outage = outages.get(db);
  if (!outage) {
    outage = { down: false, announced: false, lastWarnedAt: Number.NEGATIVE_INFINITY, failures: 0 };
    outages.set(db, outage);
  }
  return outage;
}

/**
 * Turns a failure that means "the database cannot be reached" into the `database.unavailable`
 * KitError every surface maps (HTTP 503 with `Retry-After`, an MCP tool error), and writes one
 * warning when such an outage begins. Any other error comes back unchanged.
 */
export function databaseFailure(db: KitDatabase, error: unknown, warn: (message: string) => void): unknown {
  if (!isDatabaseUnavailable(error)) return error;
  const outage = outageOf(db);
  outage.failures += 1;
  if (!outage.down) {
    outage.down = true;
    const now = Date.now();
    if (now - outage.lastWarnedAt >= WARN_EVERY_MS) {
      outage.announced = true;
      outage.lastWarnedAt = now;
      outage.failures = 1;
      warn(
        `[kit] The docs database (${db.driver}) is unavailable: ${rootMessage(error)}. Requests that need it are answered 503 until it is back; the connection is retried on every request.`,
      );
    }
  }
  if (isKitError(error)) return error;
  return new KitError(
    'database.unavailable',
    'The docs database cannot be reached right now (it may be restarting or failing over). Try again in a few seconds; a change that was cut off either committed whole or not at all, so reading the page first tells which.',
    { cause: error },
  );
}

/**
 * Notes that the database answered; after an outage that was written, says once that it is back.
 * Outages that begin within a minute of the last one written are counted into it, not written.
 */
export function databaseAnswered(db: KitDatabase, warn: (message: string) => void): void {
  const outage = outages.get(db);
  if (!outage?.down) return;
  outage.down = false;
  if (!outage.announced) return;
  outage.announced = false;
  warn(
    `[kit] The docs database (${db.driver}) answers again; ${outage.failures} call${outage.failures === 1 ? ' was' : 's were'} answered database.unavailable meanwhile.`,
  );
}

function rootMessage(error: unknown): string {
  let current = error as { cause?: unknown; message?: unknown } | undefined;
  // drizzle's "Failed query: ..." says which statement; the driver's cause says why.
  while (current?.cause && typeof current.cause === 'object') current = current.cause as typeof current;
  return typeof current?.message === 'string' ? current.message : String(error);
}

/**
 * `target` with every method that returns a promise passing a rejection through
 * {@link databaseFailure}, and every resolution through {@link databaseAnswered}. Sync methods
 * and other properties pass through as they are.
 */
export function guardDatabaseCalls<T extends object>(db: KitDatabase, target: T, warn: (message: string) => void): T {
  const guarded = { ...target } as Record<string, unknown>;
  for (const [name, value] of Object.entries(target)) {
    if (typeof value !== 'function') continue;
    // Closing asks nothing of the database, so it says nothing about whether it answers.
    const reportsHealth = name !== 'close';
    guarded[name] = (...args: unknown[]) => {
      const result = (value as (...a: unknown[]) => unknown).apply(target, args);
      if (!(result instanceof Promise)) return result;
      return result.then(
        (answer) => {
          if (reportsHealth) databaseAnswered(db, warn);
          return answer;
        },
        (error: unknown) => {
          throw databaseFailure(db, error, warn);
        },
      );
    };
  }
  return guarded as T;
}
