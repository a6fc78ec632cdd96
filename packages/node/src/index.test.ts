import { describe, expect, it } from 'vitest';

describe('@kit/node public API', () => {
  it('exports exactly loadKit, the render pool, the cache stores and the rate-limit stores', async () => {
    expect(Object.keys(await import('./index.js')).sort()).toEqual([
      'DEFAULT_RENDER_DEADLINE_MS',
      'createCacheStore',
      'createRedisCacheStore',
      'createRedisRateLimitStore',
      'createRenderPool',
      'currentBranch',
      'defaultRenderWorkers',
      'loadKit',
      'openRateLimitStore',
      'renderCutShort',
      'renderDeadlineFromEnv',
    ]);
  });
});
