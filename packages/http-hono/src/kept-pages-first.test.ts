import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Kit } from '@kit/core';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKitApp } from './app.js';
import { keptPagesFirst } from './page-cache.js';
import { fixtureKit } from './testing/fixture.js';

// keptPagesFirst answers kept pages from the bare request, before the application around Kit's
// app runs. Served here as `kit serve` and the reference server serve it: @hono/node-server on a
// real port, the application's own route beside Kit's.

let kit: Kit;
let origin: string;
let server: ReturnType<typeof serve>;
/** Requests the application (not the early answer) handled. */
let handled: string[] = [];
/** `resolveUser` calls, by Authorization header. */
let resolved: string[] = [];
let failResolve = false;
/** The handler keptPagesFirst made, to call without a server. */
let handler: (request: Request, env: unknown) => Response | Promise<Response>;

beforeAll(async () => {
  const fixture = fixtureKit({}, { watch: true });
  const resolveUser = fixture.config.resolveUser!;
  fixture.config.resolveUser = (request) => {
    resolved.push(request.headers.get('authorization') ?? '');
    if (failResolve) throw new Error('The session store is down.');
    return resolveUser(request);
  };
  kit = fixture;
  const kitApp = createKitApp({ kit, cacheDir: null });
  const app = new Hono();
  app.get('/health', (c) => c.text('ok'));
  app.route('/', kitApp);
  const fetch = keptPagesFirst(kitApp, (request: Request, env: unknown) => {
    handled.push(new URL(request.url).pathname + new URL(request.url).search);
    return app.fetch(request, env as never);
  });
  handler = fetch;
  await new Promise<void>((ready) => {
    server = serve({ fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) => {
      origin = `http://localhost:${info.port}`;
      ready();
    });
  });
});

afterAll(async () => {
  server.close();
  await kit.close();
});

async function get(path: string, headers: Record<string, string> = {}) {
  handled = [];
  resolved = [];
  const response = await fetch(`${origin}${path}`, { headers });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

const staff = { Authorization: 'Bearer staff' };

describe('keptPagesFirst over a real server', () => {
  it('answers a repeat with the same bytes and headers without running the application', async () => {
    const first = await get('/docs/queues.md');
    expect(first.response.status).toBe(200);
    expect(handled).toEqual(['/docs/queues.md']);
    const again = await get('/docs/queues.md');
    expect(handled).toEqual([]);
    expect(again.bytes.equals(first.bytes)).toBe(true);
    for (const name of ['etag', 'cache-control', 'content-type', 'vary', 'link', 'x-content-type-options']) {
      expect(again.response.headers.get(name), name).toBe(first.response.headers.get(name));
    }
    const revalidated = await get('/docs/queues.md', { 'If-None-Match': first.response.headers.get('etag')! });
    expect(revalidated.response.status).toBe(304);
    expect(handled).toEqual([]);
  });

  it('asks resolveUser once per request, whether the early answer or the application answers it', async () => {
    await get('/docs/4.x/queues', staff);
    expect(resolved).toEqual(['Bearer staff']);
    const again = await get('/docs/4.x/queues', staff);
    expect(resolved).toEqual(['Bearer staff']);
    expect(handled).toEqual([]);
    expect(again.response.status).toBe(200);
    expect(again.bytes.toString()).toContain('Unreleased hyperdrive queues.');
    expect(again.response.headers.get('cache-control')).toBe('private, no-cache');
    await get('/docs/4.x/index.md', staff);
    expect(resolved).toEqual(['Bearer staff']);
  });

  it("answers a signed-in reader's kept page at once when resolveUser and the gates answer at once", async () => {
    // Kept once through the application: the twin of a public page, which staff see among a private version's pages.
    await get('/docs/queues.md', staff);
    handled = [];
    const answer = handler(new Request(`${origin}/docs/queues.md`, { headers: staff }), {});
    expect(answer).not.toBeInstanceOf(Promise);
    expect((answer as Response).status).toBe(200);
    expect((answer as Response).headers.get('cache-control')).toBe('private, no-cache');
    expect(handled).toEqual([]);
    // A page of the private version waits for its own check (a gate may decide per page), then is answered the same way.
    await get('/docs/4.x/queues.md', staff);
    handled = [];
    const waited = handler(new Request(`${origin}/docs/4.x/queues.md`, { headers: staff }), {});
    expect(waited).toBeInstanceOf(Promise);
    expect((await waited).status).toBe(200);
    expect(handled).toEqual([]);
    // A guest is refused the private version's page: the application answers it, with a 404.
    const refused = await handler(new Request(`${origin}/docs/4.x/queues.md`), {});
    expect(refused.status).toBe(404);
    expect(await refused.text()).not.toContain('hyperdrive');
  });

  it('never hands a page kept for staff to a guest or a reader the gate refuses', async () => {
    await get('/docs/4.x/queues.md', staff);
    await get('/docs/4.x/queues.md', staff);
    const refusedHeaders: Array<Record<string, string>> = [
      {},
      { Authorization: 'Bearer reader' },
      { Authorization: 'Bearer forged' },
    ];
    for (const headers of refusedHeaders) {
      const refused = await get('/docs/4.x/queues.md', headers);
      expect(refused.response.status).toBe(404);
      expect(refused.bytes.toString()).not.toContain('hyperdrive');
      expect(handled).toEqual(['/docs/4.x/queues.md']);
    }
  });

  it("leaves part of a Markdown twin and the application's own routes to the application", async () => {
    await get('/docs/queues.md');
    const part = await get('/docs/queues.md?max_chars=20000');
    expect(handled).toEqual(['/docs/queues.md?max_chars=20000']);
    expect(part.response.status).toBe(200);
    expect((await get('/health')).bytes.toString()).toBe('ok');
    expect(handled).toEqual(['/health']);
  });

  it('hands a request to the application when resolveUser fails, which answers it; the next one is served', async () => {
    await get('/docs/queues', staff);
    failResolve = true;
    try {
      const failed = await get('/docs/queues', staff);
      expect(failed.response.status).toBe(500);
      expect(JSON.parse(failed.bytes.toString())).toMatchObject({ error: 'internal' });
      expect(handled).toEqual(['/docs/queues']);
    } finally {
      failResolve = false;
    }
    const served = await get('/docs/queues', staff);
    expect(served.response.status).toBe(200);
    expect(served.bytes.toString()).toContain('<html');
  });

  it('refuses an app createKitApp did not make', () => {
    const other = new Hono();
    expect(() => keptPagesFirst(other as never, other.fetch)).toThrow(/createKitApp/);
  });
});
