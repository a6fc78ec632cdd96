export type { DiskIndexCacheOptions } from './disk-index-cache.js';
export { createDiskIndexCache, searchCodeFingerprint, searchIndexCacheDir } from './disk-index-cache.js';
export { createWorkerIndexBuilder } from './worker-index-builder.js';
