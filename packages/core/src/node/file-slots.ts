/**
 * File-system calls a few dozen at a time. A process may hold only so many open files (`ulimit -n`,
 * often 1,024); reading a set of thousands of pages all at once runs past it, and every read after
 * that fails with `EMFILE`. Calls made through {@link withFileSlot} share one pool per process (per
 * thread, for worker threads), so no fan-out of Kit's own holds more than {@link FILE_SLOTS} files
 * open, and a failure that passes (the limit reached by something else for a moment) is tried again.
 */

/** How many file-system calls run at once through {@link withFileSlot}, per process. */
export const FILE_SLOTS = 64;

/** Waits before each new try of a call that failed transiently: about 2.5 seconds in all. */
const RETRY_DELAYS_MS = [5, 10, 20, 40, 80, 160, 320, 640, 1280];

/** Errors that say "not now" rather than "not this file": too many open files, busy, try again. */
const TRANSIENT_CODES = new Set(['EMFILE', 'ENFILE', 'EAGAIN', 'EWOULDBLOCK', 'EBUSY']);

/**
 * True for a failure that passes on its own: the process (`EMFILE`) or the system (`ENFILE`) has
 * too many files open, or the resource is busy (`EAGAIN`, `EBUSY`).
 *
 * @example
 * isTransientFileError(Object.assign(new Error('too many open files'), { code: 'EMFILE' })); // true
 */
export function isTransientFileError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && TRANSIENT_CODES.has(code);
}

/** Options of {@link createFileSlots}. */
export interface FileSlotsOptions {
  /** Calls running at once. */
  slots: number;
  /** The wait before each retry of a transient failure; its length is the number of retries. */
  retryDelaysMs: readonly number[];
}

/** A pool of {@link createFileSlots}. */
export type FileSlots = <T>(call: () => Promise<T>) => Promise<T>;

/**
 * A pool that runs `call`s at most `slots` at a time, first come first served, and tries a call
 * again after each of `retryDelaysMs` while it fails transiently ({@link isTransientFileError}),
 * keeping its slot meanwhile. Any other failure, or a transient one that outlasts the retries, is
 * the call's own, unchanged. A call must not wait on another call of the same pool: with every slot
 * held by calls that wait, none would ever run.
 *
 * @example
 * const slots = createFileSlots({ slots: 8, retryDelaysMs: [10, 100] });
 * const text = await slots(() => readFile(file, 'utf8'));
 */
export function createFileSlots(options: FileSlotsOptions): FileSlots {
  let running = 0;
  const waiting: Array<() => void> = [];
  const acquire = (): Promise<void> | undefined => {
    if (running < options.slots) {
      running += 1;
      return undefined;
    }
    // The slot is handed over by release(), so `running` stays counted for the waiter.
    return new Promise((resume) => waiting.push(resume));
  };
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };
  return async (call) => {
    await acquire();
    try {
      for (let attempt = 0; ; attempt += 1) {
        try {
          return await call();
        } catch (error) {
          const delay = options.retryDelaysMs[attempt];
          if (delay === undefined || !isTransientFileError(error)) throw error;
          await new Promise((resume) => setTimeout(resume, delay));
        }
      }
    } finally {
      release();
    }
  };
}

const processSlots = createFileSlots({ slots: FILE_SLOTS, retryDelaysMs: RETRY_DELAYS_MS });

/**
 * Runs one file-system call (an `open`, `readFile`, `readdir`, `stat`, a process start) in the
 * process-wide pool: at most {@link FILE_SLOTS} at once, and a transient failure (`EMFILE`,
 * `ENFILE`, `EAGAIN`, `EBUSY`) tried again for about 2.5 seconds before it is given up as it
 * came. Wrap single calls, never a function that makes more calls through the pool.
 *
 * @example
 * const text = await withFileSlot(() => readFile(join(root, 'guide.md'), 'utf8'));
 */
export function withFileSlot<T>(call: () => Promise<T>): Promise<T> {
  return processSlots(call);
}

/**
 * `Promise.all(items.map(task))` with at most `concurrency` tasks running at once, results in the
 * order of `items`. The first failure rejects once the tasks already running have settled, and no
 * task starts after it. A task may use {@link withFileSlot}: the two bounds are separate.
 *
 * @example
 * const pages = await mapConcurrently(files, (file) => readPage(file), 32);
 */
export async function mapConcurrently<T, R>(
  items: readonly T[],
  task: (item: T, index: number) => Promise<R>,
  concurrency: number,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed: { error: unknown } | null = null;
  const worker = async () => {
    while (failed === null && next < items.length) {
      const index = next++;
      try {
        results[index] = await task(items[index]!, index);
      } catch (error) {
        failed ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  if (failed !== null) throw (failed as { error: unknown }).error;
  return results;
}
