import { runSync, type SyncResult } from './sync.js';

export type { SyncResult } from './sync.js';

/**
 * A queued `kit sync` run, as the queue stores it: JSON only. `cwd` is the project folder the
 * worker runs in; the rest are `kit sync`'s flags.
 */
export type SyncJobPayload = {
  cwd: string;
  set?: string;
  base?: string;
  head?: string;
  provider?: string;
  model?: string;
  maxPages?: number;
  maxSteps?: number;
  dryRun?: boolean;
  remote?: string;
};

/**
 * Runs a queued sync job: exactly what `kit sync` runs with the same flags, in the job's project
 * folder, with the worker's environment (provider keys, `KIT_SYNC_TOKEN`). `signal` cancels it; what
 * was already written stays and the result says which pages were left.
 *
 * @example
 * const result = await runSyncJob({ cwd: '/srv/app', base: 'main', head: 'feature/x' }, { signal });
 */
export function runSyncJob(payload: SyncJobPayload, options: { signal?: AbortSignal }): Promise<SyncResult> {
  return runSync({
    cwd: payload.cwd,
    ...(payload.set !== undefined ? { set: payload.set } : {}),
    ...(payload.base !== undefined ? { base: payload.base } : {}),
    ...(payload.head !== undefined ? { head: payload.head } : {}),
    ...(payload.provider !== undefined ? { provider: payload.provider } : {}),
    ...(payload.model !== undefined ? { model: payload.model } : {}),
    ...(payload.maxPages !== undefined ? { maxPages: payload.maxPages } : {}),
    ...(payload.maxSteps !== undefined ? { maxSteps: payload.maxSteps } : {}),
    ...(payload.dryRun !== undefined ? { dryRun: payload.dryRun } : {}),
    ...(payload.remote !== undefined ? { remote: payload.remote } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}
