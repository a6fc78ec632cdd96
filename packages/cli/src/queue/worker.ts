import { setTimeout as sleep } from 'node:timers/promises';
import { KitError } from '@kit/core';
import type { JobWithMetadata, PgBoss } from 'pg-boss';
import type { QueueConnection } from './connection.js';
import { closeEngine, engineQueueName, openEngine, queueSchema } from './engine.js';
import type { JobHandler, SyncJobData } from './sync-run.js';

/** What {@link runWorker} is given. */
export interface RunWorkerOptions {
  connection: QueueConnection;
  /** The Kit queue to take sync runs from. */
  queue: string;
  /** Runs one sync run. */
  handle: JobHandler;
  /**
   * Stops the worker gracefully: no new job is taken, a running one may finish within
   * `graceSeconds`, after which it is aborted and handed back to the queue.
   */
  signal?: AbortSignal;
  /** Stops the worker now: running jobs are aborted and handed back to the queue at once. */
  forceSignal?: AbortSignal;
  /** Jobs run at the same time. @default 1 */
  concurrency?: number;
  /** Seconds between looks at an empty queue. @default 2 */
  pollIntervalSeconds?: number;
  /** Seconds between pg-boss maintenance runs, which retry the jobs of workers that died. @default 30 */
  maintenanceIntervalSeconds?: number;
  /** Seconds a running job may take to finish once a graceful stop begins. @default 20 */
  graceSeconds?: number;
  /** Told about every job the worker starts and ends, for the command to print. */
  onEvent?: (event: WorkerEvent) => void;
}

/** A job as the worker's events name it. */
export interface WorkerJobRef {
  job: string;
  set: string;
  branch: string;
  /** This attempt's number, from 1. */
  attempt: number;
  /** Attempts the job has in all. */
  attempts: number;
}

/** What the worker reports while it runs (`kit worker --json` prints one per line). */
export type WorkerEvent =
  | { type: 'ready'; queue: string; concurrency: number }
  | ({ type: 'started' } & WorkerJobRef)
  | ({ type: 'completed'; result: unknown } & WorkerJobRef)
  | ({ type: 'failed'; error: string; retry: boolean } & WorkerJobRef)
  | ({ type: 'released'; reason: string } & WorkerJobRef)
  | ({ type: 'lost'; reason: string } & WorkerJobRef)
  | { type: 'stopping'; running: number; graceSeconds: number }
  | { type: 'error'; error: string }
  | { type: 'stopped'; completed: number; failed: number; released: number };

/** How many jobs a worker ended each way, returned when it stops. */
export interface WorkerSummary {
  completed: number;
  failed: number;
  /** Handed back to the queue because the worker stopped mid-run. */
  released: number;
}

/** Why a running job's own signal was aborted. */
type AbortCause = 'stopped' | 'expired';

class JobAborted extends Error {
  constructor(readonly why: AbortCause) {
    super(why === 'stopped' ? 'the worker stopped' : 'the job ran past its expiry');
  }
}

/**
 * Processes sync runs from a Kit queue until `signal` (graceful) or `forceSignal` aborts: takes one
 * job at a time per slot from pg-boss (`fetch`), calls `handle(payload, { signal })`, and records
 * the outcome with pg-boss's `complete` or `fail`, awaited before the next job. A failed attempt
 * goes back to the queue after the job's backoff until its attempts run out, then stays `failed`
 * with the error. A worker killed outright (SIGKILL) records nothing: pg-boss's maintenance, run by
 * every live worker, fails the job once its expiry passes and another worker retries it. A run
 * that outlives its own expiry is aborted here first, so it cannot complete a job that another
 * worker has taken over.
 *
 * pg-boss's own `work()` is not used: it records outcomes without awaiting them and gives the
 * handler no abort signal, which a graceful stop needs.
 *
 * @example
 * const stop = new AbortController();
 * process.once('SIGTERM', () => stop.abort());
 * await runWorker({ connection: { url }, queue: 'default', handle: runSyncJob, signal: stop.signal });
 */
