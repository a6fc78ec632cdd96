import type { QueueConnection } from './connection.js';
import { closeEngine, engineQueueName, openEngine, queueSchema } from './engine.js';
import type { SyncJobData } from './sync-run.js';

/** Where a sync run is. */
export type SyncRunState = 'queued' | 'running' | 'retrying' | 'completed' | 'failed' | 'cancelled';

/** One sync run as `kit sync --status` shows it. */
export interface SyncRunRecord {
  id: string;
  queue: string;
  set: string;
  branch: string;
  state: SyncRunState;
  /** Attempts started so far. */
  attempts: number;
  /** Attempts the run has in all. */
  maxAttempts: number;
  /** ISO timestamps. */
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** When a queued or retrying run may start next. */
  nextAttemptAt: string | null;
  /** What the run returned, once completed. */
  result: unknown;
  /** The last attempt's error (a failed run's, or a retrying run's last). */
  error: string | null;
  /** The options the run was enqueued with. */
  payload: SyncJobData['payload'];
}

/** What {@link syncRunStatus} is given. */
export interface SyncRunStatusOptions {
  connection: QueueConnection;
  queue: string;
  /** Most runs listed, newest first. @default 20 */
  limit?: number;
}

const STATES: Record<string, SyncRunState> = {
  created: 'queued',
  retry: 'retrying',
  active: 'running',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

interface JobRow {
  id: string;
  state: string;
  data: SyncJobData;
  output: Record<string, unknown> | null;
  retry_count: number;
  retry_limit: number;
  created_on: Date;
  started_on: Date | null;
  completed_on: Date | null;
  start_after: Date;
}

/**
 * The most recent sync runs of a Kit queue, newest first, from pg-boss's job table (pg-boss
 * deletes a finished run 7 days after it ends).
 *
 * @example
 * const runs = await syncRunStatus({ connection: { url }, queue: 'default', limit: 10 });
 * runs[0].state; // 'completed'
 */
export async function syncRunStatus(options: SyncRunStatusOptions): Promise<SyncRunRecord[]> {
  const limit = options.limit ?? 20;
  const schema = queueSchema(options.connection);
  const boss = await openEngine(options.connection, options.queue, 'sync');
  try {
    const columns =
      'id, state::text AS state, data, output, retry_count, retry_limit, created_on, started_on, completed_on, start_after';
    const { rows } = await boss
      .getDb()
      .executeSql(`SELECT ${columns} FROM ${schema}.job WHERE name = $1 ORDER BY created_on DESC, id LIMIT $2`, [
        engineQueueName(options.queue, 'sync'),
        limit,
      ]);
    return (rows as JobRow[]).map((row) => toRecord(row, options.queue));
  } finally {
    await closeEngine(boss);
  }
}

function toRecord(row: JobRow, queue: string): SyncRunRecord {
  const state = STATES[row.state] ?? 'queued';
  const started = row.started_on !== null;
  const output = row.output ?? {};
  return {
    id: row.id,
    queue,
    set: row.data.set,
    branch: row.data.branch,
    state,
    // pg-boss counts retries as the job is fetched again; a job that never started has no attempt.
    attempts: started ? row.retry_count + 1 : 0,
    maxAttempts: row.retry_limit + 1,
    createdAt: row.created_on.toISOString(),
    startedAt: row.started_on?.toISOString() ?? null,
    finishedAt: state === 'completed' || state === 'failed' ? (row.completed_on?.toISOString() ?? null) : null,
    nextAttemptAt: state === 'queued' || state === 'retrying' ? row.start_after.toISOString() : null,
    result: state === 'completed' ? (output.result ?? null) : null,
    error: state === 'completed' ? null : errorOf(output),
    payload: row.data.payload,
  };
}

/** The error a failed attempt stored: ours (`error.message`), or pg-boss's own (an expiry's `value.message`). */
function errorOf(output: Record<string, unknown>): string | null {
  for (const key of ['error', 'value'] as const) {
    const inner = output[key];
    if (inner !== null && typeof inner === 'object' && typeof (inner as { message?: unknown }).message === 'string') {
      return (inner as { message: string }).message;
    }
  }
  return typeof output.message === 'string' ? output.message : null;
}

/**
 * The runs as a table for a person: one line per run with its state, set and branch, attempts and
 * times, and under it the result's summary or the error.
 */
export function formatSyncStatus(queue: string, runs: SyncRunRecord[], now: Date = new Date()): string {
  if (runs.length === 0) return `No sync runs on queue \`${queue}\`. kit sync --queue enqueues one.`;
  const lines = [`Sync runs on queue \`${queue}\`, newest first:`];
  for (const run of runs) {
    const when = run.finishedAt ?? run.startedAt ?? run.createdAt;
    const tries = run.attempts === 0 ? `0/${run.maxAttempts} attempts` : `attempt ${run.attempts}/${run.maxAttempts}`;
    lines.push(`${run.state.padEnd(9)}  ${run.set}@${run.branch}  ${tries}  ${ago(when, now)}  job ${run.id}`);
    if (run.state === 'completed') lines.push(`           result: ${summarize(run.result)}`);
    else if (run.error !== null)
      lines.push(`           ${run.state === 'failed' ? 'error' : 'last error'}: ${run.error}`);
    if (
      (run.state === 'queued' || run.state === 'retrying') &&
      run.nextAttemptAt !== null &&
      new Date(run.nextAttemptAt) > now
    ) {
      lines.push(`           next attempt ${until(run.nextAttemptAt, now)}`);
    }
  }
  return lines.join('\n');
}

/** A short line for a result: its `summary` when it has one, else its counts and short values. */
export function summarize(result: unknown): string {
  if (result === null || result === undefined) return 'none';
  if (typeof result !== 'object' || Array.isArray(result)) return truncate(JSON.stringify(result));
  const record = result as Record<string, unknown>;
  if (typeof record.summary === 'string') return truncate(record.summary);
  const parts: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    if (Array.isArray(value)) parts.push(`${key}: ${value.length}`);
    else if (typeof value === 'number' || typeof value === 'boolean') parts.push(`${key}: ${value}`);
    else if (typeof value === 'string' && value.length <= 40) parts.push(`${key}: ${value}`);
  }
  return parts.length === 0 ? truncate(JSON.stringify(result)) : truncate(parts.join(', '));
}

function truncate(text: string, max = 160): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function ago(iso: string, now: Date): string {
  return `${duration(now.getTime() - new Date(iso).getTime())} ago`;
}

function until(iso: string, now: Date): string {
  return `in ${duration(new Date(iso).getTime() - now.getTime())}`;
}

function duration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours}h` : `${Math.round(hours / 24)}d`;
}
