import type { Writable } from 'node:stream';
import { KitError, type ResolvedConfig } from '@kit/core';
import { writeLine } from '../io.js';
import { resolveQueue } from './connection.js';
import { type EnqueuedSyncRun, enqueueSyncRun } from './enqueue.js';
import { formatSyncStatus, type SyncRunRecord, syncRunStatus } from './status.js';
import { type RetryPolicy, type SyncRunPayload, syncRunExpirySeconds } from './sync-run.js';

/** Options of {@link enqueueFromCli} beyond the payload. */
export interface EnqueueFromCliOptions {
  /** The Kit queue (`kit sync --queue` takes `ai.sync.queue`, env `KIT_SYNC_QUEUE`, else `default`). */
  queue?: string;
  /** The branch the run is for. @default the branch the project at `config.root` is on */
  branch?: string;
  /** Retry settings stored with the job. @default 3 attempts, 60 s first delay, exponential backoff */
  retry?: Partial<RetryPolicy>;
  /** The PostgreSQL schema of the queue's tables. @default 'kit_queue' */
  schema?: string;
}

/**
 * `kit sync --queue`: enqueues the run the payload describes on the configured queue, for
 * `kit worker` to run, and returns the job (or the waiting run it was coalesced into). The run's
 * set is `payload.set` or the default set; its expiry follows `ai.sync.timeout × ai.sync.max_steps`.
 *
 * @example
 * const run = await enqueueFromCli(kit.config, { cwd: kit.config.root, set: 'docs' });
 * writeLine(io.stdout, formatEnqueued(run));
 */
export async function enqueueFromCli(
  config: ResolvedConfig,
  payload: SyncRunPayload,
  options: EnqueueFromCliOptions = {},
): Promise<EnqueuedSyncRun> {
  const set = payload.set ?? config.default;
  if (config.sets[set] === undefined) {
    throw new KitError(
      'set.not_found',
      `No doc set \`${set}\`; the config declares ${Object.keys(config.sets)
        .map((key) => `\`${key}\``)
        .join(', ')}. Pass one of those to --set.`,
    );
  }
  const { name, connection } = resolveQueue(config, options.queue, options.schema);
  const branch = options.branch ?? (await (await import('@kit/node')).currentBranch(config.root));
  return enqueueSyncRun({
    connection,
    queue: name,
    payload,
    set,
    branch,
    expireInSeconds: syncRunExpirySeconds(config.ai.sync),
    ...(options.retry ? { retry: options.retry } : {}),
  });
}

/** The line `kit sync --queue` prints for an enqueued run. */
export function formatEnqueued(run: EnqueuedSyncRun): string {
  return run.coalesced
    ? `A sync run for ${run.set}@${run.branch} was already waiting on queue \`${run.queue}\` with the same options: job ${run.id} covers this one. kit sync --status shows it.`
    : `Queued sync run ${run.id} for ${run.set}@${run.branch} on queue \`${run.queue}\`; kit worker runs it. kit sync --status shows it.`;
}

/** Options of {@link printSyncStatus}. */
export interface PrintSyncStatusOptions {
  json?: boolean;
  /** The Kit queue. @default `ai.sync.queue`, else `default` */
  queue?: string;
  /** Most runs listed. @default 20 */
  limit?: number;
  /** The PostgreSQL schema of the queue's tables. @default 'kit_queue' */
  schema?: string;
}

/**
 * `kit sync --status [--json]`: prints the recent sync runs of the configured queue, newest
 * first (as `{ queue, runs }` with `--json`), and returns them.
 *
 * @example
 * await printSyncStatus(context.io.stdout, kit.config, { json: true });
 */
export async function printSyncStatus(
  out: Writable,
  config: ResolvedConfig,
  options: PrintSyncStatusOptions = {},
): Promise<SyncRunRecord[]> {
  const { name, connection } = resolveQueue(config, options.queue, options.schema);
  const runs = await syncRunStatus({ connection, queue: name, limit: options.limit ?? 20 });
  if (options.json) writeLine(out, JSON.stringify({ queue: name, runs }, null, 2));
  else writeLine(out, formatSyncStatus(name, runs));
  return runs;
}
