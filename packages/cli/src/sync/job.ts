import { runSync, type SyncFlags, type SyncResult } from './sync.js';

export type { SyncResult } from './sync.js';

/**
 * A queued `kit sync` run, as the queue stores it: JSON only. `cwd` is the project folder the
 * worker runs in; the rest are `kit sync`'s flags.
 */
export type SyncJobPayload = SyncFlags & { cwd: string };

/**
 * Runs a queued sync job: exactly what `kit sync` runs with the same flags, in the job's project
 * folder, with the worker's environment (provider keys, `KIT_SYNC_TOKEN`). `signal` cancels it; what
 * was already written stays and the result says which pages were left.
 *
 * @example
 * const result = await runSyncJob({ cwd: '/srv/app', base: 'main', head: 'feature/x' }, { signal });
 */
export function runSyncJob(payload: SyncJobPayload, options: { signal?: AbortSignal }): Promise<SyncResult> {
  return runSync({ ...payload, ...(options.signal ? { signal: options.signal } : {}) });
}
