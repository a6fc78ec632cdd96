import { KitError } from '@kit/core';
import type { PgBoss } from 'pg-boss';
import type { QueueConnection } from './connection.js';
import { closeEngine, engineQueueName, openEngine, queueSchema } from './engine.js';
import { type RetryPolicy, SYNC_RUN_DEFAULTS, type SyncJobData, type SyncRunPayload, syncRunKey } from './sync-run.js';

/** What {@link enqueueSyncRun} is given. */
export interface EnqueueSyncRunOptions {
  connection: QueueConnection;
  /** The Kit queue name (`default`, or a key of `queues`). */
  queue: string;
  payload: SyncRunPayload;
  /** The set the run works on (the resolved `--set`, or the default set). */
  set: string;
  /** The git branch the run is for; with `set`, the key of "one run at a time". */
  branch: string;
  /** Retry settings stored with the job. @default {@link SYNC_RUN_DEFAULTS} */
  retry?: Partial<RetryPolicy>;
  /** Seconds a worker may hold the job before it is taken for dead and retried. @default 3600 */
  expireInSeconds?: number;
}

/** The outcome of {@link enqueueSyncRun}. */
export interface EnqueuedSyncRun {
  /** The job id (`kit sync --status` lists it). */
  id: string;
  queue: string;
  set: string;
  branch: string;
  /**
   * True when a run for the same set and branch with the same options was already waiting: no
   * second job was made, and `id` is the waiting one's.
   */
  coalesced: boolean;
}

/**
 * Enqueues a `kit sync` run on a Kit queue, for `kit worker` to run. One run per set and branch
 * at a time: pg-boss's `stately` policy keeps, per set and branch, at most one run waiting and one
 * running. A run enqueued while another waits with the same options is coalesced into it (the
 * waiting run reads the code when it starts, so it covers both); one with other options is
 * refused, naming the waiting job. A run enqueued while another runs waits behind it.
 *
 * @example
 * const run = await enqueueSyncRun({ connection: { url }, queue: 'default', payload: { cwd }, set: 'docs', branch: 'main' });
 * run.id; // 'a3f1…'
 */
export async function enqueueSyncRun(options: EnqueueSyncRunOptions): Promise<EnqueuedSyncRun> {
  const retry = { ...SYNC_RUN_DEFAULTS, ...options.retry };
  if (!Number.isInteger(retry.attempts) || retry.attempts < 1) {
    throw new KitError('argument.invalid', `attempts must be a whole number of 1 or more (got ${retry.attempts}).`);
  }
  if (!Number.isInteger(retry.delaySeconds) || retry.delaySeconds < 0) {
    throw new KitError(
      'argument.invalid',
      `the retry delay must be a whole number of seconds, 0 or more (got ${retry.delaySeconds}).`,
    );
  }
  const { queue, set, branch, payload } = options;
  const boss = await openEngine(options.connection, queue, 'sync');
  try {
    const name = engineQueueName(queue, 'sync');
    const key = syncRunKey(set, branch);
    const data: SyncJobData = { set, branch, payload };
    // The waiting run may start between the refused send and the look-up: then send again.
    const schema = queueSchema(options.connection);
    for (let round = 0; round < 3; round++) {
      // pg-boss takes the oldest waiting job first, and a job whose set and branch is running cannot
      // start; ranking it last lets the runs of other sets and branches start before it.
      const behindRunning = await isRunning(boss, schema, name, key);
      const id = await boss.send(name, data as unknown as object, {
        priority: behindRunning ? -1 : 0,
        singletonKey: key,
        retryLimit: retry.attempts - 1,
        retryDelay: retry.delaySeconds,
        retryBackoff: retry.backoff,
        expireInSeconds: options.expireInSeconds ?? SYNC_RUN_DEFAULTS.expireInSeconds,
      });
      if (id !== null) return { id, queue, set, branch, coalesced: false };
      const waiting = await waitingRun(boss, schema, name, key);
      if (waiting === null) continue;
      if (canonicalJson(waiting.payload) === canonicalJson(payload)) {
        return { id: waiting.id, queue, set, branch, coalesced: true };
      }
      throw new KitError(
        'argument.invalid',
        `A sync run for set \`${set}\` on branch \`${branch}\` is already waiting on queue \`${queue}\` (job ${waiting.id}) with other options; one run per set and branch waits at a time. Let it start (kit sync --status shows it), then enqueue this one, or run kit sync without --queue.`,
        { details: { job: waiting.id, set, branch, queue } },
      );
    }
    throw new KitError(
      'internal',
      `Could not enqueue the sync run for set \`${set}\` on branch \`${branch}\`: the waiting run kept changing. Try again.`,
    );
  } finally {
    await closeEngine(boss);
  }
}

/** True when a run with this key is running. */
async function isRunning(boss: PgBoss, schema: string, name: string, key: string): Promise<boolean> {
  const { rows } = await boss
    .getDb()
    .executeSql(`SELECT 1 FROM ${schema}.job WHERE name = $1 AND singleton_key = $2 AND state = 'active' LIMIT 1`, [
      name,
      key,
    ]);
  return rows.length > 0;
}

/** The run waiting (not yet started) with this key, if any. */
async function waitingRun(
  boss: PgBoss,
  schema: string,
  name: string,
  key: string,
): Promise<{ id: string; payload: unknown } | null> {
  const { rows } = await boss
    .getDb()
    .executeSql(
      `SELECT id, data FROM ${schema}.job WHERE name = $1 AND singleton_key = $2 AND state = 'created' LIMIT 1`,
      [name, key],
    );
  const row = rows[0] as { id: string; data: SyncJobData } | undefined;
  return row === undefined ? null : { id: row.id, payload: row.data.payload };
}

/** JSON with object keys sorted, so two payloads compare by content. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
}
