import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { createKitApp } from '@kit/http-hono';
import { type LoadedKit, loadKit } from '@kit/node';
import { registerComponent } from '@kit/render';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, tempProject, writeFiles } from './__fixtures__/kit-binary.js';

// A set served over a real HTTP server whose renderer renders on worker threads. Its components
// show what a render can do to a server: `Slow` spins until the test lets it go, `Stuck` never
// returns, `Crash` ends the worker it runs in. Without the pool each would hold the event loop.

interface Served {
  kit: LoadedKit;
  url: string;
  close(): Promise<void>;
}

async function serveKit(dir: string, renderPool: { workers: number; deadlineMs: number | null }): Promise<Served> {
  const kit = await loadKit({ cwd: dir, git: false, renderPool });
  const app = createKitApp({ kit, cacheDir: null });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  const { port } = server.address() as AddressInfo;
  return {
    kit,
    url: `http://127.0.0.1:${port}`,
    async close() {
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await kit.close();
    },
  };
}

const html = { Accept: 'text/html' };

/** Every entry of the project's disk cache store (`.kit/cache/store`), as text. */
function storedTexts(dir: string): string[] {
  const root = join(dir, '.kit', 'cache', 'store');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true })
    .map((name) => join(root, String(name)))
    .filter((file) => statSync(file).isFile())
    .map((file) => readFileSync(file, 'utf8'));
}

describe('a server rendering on worker threads', () => {
  let project: Awaited<ReturnType<typeof tempProject>>;
  let marker = '';

  beforeAll(async () => {
    project = await tempProject();
    marker = join(project.dir, 'let-slow-finish');
    const renderFrom = pathToFileURL(join(repoRoot, 'packages/render/src/index.ts')).href;
    const components = `import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { registerComponent } from ${JSON.stringify(renderFrom)};
const slow = (props) => {
  if (isMainThread) throw new Error('Slow rendered on the main thread');
  while (!existsSync(props.until)) {}
  return 'slow page done';
};
registerComponent('Slow', { html: slow, markdown: slow });
const stuck = () => {
  if (isMainThread) throw new Error('Stuck rendered on the main thread');
  for (;;) {}
};
registerComponent('Stuck', { html: stuck, markdown: stuck });
const crash = () => {
  if (isMainThread) throw new Error('Crash rendered on the main thread');
  process.exit(7);
};
registerComponent('Crash', { html: crash, markdown: crash });
`;
    await writeFiles(project.dir, {
      'kit.config.mjs': `${components}export default { sets: { docs: { route: { prefix: 'docs' }, source: { path: 'docs' } } } };\n`,
      'docs/kit.json': JSON.stringify({ name: 'Pool Docs' }),
      'docs/index.md': '# Home\n\nWelcome.\n',
      'docs/light.md': '# Light\n\nA light page about retries.\n',
      'docs/slow.md': `# Slow\n\n<Slow until="${marker}" />\n`,
      'docs/stuck.md': '# Stuck\n\nBefore the component.\n\n<Stuck />\n',
      'docs/crash.md': '# Crash\n\nBefore the component.\n\n<Crash />\n',
    });
    // The same names on this thread (the worker compares them); each throws if it ever runs here.
    for (const name of ['Slow', 'Stuck', 'Crash']) {
      registerComponent(name, {
        html: () => {
          throw new Error(`${name} rendered on the main thread`);
        },
        markdown: () => '',
      });
    }
  });
  afterAll(() => project.cleanup());

  it('answers a light page and llms.txt while a slow page renders, then the slow page', async () => {
    const served = await serveKit(project.dir, { workers: 3, deadlineMs: null });
    try {
      expect((await fetch(`${served.url}/docs`, { headers: html })).status).toBe(200);
      let slowSettled = false;
      const slow = fetch(`${served.url}/docs/slow`, { headers: html }).then((response) => {
        slowSettled = true;
        return response;
      });

      const light = await fetch(`${served.url}/docs/light`, { headers: html });
      expect(light.status).toBe(200);
      expect(await light.text()).toContain('A light page about retries.');
      const llms = await fetch(`${served.url}/docs/llms.txt`);
      expect(llms.status).toBe(200);
      expect(await llms.text()).toContain('Light');
      // Both answered while the slow page was still rendering: it cannot finish before the marker.
      expect(existsSync(marker)).toBe(false);
      expect(slowSettled).toBe(false);

      await writeFile(marker, '');
      const finished = await slow;
      expect(finished.status).toBe(200);
      expect(await finished.text()).toContain('slow page done');
    } finally {
      await served.close();
    }
  });

  it('answers a page still rendering at the deadline as its text with a notice, and keeps serving', async () => {
    const served = await serveKit(project.dir, { workers: 1, deadlineMs: 2000 });
    try {
      const stuck = await fetch(`${served.url}/docs/stuck`, { headers: html });
      expect(stuck.status).toBe(200);
      const page = await stuck.text();
      expect(page).toContain('This page is too complex to render: it took longer than 2 seconds to render.');
      expect(page).toContain('Before the component.');
      // An answer of that moment (a busy machine can cause it too): no cache may keep it.
      expect(stuck.headers.get('cache-control')).toBe('no-store');
      const twin = await fetch(`${served.url}/docs/stuck.md`);
      expect(twin.status).toBe(200);
      expect(twin.headers.get('cache-control')).toBe('no-store');
      expect(await twin.text()).toContain('<Stuck />');

      // The stopped worker was replaced: the next page renders.
      const light = await fetch(`${served.url}/docs/light`, { headers: html });
      expect(light.status).toBe(200);
      expect(await light.text()).toContain('A light page about retries.');

      // The answer cut short belongs to that moment: the disk cache store kept the light page only.
      const stored = storedTexts(project.dir);
      expect(stored.some((text) => text.includes('A light page about retries.'))).toBe(true);
      expect(stored.filter((text) => text.includes('took longer than'))).toEqual([]);
    } finally {
      await served.close();
    }
  });

  it('survives a component that ends its worker, answering that page with a notice naming the crash', async () => {
    const served = await serveKit(project.dir, { workers: 1, deadlineMs: null });
    try {
      const crash = await fetch(`${served.url}/docs/crash`, { headers: html });
      expect(crash.status).toBe(200);
      const page = await crash.text();
      expect(page).toContain('rendering it stopped its render worker (exit code 7)');
      expect(page).toContain('Before the component.');

      const light = await fetch(`${served.url}/docs/light`, { headers: html });
      expect(light.status).toBe(200);
      expect(await light.text()).toContain('A light page about retries.');
    } finally {
      await served.close();
    }
  });
});
