import type { SyncJobPayload } from '../sync/job.js';

/** What a queued `kit sync` run is given: `kit sync`'s flags and the project folder it was run in. */
export type SyncRunPayload = SyncJobPayload;

/** What the queue stores for one sync run: the payload, plus the set and branch it is one run per. */
export interface SyncJobData {
  set: string;
  branch: string;
  payload: SyncRunPayload;
}

/** Runs one job: resolves with a JSON-serializable result, rejects to fail the attempt, stops on `signal`. */
export type JobHandler<Payload = SyncRunPayload> = (
  payload: Payload,
  options: { signal: AbortSignal },
) => Promise<unknown>;

/** Retry settings of a queued run; stored with the job when it is enqueued. */
export interface RetryPolicy {
  /** Attempts in all, the first included. @default 3 */
  attempts: number;
  /** Seconds before the first retry; with `backoff` each retry waits about twice as long as the last. @default 60 */
  delaySeconds: number;
  /** Exponential backoff with jitter (pg-boss's `retryBackoff`). @default true */
  backoff: boolean;
}

/** The defaults of a queued sync run, in one place. */
export const SYNC_RUN_DEFAULTS: RetryPolicy & { expireInSeconds: number } = {
  attempts: 3,
  delaySeconds: 60,
  backoff: true,
  // Overridden per run from `ai.sync.timeout × ai.sync.max_steps` by enqueueFromCli.
  expireInSeconds: 3600,
};

/**
 * The longest a sync run may hold a job before the queue takes it for dead and retries it
 * elsewhere: each of `max_steps` steps waits at most `timeout` seconds for the provider, plus a
 * minute for the rest of the run; at most 23 hours (pg-boss's ceiling is 24).
 *
 * @example
 * syncRunExpirySeconds({ timeout: 120, max_steps: 30 }); // 3660
 */
export function syncRunExpirySeconds(sync: { timeout: number; max_steps: number }): number {
  return Math.min(23 * 3600, Math.max(60, Math.ceil(sync.timeout * sync.max_steps) + 60));
}

/** The singleton key of a sync run: runs of the same set on the same branch never overlap. */
export function syncRunKey(set: string, branch: string): string {
  return JSON.stringify([set, branch]);
}