export async function runWorker(options: RunWorkerOptions): Promise<WorkerSummary> {
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
    throw new KitError('argument.invalid', `concurrency must be a whole number from 1 to 64 (got ${concurrency}).`);
  }
  const pollMs = Math.max(500, (options.pollIntervalSeconds ?? 2) * 1000);
  const graceMs = Math.max(0, (options.graceSeconds ?? 20) * 1000);
  const emit = options.onEvent ?? (() => {});
  const summary: WorkerSummary = { completed: 0, failed: 0, released: 0 };

  const boss = await openEngine(options.connection, options.queue, 'sync', {
    supervise: true,
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
  });
  boss.on('error', (error: unknown) => emit({ type: 'error', error: messageOf(error) }));
  const name = engineQueueName(options.queue, 'sync');
  const schema = queueSchema(options.connection);
  const fetching = new AbortController();
  const running = new Map<string, AbortController>();
  let graceTimer: NodeJS.Timeout | undefined;
  const abortRunning = () => {
    for (const controller of running.values()) controller.abort(new JobAborted('stopped'));
  };
  const stopGracefully = () => {
    if (fetching.signal.aborted) return;
    fetching.abort();
    emit({ type: 'stopping', running: running.size, graceSeconds: graceMs / 1000 });
    graceTimer = setTimeout(abortRunning, graceMs);
  };
  const stopNow = () => {
    stopGracefully();
    abortRunning();
  };
  options.signal?.addEventListener('abort', stopGracefully, { once: true });
  options.forceSignal?.addEventListener('abort', stopNow, { once: true });
  if (options.signal?.aborted) stopGracefully();
  if (options.forceSignal?.aborted) stopNow();

  const runOne = async (job: JobWithMetadata<SyncJobData>) => {
    const ref = refOf(job);
    const controller = new AbortController();
    running.set(job.id, controller);
    // A second before the queue may take the job for dead, this worker lets go of it.
    const expiryMs = Math.max(500, Number(job.expireInSeconds) * 1000 - 1000);
    const expiry = setTimeout(() => controller.abort(new JobAborted('expired')), expiryMs);
    emit({ type: 'started', ...ref });
    try {
      const result = toStoredJson(
        await untilAborted(options.handle(job.data.payload, { signal: controller.signal }), controller.signal),
      );
      const { affected } = (await boss.complete(name, job.id, { result })) as unknown as { affected: number };
      if (affected === 1) {
        summary.completed++;
        emit({ type: 'completed', ...ref, result });
      } else {
        emit({
          type: 'lost',
          ...ref,
          reason: 'the job was no longer this worker’s when it finished; its result was not recorded',
        });
      }
    } catch (error) {
      const aborted = controller.signal.aborted ? (controller.signal.reason as JobAborted).why : null;
      if (aborted === 'stopped') {
        await release(boss, schema, name, job.id);
        summary.released++;
        emit({
          type: 'released',
          ...ref,
          reason: 'the worker stopped before the run finished; the run goes back to the queue',
        });
      } else {
        const message =
          aborted === 'expired'
            ? `the run took longer than the job's expiry (${Number(job.expireInSeconds)} s) and was stopped`
            : messageOf(error);
        await boss.fail(name, job.id, { error: { name: errorName(error), message } });
        summary.failed++;
        emit({ type: 'failed', ...ref, error: message, retry: ref.attempt < ref.attempts });
      }
    } finally {
      clearTimeout(expiry);
      running.delete(job.id);
    }
  };

  const slot = async () => {
    while (!fetching.signal.aborted) {
      let job: JobWithMetadata<SyncJobData> | undefined;
      try {
        [job] = await boss.fetch<SyncJobData>(name, { batchSize: 1, includeMetadata: true });
      } catch (error) {
        emit({ type: 'error', error: `could not take a job from the queue: ${messageOf(error)}` });
      }
      if (job === undefined) {
        await sleep(pollMs, undefined, { signal: fetching.signal }).catch(() => {});
        continue;
      }
      try {
        if (fetching.signal.aborted) {
          // Taken while the worker began to stop: hand it back unstarted rather than start a run
          // the grace period may not cover.
          await release(boss, schema, name, job.id);
          summary.released++;
          emit({ type: 'released', ...refOf(job), reason: 'the worker was stopping; the run goes back to the queue' });
          continue;
        }
        await runOne(job);
      } catch (error) {
        // Recording the outcome failed (the database went away): the job stays active and expires.
        emit({ type: 'error', error: `could not record the outcome of job ${job.id}: ${messageOf(error)}` });
      }
    }
  };

  try {
    emit({ type: 'ready', queue: options.queue, concurrency });
    await Promise.all(Array.from({ length: concurrency }, slot));
  } finally {
    clearTimeout(graceTimer);
    options.signal?.removeEventListener('abort', stopGracefully);
    options.forceSignal?.removeEventListener('abort', stopNow);
    await closeEngine(boss);
  }
  emit({ type: 'stopped', ...summary });
  return summary;
}

/** A job as the worker's events name it: the attempt this fetch started, of how many. */
function refOf(job: JobWithMetadata<SyncJobData>): WorkerJobRef {
  return {
    job: job.id,
    set: job.data.set,
    branch: job.data.branch,
    attempt: job.retryCount + 1,
    attempts: job.retryLimit + 1,
  };
}

/**
 * Hands a job whose run was stopped back to the queue, for another worker to take at once. pg-boss
 * has no release, so the attempt is failed; when that was its last attempt one more is granted
 * (pg-boss's `retry`), so stopping a worker never fails a run for good, and the backoff a failure
 * earns is waived (the run did not fail).
 */
async function release(boss: PgBoss, schema: string, name: string, id: string): Promise<void> {
  await boss.fail(name, id, {
    error: { name: 'WorkerStopped', message: 'the worker stopped before the run finished' },
  });
  const after = await boss.getJobById(name, id);
  if (after?.state === 'failed') await boss.retry(name, id);
  await boss
    .getDb()
    .executeSql(`UPDATE ${schema}.job SET start_after = now() WHERE name = $1 AND id = $2 AND state = 'retry'`, [
      name,
      id,
    ]);
}

/** Resolves or rejects with `work`, or rejects as soon as `signal` aborts, whichever comes first. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** The handler's result as it will be stored (JSON); a result JSON cannot hold fails the attempt. */
function toStoredJson(result: unknown): unknown {
  if (result === undefined) return null;
  try {
    return JSON.parse(JSON.stringify(result)) as unknown;
  } catch (error) {
    throw new KitError('internal', `the job's result cannot be stored as JSON: ${messageOf(error)}`, { cause: error });
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : 'Error';
}
