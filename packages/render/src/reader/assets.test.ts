import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { isKitError } from '@kit/core';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildReaderAssets, readerAssets } from './assets.js';

/** What a page's first load may download of the reader script, gzipped. */
const SCRIPT_BUDGET_BYTES = 25 * 1024;
const STYLESHEET_BUDGET_BYTES = 50 * 1024;
async function freshAssetsModule(): Promise<typeof import('./assets.js')> {
  vi.resetModules();
  return import('./assets.js');
}

/** The Ask AI panel: a chunk every build has, fetched when a reader first opens the panel. */
function isAskChunk(chunk: { modules: string[] }): boolean {
  return chunk.modules.some((module) => module.endsWith('client/ask.ts'));
}

function withoutAsk<T extends { modules: string[] }>(chunks: T[]): T[] {
  return chunks.filter((chunk) => !isAskChunk(chunk));
}

describe('reader assets', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'kit-reader-assets-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('builds one script module and one stylesheet named by their content hash', async () => {
    const { js, css, chunks } = await readerAssets();
    expect(js.name).toMatch(/^reader\.[0-9a-f]{10}\.js$/);
    expect(css.name).toMatch(/^reader\.[0-9a-f]{10}\.css$/);
    expect(js.contentType).toBe('text/javascript; charset=utf-8');
    expect(css.contentType).toBe('text/css; charset=utf-8');
    expect(js.body).toContain('kit-reader-config');
    expect(css.body).toContain('.kit-sidebar');
    // Without a client search module the only file fetched later is the Ask AI panel, on first use.
    expect(withoutAsk(chunks)).toEqual([]);
    expect(chunks.filter(isAskChunk)).toHaveLength(1);
    expect(js.body).not.toMatch(/^import /m);
    expect(js.body.match(/\bimport\s*\(/g)).toHaveLength(1);
  });

  it('bundles the Arabic font as one woff2 named by its hash, declared for Arabic script only', async () => {
    const { css, fonts } = await readerAssets();
    expect(fonts).toHaveLength(1);
    const [font] = fonts;
    expect(font!.name).toMatch(/^noto-sans-arabic\.[0-9a-f]{10}\.woff2$/);
    expect(font!.contentType).toBe('font/woff2');
    expect(new TextDecoder().decode(font!.body.slice(0, 4))).toBe('wOF2');
    // The Arabic subset of a variable font: all weights, and far smaller than the whole family.
    expect(font!.body.length).toBeLessThan(250 * 1024);
    const face = /@font-face\{[^}]*\}/.exec(css.body)![0];
    expect(face).toContain('font-family:"Kit Noto Sans Arabic"');
    expect(face).toContain(`src:url(${font!.name}) format("woff2")`);
    expect(face).toContain('font-weight:100 900');
    expect(face).toMatch(/unicode-range:U\+0600-06FF, /);
    // No Latin, joiner or punctuation range that would fetch the font for a page without Arabic.
    expect(face).not.toMatch(/U\+00|U\+20[0-9A-F]{2}/);
  });

  it('keeps the script under 25 KB and the stylesheet under 50 KB gzipped', async () => {
    const { js, css } = await readerAssets();
    expect(gzipSync(js.body).length).toBeLessThan(SCRIPT_BUDGET_BYTES);
    expect(gzipSync(css.body).length).toBeLessThan(STYLESHEET_BUDGET_BYTES);
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
    // In a chunk of its own, imported on first use: the page's script only names it.
    const search = withoutAsk(plugged.chunks);
    expect(search.map((chunk) => chunk.modules)).toEqual([[module]]);
    expect(search[0]!.body).toContain('PLUGGED_SEARCH_MARKER');
    expect(plugged.js.body).not.toContain('PLUGGED_SEARCH_MARKER');
    expect(plugged.js.body).toContain(`import("./${search[0]!.name}")`);
    expect(plain.js.body).not.toContain('PLUGGED_SEARCH_MARKER');
    expect(withoutAsk(plain.chunks)).toEqual([]);
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
    expect(first).toEqual(built);
    const [file] = readdirSync(join(cacheDir, 'reader-assets'));
    const cached = JSON.parse(readFileSync(join(cacheDir, 'reader-assets', file!), 'utf8'));
    expect(Object.keys(cached.inputs)).toContain(module);

    // An unchanged source reads the kept build back; proven by what the file says, not by esbuild.
    const searchChunk = cached.chunks.find((chunk: { modules: string[] }) => !isAskChunk(chunk));
    searchChunk.body = `${searchChunk.body}/* from the cache */`;
    writeFileSync(join(cacheDir, 'reader-assets', file!), JSON.stringify(cached));
    const second = await (await freshAssetsModule()).readerAssets(options);
    expect(withoutAsk(second.chunks)[0]!.body).toContain('/* from the cache */');

    write('SECOND_MARKER');
    const third = await (await freshAssetsModule()).readerAssets(options);
    expect(withoutAsk(third.chunks)[0]!.body).toContain('SECOND_MARKER');
    expect(withoutAsk(third.chunks)[0]!.body).not.toContain('/* from the cache */');
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
