import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { readerAssets } from '@kit/render/assets';
import { describe, expect, it } from 'vitest';
import { createKitApp } from './app.js';
import { fixtureKit } from './testing/fixture.js';

/** What a page's first load may download of the reader script, gzipped. */
const FIRST_LOAD_BUDGET_BYTES = 25 * 1024;

/** Code that belongs on the server only: precompiled validators, the YAML parser and Ajv, the JSON schemas. */
const SERVER_ONLY = [
  /\/core\/src\/schemas\//,
  /\/core\/src\/(config|manifest|validate)\//,
  /\/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?(?:yaml|ajv)\//,
  /\/schemas\/[^/]+\.json$/,
];

/** The reader script as the app builds it (same client search module, same folder to resolve it from). */
const served = () =>
  readerAssets({
    clientSearch: { module: '@kit/search/client', resolveDir: fileURLToPath(new URL('.', import.meta.url)) },
  });

describe('the reader script a browser downloads', () => {
  it('keeps a first page load under 25 KB gzipped and fetches the search engine and Ask AI only on first use', async () => {
    const app = createKitApp({ kit: fixtureKit(), cacheDir: null });
    const page = await (await app.request('/docs')).text();
    const src = /<script type="module" src="(\/docs\/_kit\/reader\.[0-9a-f]+\.js)"><\/script>/.exec(page)?.[1];
    expect(src, 'the page loads the reader script as a module').toBeDefined();
    const script = await (await app.request(src!)).text();
    expect(gzipSync(script).length).toBeLessThan(FIRST_LOAD_BUDGET_BYTES);
    // Nothing imported up front: every other file is behind import(), fetched when first used.
    expect(/(?:^|[;}])import\s*[{*"'\w]/m.test(script), 'the script imports a file up front').toBe(false);
    const later = [...script.matchAll(/import\("\.\/(reader-[\w-]+\.js)"\)/g)].map((match) => match[1]!);
    expect(later).toHaveLength(2);
    const bodies: string[] = [];
    for (const name of later) {
      const chunk = await app.request(`/docs/_kit/${name}`);
      expect(chunk.status).toBe(200);
      expect(chunk.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(chunk.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const body = await chunk.text();
      // Each chunk stands alone: loading one fetches nothing more.
      expect(/(?:^|[;}])import\s*[{*"'\w]/m.test(body), `${name} imports a file`).toBe(false);
      bodies.push(body);
    }
    expect(bodies.filter((body) => body.includes('queryClientIndex'))).toHaveLength(1);
    expect(bodies.filter((body) => body.includes('kit-ask-log'))).toHaveLength(1);
  });

  it('bundles the page script from the reader sources only, and the search chunk from the search engine', async () => {
    const { js, chunks } = await served();
    const repo = fileURLToPath(new URL('../../../', import.meta.url));
    const local = (modules: string[]) => modules.map((module) => module.replace(repo, ''));
    expect(local(js.modules)).toEqual([
      'packages/render/client/code.ts',
      'packages/render/client/color-mode.ts',
      'packages/render/client/drawer.ts',
      'packages/render/client/feedback.ts',
      'packages/render/client/fragment.ts',
      'packages/render/client/fresh.ts',
      'packages/render/client/highlight-swap.ts',
      'packages/render/client/index.ts',
      'packages/render/client/nav.ts',
      'packages/render/client/page-actions.ts',
      'packages/render/client/search-results.ts',
      'packages/render/client/search.ts',
      'packages/render/client/storage.ts',
      'packages/render/client/switchers.ts',
      'packages/render/client/toc.ts',
      'packages/render/client/ui-text.ts',
      'packages/render/src/html/sanitize.ts',
      'packages/render/src/reader/client-config.ts',
      'packages/render/src/reader/client-logic.ts',
    ]);
    expect(chunks).toHaveLength(2);
    const askChunk = chunks.find((chunk) => chunk.modules.some((module) => module.endsWith('client/ask.ts')))!;
    expect(local(askChunk.modules)).toEqual([
      'packages/render/client/ask.ts',
      'packages/render/src/reader/ask-logic.ts',
    ]);
    const searchChunk = local(chunks.find((chunk) => chunk !== askChunk)!.modules);
    expect(searchChunk).toContain('packages/search/src/client/index.ts');
    expect(searchChunk).toContain('packages/search/src/engine/rank.ts');
    // Of @kit/core only the search limits (and the internal entry they are imported through) come along.
    expect(searchChunk.filter((module) => module.startsWith('packages/core/'))).toEqual([
      'packages/core/src/docset/search-limit.ts',
      'packages/core/src/errors/kit-error.ts',
      'packages/core/src/internal.ts',
    ]);
  });

  it('sends no validators, YAML parser or JSON schemas to the browser', async () => {
    const { js, chunks } = await served();
    for (const file of [js, ...chunks]) {
      expect(file.modules.filter((module) => SERVER_ONLY.some((pattern) => pattern.test(module)))).toEqual([]);
    }
  });
});
