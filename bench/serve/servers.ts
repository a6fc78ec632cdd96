/**
 * The servers under load, in their own process so the load generator does not share their event
 * loop: the reference server with the Laravel set (through @hono/node-server, as `pnpm start`
 * runs it), a second Kit app serving a copy of the Laravel docs whose 11.x version is private (a
 * `viewKit` gate admits staff, signed in with a bearer token), and a raw `node:http` server writing
 * the same precomputed bytes for every case. Prints one JSON line with the origins and the cases,
 * then serves until killed.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, get, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { resolveConfig, warmKit } from '@kit/core';
import { Hono } from 'hono';
import { createReferenceServer } from '../../apps/server/src/server.js';
import { createKitApp, keptPagesFirst } from '../../packages/http-hono/src/index.js';
import { loadKit } from '../../packages/node/src/load-kit.js';
import { LARAVEL_ROOT as LARAVEL } from '../../packages/render/src/testing/laravel-corpus.js';

const PATHS = { html: '/laravel/routing', markdown: '/laravel/routing.md' };
const STAFF_TOKEN = 'bench-staff';

/** One measured request: which server answers it and the headers the load generator sends. */
export interface BenchCase {
  name: string;
  /** `public` (the reference server) or `private-version` (the set with a private 11.x). */
  set: 'public' | 'private-version';
  path: string;
  headers: Record<string, string>;
  /** Bytes on the wire (gzipped when the case asks for gzip). */
  bytes: number;
}

const env: Record<string, string | undefined> = {};
for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('KIT_')) env[key] = value;
const reference = await createReferenceServer({ env: { ...env, KIT_LARAVEL: '1' } });
const kitPort = await listenHono(reference.fetch);

// The same Laravel docs with 11.x private: a guest sees two versions, staff three.
const privateRoot = mkdtempSync(join(tmpdir(), 'kit-bench-private-'));
cpSync(LARAVEL, join(privateRoot, 'laravel'), { recursive: true });
const manifestFile = join(privateRoot, 'laravel', 'kit.json');
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { versions: Array<Record<string, unknown>> };
for (const version of manifest.versions) if (version.id === '11.x') version.visibility = 'private';
writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
const privateKit = await loadKit({
  config: resolveConfig(
    {
      sets: {
        laravel: {
          route: { prefix: 'laravel', link_prefix: 'docs' },
          source: { driver: 'repository', path: 'laravel' },
          html_input: 'allow',
          search: { driver: 'server' },
        },
      },
      resolveUser: (request) =>
        request.headers.get('authorization') === `Bearer ${STAFF_TOKEN}` ? { id: 'staff', role: 'staff' } : null,
      gates: { viewKit: (user) => (user as { role?: string } | null)?.role === 'staff' },
    },
    { env, root: privateRoot },
  ),
  watch: true,
  git: false,
});
const privateApp = createKitApp({ kit: privateKit, cacheDir: null });
const privatePort = await listenHono(keptPagesFirst(privateApp, privateApp.fetch));
// What a running server does once it listens (code grammars, the guests' search index), done before
// measuring so that background work does not fall on one case.
await reference.warm();
await warmKit(privateKit);
await warmKit(privateKit, { viewer: { user: { id: 'staff', role: 'staff' } } });
process.on('exit', () => rmSync(privateRoot, { recursive: true, force: true }));

const ports = { public: kitPort, 'private-version': privatePort };
const viewers = [
  { set: 'public' as const, label: 'public set, guest', headers: {} },
  { set: 'private-version' as const, label: 'private-version set, guest', headers: {} },
  {
    set: 'private-version' as const,
    label: 'private-version set, signed in',
    headers: { authorization: `Bearer ${STAFF_TOKEN}` },
  },
];
const encodings = [
  { label: 'identity', headers: {} },
  { label: 'gzip', headers: { 'accept-encoding': 'gzip' } },
];

