import { randomUUID } from 'node:crypto';
import { closedPort, startTcpProxy } from '@kit/core/testing';
import { createRedisRateLimitStore } from '@kit/node';
import { afterAll, describe, expect, it } from 'vitest';
import { createKitApp } from './app.js';
import { fixtureKit } from './testing/fixture.js';

const redisUrl = process.env.KIT_TEST_REDIS_URL;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const WINDOW = 60_000;

const stores: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  for (const store of stores) await store.close();
});

function store(url: string, keyPrefix: string, warnings: string[] = []) {
  const created = createRedisRateLimitStore({ url, keyPrefix, warn: (message) => warnings.push(message) });
  stores.push(created);
  return created;
}

describe('the Redis rate-limit store when Redis cannot be reached at all', () => {
  it('counts in this process instead of failing, and warns once', async () => {
    const warnings: string[] = [];
    const limits = store(`redis://127.0.0.1:${await closedPort()}`, 'kit:rl:', warnings);
    const counts = [];
    for (let i = 0; i < 5; i++) counts.push((await limits.hit('mcp:docs:ip:192.0.2.1', WINDOW)).count);
    expect(counts).toEqual([1, 2, 3, 4, 5]);
    expect((await limits.hit('mcp:docs:ip:192.0.2.2', WINDOW)).count).toBe(1);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/Redis rate-limit store at redis:\/\/127\.0\.0\.1:\d+\/? is unavailable/);
    expect(warnings[0]).toMatch(/each process counts rate limits on its own/);
  });

  it('keeps answering MCP and feedback, and still refuses a caller over the limit', async () => {
    const limits = store(`redis://127.0.0.1:${await closedPort()}`, 'kit:rl:');
    const app = createKitApp({
      kit: fixtureKit({ mcp: { web: { rate_limit: '2,1' } }, feedback: { enabled: true, rate_limit: '1,1' } }),
      rateLimitStore: limits,
    });
    const ping = () =>
      app.request('http://localhost/docs/mcp', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
    expect((await ping()).status).toBe(200);
    expect((await ping()).status).toBe(200);
    const refused = await ping();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const feedback = () =>
      app.request('http://localhost/docs/_kit/feedback', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ path: 'index', helpful: true }),
      });
    expect((await feedback()).status).not.toBe(500);
    expect((await feedback()).status).toBe(429);
  });
});

describe.skipIf(!redisUrl)('the Redis rate-limit store with a real Redis', () => {
  // A prefix of this run's own: its keys expire with their window and touch no one else's.
  const prefix = `kit:test:rl:${randomUUID()}:`;

  it('shares one count between two stores, as between two server processes', async () => {
    const first = store(redisUrl!, prefix);
    const second = store(redisUrl!, prefix);
    const counts = [];
    for (let i = 0; i < 6; i++) counts.push((await (i % 2 === 0 ? first : second).hit('shared', WINDOW)).count);
    expect(counts).toEqual([1, 2, 3, 4, 5, 6]);
    const { resetAt } = await first.hit('shared', WINDOW);
    // The window was set when the key was made and is not pushed back by later hits.
    expect(resetAt).toBeGreaterThan(Date.now());
    expect(resetAt).toBeLessThanOrEqual(Date.now() + WINDOW);
  });

  it('takes back a hit for every store sharing it, never below zero and never making a key', async () => {
    const first = store(redisUrl!, prefix);
    const second = store(redisUrl!, prefix);
    await first.hit('undo', WINDOW);
    await second.hit('undo', WINDOW);
    await first.undo('undo');
    expect((await second.hit('undo', WINDOW)).count).toBe(2);
    for (let i = 0; i < 4; i++) await second.undo('undo');
    expect((await first.hit('undo', WINDOW)).count).toBe(1);
    // An undo of a key no hit made leaves nothing behind: the next hit opens a window at one.
    await first.undo('undo-unknown');
    expect((await first.hit('undo-unknown', WINDOW)).count).toBe(1);
  });

  it('counts in the process while Redis is down, warns once, and shares the count again once it is back', async () => {
    const target = new URL(redisUrl!);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    try {
      const warnings: string[] = [];
      const limits = store(proxy.through(redisUrl!), prefix, warnings);
      const shared = store(redisUrl!, prefix);
      expect((await limits.hit('outage', WINDOW)).count).toBe(1);
      expect((await shared.hit('outage', WINDOW)).count).toBe(2);

      await proxy.down();
      const during = [];
      for (let i = 0; i < 4; i++) during.push((await limits.hit('outage', WINDOW)).count);
      // Counted in this process alone: a limit still holds, from a fresh count.
      expect(during).toEqual([1, 2, 3, 4]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/is unavailable/);

      await proxy.up();
      // ioredis reconnects by itself; the store says so once.
      for (let tries = 0; tries < 100 && warnings.length < 2; tries++) await sleep(100);
      expect(warnings).toHaveLength(2);
      expect(warnings[1]).toMatch(/answers again/);
      // The shared count (2 before the outage) goes on in Redis.
      expect((await limits.hit('outage', WINDOW)).count).toBe(3);
      expect((await shared.hit('outage', WINDOW)).count).toBe(4);
    } finally {
      await proxy.close();
    }
  }, 180_000);

  it('counts in the process when Redis hangs rather than refuses, instead of waiting on it', async () => {
    const target = new URL(redisUrl!);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    try {
      const warnings: string[] = [];
      const limits = store(proxy.through(redisUrl!), prefix, warnings);
      expect((await limits.hit('hang', WINDOW)).count).toBe(1);
      proxy.hang();
      const during = [];
      for (let i = 0; i < 3; i++) during.push((await limits.hit('hang', WINDOW)).count);
      expect(during).toEqual([1, 2, 3]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/is unavailable \(Command timed out\)/);
    } finally {
      await proxy.close();
    }
  }, 180_000);
});
