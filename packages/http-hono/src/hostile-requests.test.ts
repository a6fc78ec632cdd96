import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import type { KitConfigInput } from '@kit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKitApp } from './app.js';
import { fixtureKit } from './testing/fixture.js';

/** A real Node HTTP server in front of the Kit app, as `kit serve` and the reference server run it. */
async function startServer(overrides: Partial<KitConfigInput> = {}) {
  const app = createKitApp({ kit: fixtureKit(overrides), cacheDir: null });
  const sockets: Socket[] = [];
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  server.on('connection', (socket: Socket) => sockets.push(socket));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    /** Bytes the server took off every connection so far. */
    bytesRead: () => sockets.reduce((sum, socket) => sum + socket.bytesRead, 0),
    close: () =>
      new Promise<void>((resolve) => {
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

interface UploadResult {
  status: number | null;
  body: string;
  /** Bytes handed to the socket before the server answered or closed the connection. */
  sent: number;
}

/**
 * POSTs `total` bytes of JSON-looking filler in 1 MiB writes, as fast as the server takes them,
 * and stops writing once the server answers or drops the connection. `declared` sends a
 * Content-Length instead of chunked transfer encoding.
 */
function upload(port: number, path: string, total: number, declared: boolean): Promise<UploadResult> {
  const chunk = Buffer.alloc(1024 * 1024, 0x61);
  return new Promise((resolve) => {
    let sent = 0;
    let answered = false;
    let status: number | null = null;
    let body = '';
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      resolve({ status, body, sent });
    };
    const request = httpRequest({
      host: '127.0.0.1',
      port,
      path,
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        ...(declared ? { 'Content-Length': String(total) } : { 'Transfer-Encoding': 'chunked' }),
      },
    });
    request.on('response', (response) => {
      answered = true;
      status = response.statusCode ?? null;
      response.setEncoding('utf8');
      response.on('data', (text: string) => {
        body += text;
      });
      response.on('end', finish);
      response.on('error', finish);
    });
    request.on('error', () => {
      // The server closed the connection on the rest of the upload; wait briefly for its answer.
      setTimeout(finish, 200);
    });
    request.on('close', () => setTimeout(finish, 200));
    const pump = () => {
      while (!answered && !request.destroyed && sent < total) {
        const piece = total - sent >= chunk.length ? chunk : chunk.subarray(0, total - sent);
        sent += piece.length;
        if (!request.write(piece)) {
          request.once('drain', pump);
          return;
        }
      }
      if (!answered && !request.destroyed) request.end();
    };
    request.write('{"path":"queues","helpful":true,"comment":"', () => undefined);
    pump();
  });
}

async function getStatus(port: number, path: string): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`);
  await response.arrayBuffer();
  return response.status;
}

function usedMemory(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

const MiB = 1024 * 1024;
const HUGE = 256 * MiB;

describe('request bodies over a real Node server', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  const routes = [
    { name: 'the feedback endpoint', path: '/docs/_kit/feedback', limit: 8 * 1024 },
    { name: 'the MCP endpoint', path: '/docs/mcp', limit: MiB },
  ];
  for (const route of routes) {
    for (const declared of [false, true]) {
      const framing = declared ? 'with a Content-Length' : 'streamed in chunks';
      it(`stops reading a 256 MiB body ${framing} to ${route.name} at its limit, answers 413 and keeps serving`, async () => {
        const readBefore = server.bytesRead();
        const memoryBefore = usedMemory();
        const result = await upload(server.port, route.path, HUGE, declared);
        const memoryGrowth = usedMemory() - memoryBefore;
        const serverRead = server.bytesRead() - readBefore;

        expect(result.status).toBe(413);
        expect(result.body).toContain(String(route.limit));
        // The server stopped taking bytes off the socket near the limit (plus what socket buffers
        // hold), far from the 256 MiB the client meant to send, and kept none of it.
        expect(serverRead).toBeLessThan(32 * MiB);
        expect(result.sent).toBeLessThan(64 * MiB);
        expect(memoryGrowth).toBeLessThan(64 * MiB);

        expect(await getStatus(server.port, '/docs/queues')).toBe(200);
      });
    }
  }

  it('still takes a feedback body under the limit after refusing huge ones', async () => {
    const response = await fetch(`http://127.0.0.1:${server.port}/docs/_kit/feedback`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ path: 'queues', helpful: false, comment: 'é'.repeat(2000) }),
    });
    expect(response.status).toBe(200);
  });
});