// What the Kit server answers is what the raw server sends, byte for byte, with the same headers
// (so the load generator parses the same response from both).
const cases: BenchCase[] = [];
// `bytes`: the same body as the Uint8Array Hono takes, made once: a copy per request would be the
// bench's cost, not Hono's.
const bodies = new Map<string, { body: Buffer; bytes: Uint8Array<ArrayBuffer>; headers: Record<string, string> }>();
for (const [kind, path] of Object.entries(PATHS)) {
  for (const viewer of viewers) {
    for (const encoding of encodings) {
      const headers = { ...viewer.headers, ...encoding.headers };
      const response = await settledResponse(ports[viewer.set], path, headers);
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}; the bench needs a 200.`);
      if (encoding.label === 'gzip' && response.headers['content-encoding'] !== 'gzip') {
        throw new Error(`${path} (${viewer.label}) was not gzipped for Accept-Encoding: gzip.`);
      }
      const kept = Object.fromEntries(
        Object.entries(response.headers)
          .filter(
            ([name]) => !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name),
          )
          .map(([name, value]) => [name, String(value)]),
      );
      bodies.set(rawKey(viewer.set, path, headers), {
        body: response.body,
        bytes: new Uint8Array(response.body),
        headers: kept,
      });
      cases.push({
        name: `${kind} ${encoding.label}, ${viewer.label}`,
        set: viewer.set,
        path,
        headers,
        bytes: response.body.length,
      });
    }
  }
}

/** The raw server tells the cases apart by what the load generator sends: set, path, encoding, token. */
function rawKey(set: string, path: string, headers: Record<string, string | string[] | undefined>): string {
  const gzip = String(headers['accept-encoding'] ?? '').includes('gzip');
  return `${set} ${path} ${gzip ? 'gzip' : 'identity'} ${headers.authorization ?? ''}`;
}

const raw = createServer((request, response) => {
  const set = request.headers['x-bench-set'] === 'private-version' ? 'private-version' : 'public';
  const entry = bodies.get(rawKey(set, request.url ?? '', request.headers));
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
const bare = new Hono();
bare.get('*', (c) => {
  const set = c.req.header('x-bench-set') === 'private-version' ? 'private-version' : 'public';
  const entry = bodies.get(
    rawKey(set, c.req.path, {
      'accept-encoding': c.req.header('accept-encoding'),
      authorization: c.req.header('authorization'),
    }),
  );
  return entry ? c.body(entry.bytes, 200, entry.headers) : c.notFound();
});
const barePort = await listenHono(bare.fetch);

process.stdout.write(
  `${JSON.stringify({
    kit: { public: `http://127.0.0.1:${kitPort}`, 'private-version': `http://127.0.0.1:${privatePort}` },
    raw: `http://127.0.0.1:${rawPort}`,
    bareHono: `http://127.0.0.1:${barePort}`,
    cases,
  })}\n`,
);

// Exit normally on SIGTERM so `node --cpu-prof` writes its profile.
process.on('SIGTERM', () => process.exit(0));

function listenHono(fetch: (request: Request, env: never) => Response | Promise<Response>): Promise<number> {
  return new Promise((done) => {
    serve({ fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) => done(info.port));
  });
}

/** One response as sent (no decompression), with its raw body bytes. */
function rawResponse(
  port: number,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((done, fail) => {
    get({ host: '127.0.0.1', port, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        done({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', fail);
    }).on('error', fail);
  });
}

/**
 * The response a warm server keeps sending: a page sent while its code grammar still loads
 * (Cache-Control: no-store) is not that page, so ask again until the highlighted one comes.
 */
async function settledResponse(port: number, path: string, headers: Record<string, string>) {
  for (let tries = 0; ; tries++) {
    const response = await rawResponse(port, path, headers);
    if (response.headers['cache-control'] !== 'no-store' || tries === 600) return response;
    await new Promise((next) => setTimeout(next, 50));
  }
}
