import { describe, expect, it } from 'vitest';
import { createArrayCacheStore, createNullCacheStore } from '../cache/cache-stores.js';
import type { ResolvedSetConfig } from '../config/types.js';
import type { SourcePage } from '../model/types.js';
import type { CacheStore } from '../ports/cache-store.js';
import type { ContentSource } from '../ports/content-source.js';
import type { Viewer } from '../ports/docset.js';
import type { PageRenderer, RenderContext, RenderedPage } from '../ports/renderer.js';
import { recordingCacheStore } from '../testing/cache-store.js';
import { type MemoryPage, memorySource, smallRenderer, substringSearch } from './__fixtures__/doubles.js';
import { createDocSet } from './docset.js';

const guest: Viewer = { user: null };

function setConfig(snippetsRoot: string | null = null): ResolvedSetConfig {
  return {
    key: 'docs',
    route: { prefix: 'docs', domain: null, middleware: ['web'] },
    source: { driver: 'database', connection: null, cache: null, disk: null },
    access: { mode: 'public' },
    html_input: 'escape',
    integrations: {},
    snippets: { root: snippetsRoot },
  } as unknown as ResolvedSetConfig;
}

const pages: MemoryPage[] = [
  { version: 'current', locale: 'en', path: 'index', body: '# Home\n\nStart here.' },
  { version: 'current', locale: 'en', path: 'routing', body: '# Routing\n\n## Groups\n\nGroups share middleware.' },
];

/** Two doc sets over one source and one store, as two server processes over one database and Redis. */
function twoProcesses(
  store: CacheStore,
  options: { snippetsRoot?: string | null; manifest?: Record<string, unknown> } = {},
) {
  const source = memorySource({ pages, manifest: options.manifest ?? { name: 'Docs' } });
  const make = () => {
    const renderer = smallRenderer();
    const search = substringSearch();
    const set = createDocSet({
      config: setConfig(options.snippetsRoot ?? null),
      source,
      renderer,
      search,
      cache: store,
    });
    return { set, renderer, search };
  };
  return { source, first: make(), second: make() };
}

describe('a doc set with a cache store', () => {
  it('takes a render another doc set left in the store instead of rendering the page again', async () => {
    const { first, second } = twoProcesses(createArrayCacheStore());
    const one = await first.set.readPage({ path: 'routing' }, guest);
    expect(first.renderer.renders).toEqual(['current/en/routing']);
    const two = await second.set.readPage({ path: 'routing' }, guest);
    expect(two.text).toBe(one.text);
    expect(second.renderer.renders).toEqual([]);
  });

  it('renders a changed page again: the store is keyed by content hash', async () => {
    const { source, first, second } = twoProcesses(createArrayCacheStore());
    await first.set.readPage({ path: 'routing' }, guest);
    source.setPage({ ...pages[1]!, body: '# Routing\n\nRewritten.' }, false);
    expect((await second.set.readPage({ path: 'routing' }, guest)).text).toContain('Rewritten.');
    expect(second.renderer.renders).toEqual(['current/en/routing']);
  });

  it('renders again after the manifest changes, since every link may point elsewhere', async () => {
    const { source, first, second } = twoProcesses(createArrayCacheStore());
    await first.set.readPage({ path: 'routing' }, guest);
    source.setManifest(JSON.stringify({ name: 'Docs', versions: ['current'], default_version: 'current' }), false);
    await second.set.readPage({ path: 'routing' }, guest);
    expect(second.renderer.renders).toEqual(['current/en/routing']);
  });

  it('builds a search index from the sections another doc set stored, rendering nothing', async () => {
    const { first, second } = twoProcesses(createArrayCacheStore());
    const found = await first.set.search({ query: 'middleware' }, guest, 'mcp');
    expect(found.results.map((hit) => hit.path)).toEqual(['routing']);
    expect((await second.set.search({ query: 'middleware' }, guest, 'mcp')).results).toEqual(found.results);
    expect(second.renderer.renders).toEqual([]);
    expect(second.search.indexed).toHaveLength(1);
  });

  it('keeps pages that include snippet files out of the store, since a snippet can change alone', async () => {
    const store = createArrayCacheStore();
    const source = memorySource({
      pages: [{ version: 'current', locale: 'en', path: 'index', body: '# Home\n\n<<< @/example.ts\n' }],
      manifest: { name: 'Docs' },
    });
    const make = () => {
      const renderer = smallRenderer();
      const set = createDocSet({
        config: setConfig('/app'),
        source,
        renderer,
        search: substringSearch(),
        cache: store,
      });
      return { set, renderer };
    };
    const [first, second] = [make(), make()];
    await first.set.readPage({ path: 'index' }, guest);
    await second.set.readPage({ path: 'index' }, guest);
    expect(second.renderer.renders).toEqual(['current/en/index']);
    expect(store.size).toBe(0);
  });

  it('keeps a page with a PHP heredoc (`<<<EOT`), which includes no file, and the sections of its version', async () => {
    const store = createArrayCacheStore();
    const source = memorySource({
      pages: [
        {
          version: 'current',
          locale: 'en',
          path: 'index',
          body: "# Home\n\n```php\nreturn <<<'blade'\n    Hello\nblade;\n```\n",
        },
      ],
      manifest: { name: 'Docs' },
    });
    const make = () => {
      const renderer = smallRenderer();
      const search = substringSearch();
      const set = createDocSet({ config: setConfig('/app'), source, renderer, search, cache: store });
      return { set, renderer, search };
    };
    const [first, second] = [make(), make()];
    await first.set.readPage({ path: 'index' }, guest);
    await first.set.search({ query: 'hello' }, guest, 'mcp');
    await second.set.readPage({ path: 'index' }, guest);
    await second.set.search({ query: 'hello' }, guest, 'mcp');
    expect(second.renderer.renders).toEqual([]);
    expect(second.search.indexed).toHaveLength(1);
  });

  it('renders every time with the null store', async () => {
    const { first, second } = twoProcesses(createNullCacheStore());
    await first.set.readPage({ path: 'routing' }, guest);
    await second.set.readPage({ path: 'routing' }, guest);
    expect(second.renderer.renders).toEqual(['current/en/routing']);
  });

  it('renders when the store fails, rather than failing the request', async () => {
    const broken: CacheStore = {
      get: () => Promise.reject(new Error('store down')),
      set: () => Promise.reject(new Error('store down')),
      delete: () => Promise.reject(new Error('store down')),
    };
    const { first } = twoProcesses(broken);
    expect((await first.set.readPage({ path: 'routing' }, guest)).text).toContain('Groups share middleware.');
    expect((await first.set.search({ query: 'middleware' }, guest, 'mcp')).results).toHaveLength(1);
  });
});

