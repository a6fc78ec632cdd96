import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { isKitError } from '@kit/core';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildReaderAssets, readerAssets } from './assets.js';

const BUDGET_BYTES = 50 * 1024;

async function freshAssetsModule(): Promise<typeof import('./assets.js')> {
  vi.resetModules();
  return import('./assets.js');
}

describe('reader assets', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'kit-reader-assets-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('builds one script and one stylesheet named by their content hash', async () => {
    const { js, css } = await readerAssets();
    expect(js.name).toMatch(/^reader\.[0-9a-f]{10}\.js$/);
    expect(css.name).toMatch(/^reader\.[0-9a-f]{10}\.css$/);
    expect(js.contentType).toBe('text/javascript; charset=utf-8');
    expect(css.contentType).toBe('text/css; charset=utf-8');
    expect(js.body).toContain('kit-reader-config');
    expect(css.body).toContain('.kit-sidebar');
    // One self-contained classic script: nothing left to import at run time.
    expect(js.body).not.toMatch(/\bimport\s*\(|^import /m);
  });

  it('keeps the client script under 50 KB gzipped', async () => {
    const { js, css } = await readerAssets();
    const jsGzip = gzipSync(js.body).length;
    const cssGzip = gzipSync(css.body).length;
    expect(jsGzip).toBeLessThan(BUDGET_BYTES);
    expect(cssGzip).toBeLessThan(BUDGET_BYTES);
  });

  it('builds once and hands out the cached result', async () => {
    expect(readerAssets()).toBe(readerAssets());
  });

  it('bundles a client search module so the client driver queries its index in the browser', async () => {
    const module = join(scratch, 'client-search.mjs');
    writeFileSync(
      module,
      "export function queryClientIndex(s, q, n) { return [{ title: 'PLUGGED_SEARCH_MARKER', url: '/' }]; }\n",
    );
    const plain = await buildReaderAssets({ minify: false });
    const plugged = await buildReaderAssets({ clientSearch: { module }, minify: false });
    expect(plugged.js.body).toContain('PLUGGED_SEARCH_MARKER');
    expect(plain.js.body).not.toContain('PLUGGED_SEARCH_MARKER');
    expect(plugged.js.name).not.toBe(plain.js.name);
  });

  it('keeps the build in cacheDir and rebuilds when a source file changes', async () => {
    const cacheDir = join(scratch, 'cache');
    const module = join(scratch, 'cached-search.mjs');
    const write = (marker: string) =>
      writeFileSync(module, `export function queryClientIndex() { return [{ title: '${marker}', url: '/' }]; }\n`);
    write('FIRST_MARKER');
    const options = { clientSearch: { module }, minify: false, cacheDir };
    const built = await buildReaderAssets({ clientSearch: { module }, minify: false });
    // readerAssets keeps one build per process; a fresh import stands for the next run.
    const first = await (await freshAssetsModule()).readerAssets(options);
    expect(first.js).toEqual(built.js);
    const [file] = readdirSync(join(cacheDir, 'reader-assets'));
    const cached = JSON.parse(readFileSync(join(cacheDir, 'reader-assets', file!), 'utf8'));
    expect(Object.keys(cached.inputs)).toContain(module);

    // An unchanged source reads the kept build back; proven by what the file says, not by esbuild.
    cached.js.body = `${cached.js.body}/* from the cache */`;
    writeFileSync(join(cacheDir, 'reader-assets', file!), JSON.stringify(cached));
    const second = await (await freshAssetsModule()).readerAssets(options);
    expect(second.js.body).toContain('/* from the cache */');

    write('SECOND_MARKER');
    const third = await (await freshAssetsModule()).readerAssets(options);
    expect(third.js.body).toContain('SECOND_MARKER');
    expect(third.js.body).not.toContain('/* from the cache */');
    expect(third.js.name).not.toBe(first.js.name);
  });

  it('names the missing client search module and how to fix it', async () => {
    const error = await buildReaderAssets({
      clientSearch: { module: '@kit/does-not-exist/client', resolveDir: scratch },
    }).catch((caught: unknown) => caught);
    expect(isKitError(error, 'argument.invalid')).toBe(true);
    expect((error as Error).message).toContain('@kit/does-not-exist/client');
  });
});
