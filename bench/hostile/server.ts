/**
 * The set under test for bench/hostile, in its own process so the client timing it does not share
 * its event loop: a light page, every hostile construct at `hostile/<name>` and the largest page of
 * each shape the complexity guard accepts at `limit/<name>`, served through `createKitApp` on
 * @hono/node-server. Prints one JSON line with its origin, then serves until killed.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { createNodeRenderer } from '@kit/render/node';
import { createKitApp } from '../../packages/http-hono/src/app.js';
import { fixtureKit } from '../../packages/http-hono/src/testing/fixture.js';
import { HOSTILE_CONSTRUCTS, LIGHT_PAGE } from '../../packages/http-hono/src/testing/hostile-pages.js';
import { createRenderPool, type RenderPool } from '../../packages/node/src/render-pool/render-pool.js';
import { laravelPages } from '../../packages/render/src/testing/laravel-corpus.js';

/** `BENCH_RENDER_WORKERS=n` renders on a pool of n worker threads (no deadline), as `kit serve` does. */
const workers = Number(process.env.BENCH_RENDER_WORKERS ?? 0);
/** `BENCH_HEAVY_PAGES=n` adds `heavy/1`..`heavy/n`: Laravel's largest page three times over, each its own text. */
const heavyPages = Number(process.env.BENCH_HEAVY_PAGES ?? 0);

const root = mkdtempSync(join(tmpdir(), 'kit-bench-hostile-'));
process.on('exit', () => rmSync(root, { recursive: true, force: true }));
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => process.exit(0));
mkdirSync(join(root, 'docs/hostile'), { recursive: true });
mkdirSync(join(root, 'docs/limit'), { recursive: true });
writeFileSync(join(root, 'docs/kit.json'), JSON.stringify({ name: 'Hostile bench' }));
writeFileSync(join(root, 'docs/index.md'), '# Home\n');
writeFileSync(join(root, 'docs/light.md'), LIGHT_PAGE);
for (const construct of HOSTILE_CONSTRUCTS) {
  writeFileSync(join(root, `docs/hostile/${construct.name}.md`), construct.hostile);
  if (construct.atLimit) writeFileSync(join(root, `docs/limit/${construct.name}.md`), construct.atLimit);
}

if (heavyPages > 0) {
  mkdirSync(join(root, 'docs/heavy'), { recursive: true });
  const largest = laravelPages('13.x').sort((a, b) => b.body.length - a.body.length)[0];
  const body = largest?.body ?? '';
  for (let index = 1; index <= heavyPages; index++) {
    writeFileSync(join(root, `docs/heavy/${index}.md`), `# Heavy ${index}\n\n${body}\n${body}\n${body}\n`);
  }
}

let pool: RenderPool | null = null;
const renderer = createNodeRenderer(
  workers > 0 ? { executor: (page, context) => (pool as RenderPool).render(page, context) } : {},
);
if (workers > 0) pool = createRenderPool({ renderer, workers, startAt: 0, deadlineMs: null, keepHtml: true });
const kit = fixtureKit(
  { sets: { docs: { route: { prefix: 'docs' }, source: { path: 'docs' }, search: { driver: 'server' } } } },
  { root, renderer },
);
const app = createKitApp({ kit, cacheDir: null });
const port = await new Promise<number>((done) => {
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) => done(info.port));
  // The client renders pages of its own between requests, for longer than Node's 5 s default: a
  // connection closed meanwhile would fail the next request.
  (server as import('node:http').Server).keepAliveTimeout = 10 * 60_000;
});
console.log(JSON.stringify({ origin: `http://127.0.0.1:${port}` }));