describe('a doc set over a shared source', () => {
  it('asks the source every time, though it can watch, since another process may have written', async () => {
    const watched = memorySource({ pages, manifest: { name: 'Docs' } });
    const shared: ContentSource & { reads: { listPages: number } } = Object.assign(
      memorySource({ pages, manifest: { name: 'Docs' } }),
      { shared: true },
    );
    for (const source of [watched, shared]) {
      const set = createDocSet({ config: setConfig(), source, renderer: smallRenderer(), search: substringSearch() });
      await set.listPages({}, guest);
      await set.listPages({}, guest);
    }
    expect(watched.reads.listPages).toBe(1);
    expect(shared.reads.listPages).toBeGreaterThanOrEqual(2);

    // A page another process added, with no change notice, is listed at once.
    (shared as ReturnType<typeof memorySource>).setPage(
      { version: 'current', locale: 'en', path: 'queues', body: '# Queues' },
      false,
    );
    const set = createDocSet({
      config: setConfig(),
      source: shared,
      renderer: smallRenderer(),
      search: substringSearch(),
    });
    await set.listPages({}, guest);
    (shared as ReturnType<typeof memorySource>).setPage(
      { version: 'current', locale: 'en', path: 'jobs', body: '# Jobs' },
      false,
    );
    const listed = await set.listPages({}, guest);
    expect(listed.groups.flatMap((group) => group.pages.map((page) => page.path))).toContain('jobs');
  });
});