describe('client identity behind proxies', () => {
  const feedback = (target: ReturnType<typeof createKitApp>, forwardedFor: string) =>
    target.request('/docs/_kit/feedback', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': forwardedFor },
      body: JSON.stringify({ path: 'queues', helpful: true }),
    });
  const mcp = (target: ReturnType<typeof createKitApp>, forwardedFor: string) =>
    target.request('http://localhost/docs/mcp', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'X-Forwarded-For': forwardedFor,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
  const routes = [
    { name: 'feedback', send: feedback, limits: (rule: string) => ({ feedback: { rate_limit: rule } }) },
    { name: 'MCP', send: mcp, limits: (rule: string) => ({ mcp: { web: { rate_limit: rule } } }) },
  ];

  for (const route of routes) {
    it(`does not let a caller past the ${route.name} rate limit by rotating X-Forwarded-For`, async () => {
      const app = createKitApp({ kit: fixtureKit(route.limits('2,1')), cacheDir: null });
      const statuses = [];
      for (let caller = 1; caller <= 5; caller++) statuses.push((await route.send(app, `203.0.113.${caller}`)).status);
      expect(statuses).toEqual([200, 200, 429, 429, 429]);
    });

    it(`counts the ${route.name} rate limit per forwarded caller when every proxy is trusted`, async () => {
      const app = createKitApp({
        kit: fixtureKit({ ...route.limits('1,1'), http: { trusted_proxies: true } }),
        cacheDir: null,
      });
      expect((await route.send(app, '203.0.113.1')).status).toBe(200);
      expect((await route.send(app, '203.0.113.1')).status).toBe(429);
      expect((await route.send(app, '203.0.113.2')).status).toBe(200);
    });
  }

  it('counts callers by the address Bun and Deno give for the connection, not by X-Forwarded-For', async () => {
    const app = createKitApp({ kit: fixtureKit({ feedback: { rate_limit: '1,1' } }), cacheDir: null });
    const send = (env: unknown, forwardedFor: string) =>
      app.fetch(
        new Request('http://localhost/docs/_kit/feedback', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': forwardedFor },
          body: JSON.stringify({ path: 'queues', helpful: true }),
        }),
        env,
      );
    const bun = (address: string) => ({ requestIP: () => ({ address, family: 'IPv4', port: 1 }) });
    const deno = (hostname: string) => ({ remoteAddr: { transport: 'tcp', hostname, port: 1 } });
    expect((await send(bun('192.0.2.10'), '203.0.113.1')).status).toBe(200);
    expect((await send(bun('192.0.2.10'), '203.0.113.2')).status).toBe(429);
    expect((await send(bun('192.0.2.11'), '203.0.113.2')).status).toBe(200);
    expect((await send(deno('192.0.2.20'), '203.0.113.3')).status).toBe(200);
    expect((await send(deno('192.0.2.20'), '203.0.113.4')).status).toBe(429);
  });

  it('over a real server, counts the proxy itself unless it is trusted, then the caller it names', async () => {
    const send = (port: number, forwardedFor: string) =>
      fetch(`http://127.0.0.1:${port}/docs/_kit/feedback`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': forwardedFor },
        body: JSON.stringify({ path: 'queues', helpful: true }),
      }).then((response) => response.status);

    // Untrusted: every caller behind the proxy (here: loopback) shares its address, whatever the header says.
    const untrusted = await startServer({ feedback: { rate_limit: '1,1' }, http: { trusted_proxies: ['10.0.0.0/8'] } });
    try {
      expect(await send(untrusted.port, '203.0.113.1')).toBe(200);
      expect(await send(untrusted.port, '203.0.113.2')).toBe(429);
    } finally {
      await untrusted.close();
    }

    // The loopback proxy trusted: the address it forwards is the caller; a spoofed hop before it is not.
    const trusted = await startServer({ feedback: { rate_limit: '1,1' }, http: { trusted_proxies: ['loopback'] } });
    try {
      expect(await send(trusted.port, '203.0.113.1')).toBe(200);
      expect(await send(trusted.port, '203.0.113.2')).toBe(200);
      expect(await send(trusted.port, '198.51.100.99, 203.0.113.1')).toBe(429);
    } finally {
      await trusted.close();
    }
  });
});

