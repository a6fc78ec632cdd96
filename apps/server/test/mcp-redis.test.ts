import { randomUUID } from 'node:crypto';
import { createConnection } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceProcess, spawnReferenceServer } from '../../../bench/mcp/support.js';

const redisUrl = process.env.KIT_TEST_REDIS_URL;

/** One Redis command over RESP, enough to read and remove this test's own counter. */
function redisCommand(url: string, ...args: string[]): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: hostname, port: Number(port || 6379) });
    let reply = '';
    socket.once('error', reject);
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString();
      if (reply.endsWith('\r\n') && !/^\$\d+\r\n$/.test(reply)) {
        socket.end();
        resolve(reply);
      }
    });
    socket.write(`*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`);
  });
}

async function ping(server: ReferenceProcess, id: number): Promise<Response> {
  return fetch(`${server.base}/docs/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' }),
  });
}

describe.skipIf(!redisUrl)('the web MCP rate limit shared by two reference-server processes through Redis', () => {
  const limit = 6;
  // A prefix of this run's own, so the counter is fresh and removing it touches no one else's keys.
  const prefix = `kit:test:mcp-redis:${randomUUID()}:`;
  const counterKey = `${prefix}mcp:docs:ip:127.0.0.1`;
  let first: ReferenceProcess;
  let second: ReferenceProcess;

  beforeAll(async () => {
    const env = { KIT_REDIS_URL: redisUrl!, KIT_REDIS_PREFIX: prefix, KIT_MCP_RATE_LIMIT: `${limit},1` };
    [first, second] = await Promise.all([spawnReferenceServer(env), spawnReferenceServer(env)]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
    if (redisUrl) await redisCommand(redisUrl, 'DEL', counterKey);
  });

  it('counts requests split across both processes against one limit, then answers 429 with Retry-After', async () => {
    expect(first.port).not.toBe(second.port);
    const statuses: number[] = [];
    for (let id = 1; id <= limit; id++) {
      const response = await ping(id % 2 === 0 ? first : second, id);
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    // Each process served only half of the limit, yet both now refuse: the count lives in Redis.
    expect(statuses).toEqual(Array(limit).fill(200));
    for (const server of [first, second]) {
      const refused = await ping(server, 100);
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      const body = (await refused.json()) as { error: { message: string } };
      expect(body.error.message).toContain(`Too many requests: ${limit} per minute`);
    }
    expect(await redisCommand(redisUrl!, 'GET', counterKey)).toBe(`$1\r\n${limit + 2}\r\n`);
  });
});