describe('cache-store keys and what they are made from (review)', () => {
  /** A renderer whose output carries its release, as two Kit releases would render one page. */
  const release = (name: string) => {
    const inner = smallRenderer();
    return Object.assign(inner, {
      fingerprint: async () => name,
      async render(page: SourcePage, context: RenderContext): Promise<RenderedPage> {
        const out = await smallRenderer().render(page, context);
        inner.renders.push(`${page.version}/${page.locale}/${page.path}`);
        return {
          ...out,
          markdown: `${out.markdown}\n\nrendered by ${name}`,
          sections: out.sections.map((section) => ({ ...section, text: `${section.text} rendered by ${name}` })),
        };
      },
    });
  };

  it('never serves a render another renderer (another release, other components) left in the store', async () => {
    const store = createArrayCacheStore();
    const source = memorySource({ pages, manifest: { name: 'Docs' } });
    const set = (renderer: PageRenderer) =>
      createDocSet({ config: setConfig(), source, renderer, search: substringSearch(), cache: store });
    const older = release('kit-1');
    const newer = release('kit-2');
    expect((await set(older).readPage({ path: 'routing' }, guest)).text).toContain('rendered by kit-1');
    expect((await set(newer).readPage({ path: 'routing' }, guest)).text).toContain('rendered by kit-2');
    expect(newer.renders).toEqual(['current/en/routing']);
    // The same release still shares: a second process of kit-2 renders nothing.
    const again = release('kit-2');
    expect((await set(again).readPage({ path: 'routing' }, guest)).text).toContain('rendered by kit-2');
    expect(again.renders).toEqual([]);
  });

  it('builds search from its own renderer, not from sections another renderer stored', async () => {
    const store = createArrayCacheStore();
    const source = memorySource({ pages, manifest: { name: 'Docs' } });
    const set = (renderer: PageRenderer) =>
      createDocSet({ config: setConfig(), source, renderer, search: substringSearch(), cache: store });
    await set(release('kit-1')).search({ query: 'middleware' }, guest, 'mcp');
    const newer = release('kit-2');
    const found = await set(newer).search({ query: 'kit-2' }, guest, 'mcp');
    expect(new Set(found.results.map((hit) => hit.path))).toEqual(new Set(['index', 'routing']));
  });

  it('stores no render of a renderer that cannot say what it is, as it could not tell an old entry', async () => {
    const store = createArrayCacheStore();
    const source = memorySource({ pages, manifest: { name: 'Docs' } });
    const renderer: PageRenderer = smallRenderer();
    delete renderer.fingerprint;
    const set = createDocSet({ config: setConfig(), source, renderer, search: substringSearch(), cache: store });
    await set.readPage({ path: 'routing' }, guest);
    await set.search({ query: 'middleware' }, guest, 'mcp');
    expect(store.size).toBe(0);
  });

  it('removes the search sections an index replaced, so a store keeps one copy per scope, not one per change', async () => {
    const inner = createArrayCacheStore();
    const { store, keys } = recordingCacheStore(inner);
    const { source, first } = twoProcesses(store);
    const searchKeys = () => [...keys].filter((key) => key.startsWith('v1:search:'));
    await first.set.search({ query: 'middleware' }, guest, 'mcp');
    expect(searchKeys()).toHaveLength(1);
    for (const word of ['alpha', 'beta', 'gamma']) {
      source.setPage({ ...pages[1]!, body: `# Routing\n\nGroups share ${word}.` }, true);
      expect((await first.set.search({ query: word }, guest, 'mcp')).results).toHaveLength(1);
    }
    expect(searchKeys()).toHaveLength(1);
  });

  it('gives search hits the URLs of the current manifest after it changes, pages unchanged', async () => {
    for (const shared of [false, true]) {
      const source = Object.assign(memorySource({ pages, manifest: { name: 'Docs' } }), shared ? { shared } : {});
      const set = createDocSet({ config: setConfig(), source, renderer: smallRenderer(), search: substringSearch() });
      const before = await set.search({ query: 'middleware' }, guest, 'mcp');
      expect(before.results.map((hit) => hit.url)).toEqual(['/docs/routing#groups']);
      // `routing` becomes the landing page: its URL is the set's root now.
      source.setManifest(JSON.stringify({ name: 'Docs', landing: 'routing' }), !shared);
      const after = await set.search({ query: 'middleware' }, guest, 'mcp');
      expect(after.results.map((hit) => hit.url)).toEqual(['/docs#groups']);
    }
  });
});

describe('a search index rebuilt after one page changed', () => {
  it('takes the other pages sections from the stored list instead of asking for their renders', async () => {
    const many: MemoryPage[] = Array.from({ length: 6 }, (_, index) => ({
      version: 'current',
      locale: 'en',
      path: `page-${index}`,
      body: `# Page ${index}\n\n## Part\n\nText of page ${index} about routing.`,
    }));
    const source = memorySource({ pages: many, manifest: { name: 'Docs' } });
    const inner = createArrayCacheStore();
    const renderReads: string[] = [];
    const store: CacheStore = {
      get: (key) => {
        if (key.startsWith('v1:render:')) renderReads.push(key);
        return inner.get(key);
      },
      set: (key, value, options) => inner.set(key, value, options),
      delete: (key) => inner.delete(key),
    };
    const renderer = smallRenderer();
    // One render kept in memory: the others must come from the store or from the stored sections.
    const set = createDocSet({
      config: setConfig(),
      source,
      renderer,
      search: substringSearch(),
      cache: store,
      maxRenderedPages: 1,
    });
    expect((await set.search({ query: 'routing' }, guest, 'mcp')).results.length).toBeGreaterThan(0);
    renderReads.length = 0;
    renderer.renders.length = 0;
    source.setPage({ ...many[3]!, body: '# Page 3\n\n## Part\n\nNow about zeppelins.' });
    const found = await set.search({ query: 'zeppelins' }, guest, 'mcp');
    expect(found.results.map((hit) => hit.path)).toEqual(['page-3']);
    expect(renderer.renders).toEqual(['current/en/page-3']);
    // Only the changed page's render was asked of the store (and missed): none of the others'.
    expect(renderReads).toHaveLength(1);
    // The others are still found, from the sections kept.
    expect((await set.search({ query: 'page 5 routing' }, guest, 'mcp')).results.map((hit) => hit.path)).toContain(
      'page-5',
    );
  });
});