describe('what a reader the set refuses is told', () => {
  const authSet = { docs: { route: { prefix: 'docs' }, source: { path: 'docs' }, access: { mode: 'auth' as const } } };

  it('asks a guest of an auth set to sign in (401) on llms.txt, the sitemap, skill.md, search and feedback, as on pages', async () => {
    const app = createKitApp({ kit: fixtureKit({ sets: authSet }), cacheDir: null });
    const requests: Array<[string, RequestInit]> = [
      ['/docs/llms.txt', {}],
      ['/docs/llms-full.txt', {}],
      ['/docs/3.x/llms.txt', {}],
      ['/docs/sitemap.xml', {}],
      ['/docs/skill.md', {}],
      ['/docs/_kit/search?q=queues', {}],
      [
        '/docs/_kit/feedback',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ path: 'queues', helpful: true }),
        },
      ],
    ];
    for (const [path, init] of requests) {
      const guest = await app.request(path, init);
      expect({ path, status: guest.status }).toEqual({ path, status: 401 });
      expect(guest.headers.get('www-authenticate')).toBe('Bearer realm="kit"');
      expect(guest.headers.get('cache-control')).toBe('private, no-cache');
      const text = await guest.text();
      expect(text).toMatch(/sign/i);
      for (const secret of ['Acme', 'Queues', 'version.not_found']) expect(text).not.toContain(secret);
    }
    const search = await app.request('/docs/_kit/search?q=queues');
    expect(await search.json()).toMatchObject({ error: 'unauthenticated' });
    const reader = { Authorization: 'Bearer reader' };
    expect((await app.request('/docs/llms.txt', { headers: reader })).status).toBe(200);
    expect((await app.request('/docs/_kit/search?q=queues', { headers: reader })).status).toBe(200);
  });

  it("shows a reader refused by a gate set's viewKit nothing of its manifest: not the 404 page's name, skill.md or the MCP instructions", async () => {
    // viewKit admits the set as a whole but no version or page: the reader may read nothing of it.
    const app = createKitApp({
      kit: fixtureKit({
        sets: { docs: { route: { prefix: 'docs' }, source: { path: 'docs' }, access: { mode: 'gate' } } },
        gates: {
          viewKit: (user, subject) => user !== null && subject.version === undefined && subject.page === undefined,
        },
      }),
      cacheDir: null,
    });
    const reader = { Authorization: 'Bearer reader' };
    const notFound = await app.request('/docs/no-such-page', { headers: { ...reader, Accept: 'text/html' } });
    expect(notFound.status).toBe(404);
    const html = await notFound.text();
    expect(html).toContain('<title>Page not found · Documentation</title>');
    for (const secret of ['Acme', 'queue runner', 'brand.css']) expect(html).not.toContain(secret);

    const skill = await app.request('/docs/skill.md', { headers: reader });
    expect(skill.status).toBe(404);
    expect(await skill.text()).not.toContain('Acme');
    const llms = await app.request('/docs/llms.txt', { headers: reader });
    expect(llms.status).toBe(404);
    expect(await llms.text()).not.toContain('Acme');

    const initialize = await app.request('http://localhost/docs/mcp', {
      method: 'POST',
      headers: { ...reader, 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });
    const answer = (await initialize.json()) as { result?: { instructions?: string } };
    expect(answer.result?.instructions).toContain('the documentation set "docs"');
    expect(JSON.stringify(answer)).not.toContain('Acme');
  });
});

