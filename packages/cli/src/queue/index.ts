// The queue of `kit sync --queue` and `kit worker`, for the commands that use it.
export { enqueueFromCli, formatEnqueued, printSyncStatus } from './cli.js';
export type { EnqueueFromCliOptions, PrintSyncStatusOptions } from './cli.js';
export { DEFAULT_QUEUE, DEFAULT_QUEUE_SCHEMA, resolveQueue } from './connection.js';
export type { QueueConnection, ResolvedQueue } from './connection.js';
export { enqueueSyncRun } from './enqueue.js';
export type { EnqueuedSyncRun, EnqueueSyncRunOptions } from './enqueue.js';
export { formatSyncStatus, syncRunStatus } from './status.js';
export type { SyncRunRecord, SyncRunState, SyncRunStatusOptions } from './status.js';
export { SYNC_RUN_DEFAULTS, syncRunExpirySeconds } from './sync-run.js';
export type { JobHandler, RetryPolicy, SyncRunPayload } from './sync-run.js';
export { runWorker } from './worker.js';
export type { RunWorkerOptions, WorkerEvent, WorkerSummary } from './worker.js';
