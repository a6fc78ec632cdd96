import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KitProcess, startKit, tempProject, writeFiles } from '../__fixtures__/kit-binary.js';

const redisUrl = process.env.KIT_TEST_REDIS_URL;

async function ping(site: string, id: number): Promise<Response> {
  return fetch(`${site}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' }),
  });
}

describe.skipIf(!redisUrl)('two kit serve processes with KIT_REDIS_URL', () => {
  const limit = 6;
  let project: Awaited<ReturnType<typeof tempProject>>;
  const servers: KitProcess[] = [];
  const sites: string[] = [];

  beforeAll(async () => {
    project = await tempProject('kit-serve-shared-');
    await writeFiles(project.dir, {
      'kit.config.mjs': `export default { sets: { docs: { source: { path: 'docs' }, mcp: { web: { rate_limit: '${limit},1' } } } } };\n`,
      'docs/kit.json': '{ "name": "Docs" }\n',
      'docs/index.md': '# Home\n',
    });
    // A prefix of this run's own: the counter starts fresh and expires with its window.
    const env = { KIT_REDIS_URL: redisUrl!, KIT_REDIS_PREFIX: `kit:test:serve:${randomUUID()}:` };
    for (let i = 0; i < 2; i++) {
      const server = startKit(['serve', '--port', '0', '--no-watch'], { cwd: project.dir, env, fromSource: true });
      servers.push(server);
    }
    for (const server of servers) {
      const printed = await server.waitFor(/Press Ctrl\+C to stop\./);
      sites.push(/site\s+(http:\/\/\S+?)\/?\s/.exec(printed)![1]!);
    }
  }, 120_000);
  afterAll(async () => {
    for (const server of servers) server.child.kill('SIGTERM');
    await Promise.all(servers.map((server) => server.exited));
    await project?.cleanup();
  });

  it('count MCP calls against one limit, as the reference server does', async () => {
    const statuses: number[] = [];
    for (let id = 1; id <= limit; id++) {
      const response = await ping(sites[id % 2]!, id);
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    expect(statuses).toEqual(Array(limit).fill(200));
    // Each process answered half of the limit, yet both refuse now: the count lives in Redis.
    for (const site of sites) {
      const refused = await ping(site, 100);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
  });
});