describe('the Host header in absolute URLs', () => {
  const paths = [
    '/docs/llms.txt',
    '/docs/sitemap.xml',
    '/docs/queues',
    '/docs/queues.md',
    '/docs/schemas/kit.json',
    '/llms.txt',
    '/robots.txt',
    '/.well-known/mcp',
    '/docs/mcp/server-card',
  ];
  const get = (app: ReturnType<typeof createKitApp>, path: string, host: string) =>
    app.request(`http://${host}${path}`, { headers: { Host: host } });

  it('never lets a forged Host into a response a cache may share, with no origin configured', async () => {
    const app = createKitApp({ kit: fixtureKit(), cacheDir: null });
    const carriers: string[] = [];
    for (const path of paths) {
      const forged = await get(app, path, 'evil.example');
      expect({ path, status: forged.status }).toEqual({ path, status: 200 });
      const text = await forged.text();
      if (text.includes('evil.example')) {
        carriers.push(path);
        expect({ path, cacheControl: forged.headers.get('cache-control') }).toEqual({
          path,
          cacheControl: 'private, no-cache',
        });
        expect(forged.headers.get('etag')).toBeNull();
      }
      // A loopback name, as `kit serve` and tests use, is still served as a shared copy.
      const local = await get(app, path, 'localhost:4000');
      expect(local.headers.get('cache-control')).toContain('public');
      expect(local.headers.get('etag')).not.toBeNull();
    }
    // The .md twin names the set's llms.txt by its absolute URL under its title.
    expect(carriers).toEqual([
      '/docs/llms.txt',
      '/docs/sitemap.xml',
      '/docs/queues',
      '/docs/queues.md',
      '/docs/schemas/kit.json',
      '/llms.txt',
      '/robots.txt',
      '/.well-known/mcp',
      '/docs/mcp/server-card',
    ]);
    // The forged copy did not land in the page response cache either.
    expect(await (await get(app, '/docs/queues', 'localhost:4000')).text()).not.toContain('evil.example');
  });

  it('never marks MCP results carrying a forged Host as public for caches', async () => {
    const app = createKitApp({ kit: fixtureKit(), cacheDir: null });
    const scopeFor = async (host: string) => {
      const response = await app.request(`http://${host}/docs/mcp`, {
        method: 'POST',
        headers: {
          Host: host,
          'Content-Type': 'application/json',
          Accept: 'application/json',
          'MCP-Protocol-Version': '2026-07-28',
          'Mcp-Method': 'tools/list',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/list',
          params: {
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        }),
      });
      return ((await response.json()) as { result: { cacheScope: string } }).result.cacheScope;
    };
    expect(await scopeFor('localhost:4000')).toBe('public');
    expect(await scopeFor('evil.example')).toBe('private');
  });

  it('shares copies made for an allowed host or the configured origin, and writes only those into URLs', async () => {
    const allowed = createKitApp({ kit: fixtureKit(), cacheDir: null, allowedHosts: ['docs.example.com'] });
    const ok = await get(allowed, '/docs/llms.txt', 'docs.example.com');
    expect(ok.headers.get('cache-control')).toContain('public');
    expect(await ok.text()).toContain('http://docs.example.com/docs/');
    expect((await get(allowed, '/docs/llms.txt', 'localhost')).headers.get('cache-control')).toBe('private, no-cache');

    const configured = createKitApp({ kit: fixtureKit(), cacheDir: null, origin: 'https://docs.example.com' });
    for (const path of ['/docs/llms.txt', '/docs/sitemap.xml', '/docs/queues']) {
      const response = await get(configured, path, 'evil.example');
      expect(response.headers.get('cache-control')).toContain('public');
      const text = await response.text();
      expect(text).toContain('https://docs.example.com/docs');
      expect(text).not.toContain('evil.example');
    }
  });
});

describe('one link policy for the page and its Markdown twin', () => {
  it('serves no script or //host link in the HTML page, the .md twin or the navbar', async () => {
    const root = mkdtempSync(join(tmpdir(), 'kit-http-links-'));
    mkdirSync(join(root, 'docs'));
    writeFileSync(
      join(root, 'docs/kit.json'),
      JSON.stringify({ name: 'Links', navbar: { links: [{ label: 'Away', href: '//evil.example/nav' }] } }),
    );
    writeFileSync(join(root, 'docs/index.md'), '# Home\n');
    writeFileSync(
      join(root, 'docs/links.md'),
      '# Links\n\nSee <javascript:alert(1)>, [away](//evil.example/page) and [home](index.md).\n',
    );
    try {
      const app = createKitApp({
        kit: fixtureKit({ sets: { docs: { route: { prefix: 'docs' }, source: { path: 'docs' } } } }, { root }),
        cacheDir: null,
      });
      const html = await (await app.request('/docs/links', { headers: { Accept: 'text/html' } })).text();
      const twin = await (await app.request('/docs/links.md')).text();
      expect(html).toContain('href="/docs"');
      for (const output of [html, twin]) {
        expect(output).not.toMatch(/href="(javascript:|\/\/evil)/i);
        expect(output).not.toContain('](//evil.example');
        expect(output).not.toMatch(/(^|[^\\])<javascript:/);
      }
      expect(twin).toContain('\\<javascript:alert(1)\\>');
      expect(html).not.toContain('//evil.example/nav');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
