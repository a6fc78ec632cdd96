/**
 * The servers under load, in their own process so the load generator does not share their event
 * loop: the reference server with the Laravel set (through @hono/node-server, as `pnpm start`
 * runs it) and a raw `node:http` server writing the same precomputed bytes. Prints one JSON line
 * with both origins and the paths, then serves until killed.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createReferenceServer } from '../../apps/server/src/server.js';

const PATHS = { html: '/laravel/routing', markdown: '/laravel/routing.md' };

const env: Record<string, string | undefined> = {};
for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('KIT_')) env[key] = value;
const reference = await createReferenceServer({ env: { ...env, KIT_LARAVEL: '1' } });
const kitPort = await new Promise<number>((done) => {
  serve({ fetch: reference.app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) => done(info.port));
});

// What the Kit server answers is what the raw server sends, byte for byte, with the same headers
// (so the load generator parses the same response from both).
const bodies = new Map<string, { body: Buffer; headers: Record<string, string> }>();
for (const path of Object.values(PATHS)) {
  // Identity, as the load generator asks (fetch would otherwise ask for gzip and unzip it). A page
  // sent while its code grammar still loads (Cache-Control: no-store) is not the page the server
  // keeps: ask again until the highlighted one comes.
  let response: Response;
  for (let tries = 0; ; tries++) {
    response = await fetch(`http://127.0.0.1:${kitPort}${path}`, { headers: { 'Accept-Encoding': 'identity' } });
    if (response.headers.get('cache-control') !== 'no-store' || tries === 600) break;
    await response.arrayBuffer();
    await new Promise((next) => setTimeout(next, 50));
  }
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}; the bench needs a 200.`);
  const headers = Object.fromEntries(
    [...response.headers].filter(([name]) => !['date', 'connection', 'keep-alive', 'content-length'].includes(name)),
  );
  bodies.set(path, { body: Buffer.from(await response.arrayBuffer()), headers });
}

const raw = createServer((request, response) => {
  const entry = bodies.get(request.url ?? '');
  if (!entry) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { ...entry.headers, 'Content-Length': entry.body.length });
  response.end(entry.body);
});
const rawPort = await new Promise<number>((done) =>
  raw.listen(0, '127.0.0.1', () => done((raw.address() as AddressInfo).port)),
);

// The floor of any Hono app on @hono/node-server: one route sending the same bytes, no Kit at all.
const bareBodies = new Map([...bodies].map(([path, entry]) => [path, { ...entry, bytes: new Uint8Array(entry.body) }]));
const bare = new Hono();
bare.get('*', (c) => {
  const entry = bareBodies.get(c.req.path);
  return entry ? c.body(entry.bytes, 200, entry.headers) : c.notFound();
});
const barePort = await new Promise<number>((done) => {
  serve({ fetch: bare.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) => done(info.port));
});

process.stdout.write(
  `${JSON.stringify({
    kit: `http://127.0.0.1:${kitPort}`,
    raw: `http://127.0.0.1:${rawPort}`,
    bareHono: `http://127.0.0.1:${barePort}`,
    paths: PATHS,
    bytes: Object.fromEntries([...bodies].map(([path, entry]) => [path, entry.body.length])),
  })}\n`,
);

// Exit normally on SIGTERM so `node --cpu-prof` writes its profile.
process.on('SIGTERM', () => process.exit(0));
