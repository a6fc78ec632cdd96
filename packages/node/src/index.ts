export type { LoadedKit, LoadKitOptions } from './load-kit.js';
export { currentBranch, loadKit, renderDeadlineFromEnv } from './load-kit.js';
export type { OpenedRateLimitStore } from './rate-limit-store.js';
export { openRateLimitStore } from './rate-limit-store.js';
export type { RedisRateLimitStoreOptions } from './redis-rate-limit.js';
export { createRedisRateLimitStore } from './redis-rate-limit.js';
export type { RenderPool, RenderPoolOptions } from './render-pool/render-pool.js';
export { createRenderPool, DEFAULT_RENDER_DEADLINE_MS, defaultRenderWorkers } from './render-pool/render-pool.js';
export { renderCutShort } from './render-pool/work.js';
