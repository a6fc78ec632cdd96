import { describe, expect, it } from 'vitest';

describe('@kit/search public API', () => {
  it('exports exactly these values from the root entry', async () => {
    expect(Object.keys(await import('./index.js')).sort()).toMatchInlineSnapshot(`
      [
        "DEFAULT_BUDGET_KB",
        "DEFAULT_RANKING",
        "DEFAULT_SEARCH_LIMIT",
        "MAX_SEARCH_LIMIT",
        "MAX_SEARCH_SECTIONS",
        "SERVER_SEARCH_FORMAT",
        "SNIPPET_LENGTH",
        "WORKER_BUILD_FROM_SECTIONS",
        "analyzeQuery",
        "assertSearchQuery",
        "assertSearchScope",
        "createClientSearch",
        "createServerSearch",
        "gzipSize",
        "makeSnippet",
        "normalizeSearchLimit",
        "normalizeSearchSections",
        "registerSearchDriver",
        "resolveSearchDriver",
        "scopeKey",
        "searchDriverNames",
        "toSearchSections",
        "tokenize",
      ]
    `);
  });

  it('exports the browser query functions from @kit/search/client', async () => {
    expect(Object.keys(await import('./client/index.js')).sort()).toMatchInlineSnapshot(`
      [
        "CLIENT_INDEX_FORMAT",
        "loadClientIndex",
        "prepareClientIndex",
        "queryClientIndex",
      ]
    `);
  });

  it('exports the on-disk index cache from @kit/search/node', async () => {
    expect(Object.keys(await import('./node/index.js')).sort()).toMatchInlineSnapshot(`
      [
        "createDiskIndexCache",
        "createWorkerIndexBuilder",
        "searchCodeFingerprint",
        "searchIndexCacheDir",
      ]
    `);
  });
});
