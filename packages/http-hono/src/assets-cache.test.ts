import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { fixtureKit } from './testing/fixture.js';

const scratch = mkdtempSync(join(tmpdir(), 'kit-assets-cache-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The app module afresh, as in a new process: the reader assets are built once per process. */
async function freshApp(): Promise<typeof import('./app.js')> {
  vi.resetModules();
  return import('./app.js');
}

describe('the reader assets between runs', () => {
  it('keeps nothing on disk with cacheDir null', async () => {
    const { createKitApp } = await freshApp();
    const kit = fixtureKit();
    const app = createKitApp({ kit, cacheDir: null });
    expect((await app.request('/docs')).status).toBe(200);
    expect(existsSync(join(kit.config.root, '.kit'))).toBe(false);
  });

  it('keeps the built script and stylesheet in the cache folder the app is given', async () => {
    const { createKitApp } = await freshApp();
    const cacheDir = join(scratch, 'cache');
    const app = createKitApp({ kit: fixtureKit(), cacheDir });
    const page = await (await app.request('/docs')).text();
    const script = /src="(\/docs\/_kit\/reader\.[0-9a-f]+\.js)"/.exec(page)?.[1];
    expect((await app.request(script!)).status).toBe(200);
    expect(readdirSync(join(cacheDir, 'reader-assets'))).toHaveLength(1);
  });
});
