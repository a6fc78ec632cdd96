import { randomUUID } from 'node:crypto';
import { resolveConfig } from '@kit/core';
import { describe, expect, it } from 'vitest';
import { openRateLimitStore } from './rate-limit-store.js';

const redisUrl = process.env.KIT_TEST_REDIS_URL;

describe('the rate-limit store a Kit server counts in', () => {
  it('is none (each process counts in memory) without KIT_REDIS_URL or a Redis cache store', async () => {
    expect(await openRateLimitStore(resolveConfig({ sets: { docs: {} } }, { env: {} }), {})).toBeNull();
    const memory = resolveConfig(
      { sets: { docs: {} }, stores: { local: { driver: 'memory' } }, cache: { store: 'local' } },
      { env: {} },
    );
    expect(await openRateLimitStore(memory, {})).toBeNull();
  });

  it.skipIf(!redisUrl)('is the Redis of the top-level cache store, shared by every process using it', async () => {
    const config = resolveConfig(
      { sets: { docs: {} }, stores: { shared: { driver: 'redis', url: redisUrl! } }, cache: { store: 'shared' } },
      { env: {} },
    );
    const env = { KIT_REDIS_PREFIX: `kit:test:rls:${randomUUID()}:` };
    const [first, second] = [await openRateLimitStore(config, env), await openRateLimitStore(config, env)];
    try {
      expect((await first!.hit('caller', 60_000)).count).toBe(1);
      expect((await second!.hit('caller', 60_000)).count).toBe(2);
    } finally {
      await first?.close();
      await second?.close();
    }
  });
});
