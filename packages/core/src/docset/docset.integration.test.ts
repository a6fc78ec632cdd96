// The doc set composed with the real packages it is built for: @kit/source-fs over the Laravel
// corpus, @kit/render and @kit/search's server driver. Core may not depend on them, so they are
// loaded by file path at test time (test files are outside the layering rule).
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gates, ResolvedSetConfig } from '../config/types.js';
import { isKitError } from '../errors/kit-error.js';
import { createEvents } from '../events/emitter.js';
import type { ContentSource } from '../ports/content-source.js';
import type { Viewer } from '../ports/docset.js';
import type { PageRenderer } from '../ports/renderer.js';
import type { SearchDriver } from '../ports/search-driver.js';
import { memorySource } from './__fixtures__/doubles.js';
import { createDocSet } from './docset.js';

const packages = join(import.meta.dirname, '..', '..', '..');
const corpus = `${process.env.KIT_SHARED_DIR}/corpora/laravel`;

interface Registry {
  register(name: string, definition: { html(): string; markdown(): string }): void;
}

interface Parts {
  createFsSource(options: { root: string; setKey: string; git?: boolean }): ContentSource;
  createRenderer(options?: { components?: Registry }): PageRenderer;
  createComponentRegistry(): Registry;
  createServerSearch(): SearchDriver;
}

async function loadParts(): Promise<Parts> {
  const [fs, render, search] = await Promise.all([
    import(join(packages, 'source-fs', 'src', 'index.ts')),
    import(join(packages, 'render', 'src', 'index.ts')),
    import(join(packages, 'search', 'src', 'index.ts')),
  ]);
  return {
    createFsSource: fs.createFsSource,
    createRenderer: render.createRenderer,
    createComponentRegistry: render.createComponentRegistry,
    createServerSearch: search.createServerSearch,
  };
}

function setConfig(htmlInput: 'allow' | 'escape'): ResolvedSetConfig {
  return {
    key: 'docs',
    route: { prefix: 'docs', domain: null, middleware: ['web'] },
    source: { driver: 'repository', path: corpus, connection: null, cache: null, disk: null },
    access: { mode: 'public' },
    html_input: htmlInput,
    integrations: {},
    snippets: { root: null },
  } as unknown as ResolvedSetConfig;
}

const guest: Viewer = { user: null };
const staff: Viewer = { user: { role: 'staff' } };
const gates: Gates = { viewKit: (user) => (user as { role?: string } | null)?.role === 'staff' };

let parts: Parts;
beforeAll(async () => {
  parts = await loadParts();
});

describe('a doc set over the Laravel corpus with the real source, renderer and search', () => {
  function laravel() {
    return createDocSet({
      config: setConfig('allow'),
      source: parts.createFsSource({ root: corpus, setKey: 'docs', git: false }),
      renderer: parts.createRenderer(),
      search: parts.createServerSearch(),
      events: createEvents(),
      gates,
      origin: 'https://laravel.test',
    });
  }

  it('reads the 13.x routing page by its URL with meta and the content_hash line', async () => {
    const docs = laravel();
    const result = await docs.readPage({ path: 'https://laravel.test/docs/13.x/routing.md' }, guest);
    expect(result.meta).toMatchObject({
      title: 'Routing',
      path: 'routing',
      version: '13.x',
      locale: 'en',
      url: 'https://laravel.test/docs/routing',
      markdown_url: 'https://laravel.test/docs/routing.md',
    });
    expect(result.meta.content_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(result.text).toContain('## Route Groups');
    expect(result.text.endsWith(`\n\ncontent_hash: ${result.meta.content_hash}\n`)).toBe(true);
    expect(await docs.resolveUrl('/docs/13.x/routing', guest)).toMatchObject({
      kind: 'page',
      ref: { version: '13.x' },
    });
    expect(await docs.resolveUrl('/docs/11.x', guest)).toMatchObject({ kind: 'page', ref: { path: 'installation' } });
  });

  it('returns one section of the routing page by heading text and by anchor', async () => {
    const docs = laravel();
    const byText = await docs.readPage({ path: 'routing', version: '12.x', section: 'Route Groups' }, guest);
    expect(byText.text.startsWith('## Route Groups')).toBe(true);
    expect(byText.text).toContain('Route Prefixes');
    expect(byText.text).not.toContain('## Route Model Binding');
    const byAnchor = await docs.readPage({ path: 'routing', section: 'redirect-routes' }, guest);
    expect(byAnchor.text.startsWith('### Redirect Routes')).toBe(true);
    expect(byAnchor.text).not.toContain('### View Routes');
  });

  it('lists the navigation groups of a version and suggests paths for a typo', async () => {
    const docs = laravel();
    const listing = await docs.listPages({ version: '12.x', group: 'Getting Started' }, guest);
    expect(listing.groups).toHaveLength(1);
    expect(listing.groups[0]!.pages.map((page) => page.path)).toContain('installation');
    let caught: unknown;
    try {
      await docs.readPage({ path: 'routnig' }, guest);
    } catch (error) {
      caught = error;
    }
    expect(isKitError(caught, 'page.not_found')).toBe(true);
    expect((caught as Error).message).toContain('"routing"');
  });
});

describe('private content in a small repository set with the real source and renderer', () => {
  let root: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'kit-docset-'));
    writeFileSync(
      join(root, 'kit.json'),
      JSON.stringify({ name: 'Small', versions: ['13.x', { id: 'next', visibility: 'private' }] }),
    );
    for (const page of ['installation', 'routing']) {
      cpSync(join(corpus, '13.x', `${page}.md`), join(root, '13.x', `${page}.md`));
    }
    writeFileSync(
      join(root, '13.x', 'roadmap.md'),
      '---\ntitle: Roadmap\nvisibility: private\n---\n\n# Roadmap\n\nUnannounced features.\n',
    );
    cpSync(join(corpus, '13.x', 'routing.md'), join(root, 'next', 'routing.md'));
    writeFileSync(join(root, 'next', 'installation.md'), '# Next\n\nThe coming release.\n');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  function small() {
    return createDocSet({
      config: setConfig('escape'),
      source: parts.createFsSource({ root, setKey: 'docs', git: false }),
      renderer: parts.createRenderer(),
      search: parts.createServerSearch(),
      gates,
    });
  }

  it('keeps a private version invisible to a guest and open to a viewer viewKit allows', async () => {
    const docs = small();
    expect((await docs.versions(guest)).map((v) => v.id)).toEqual(['13.x']);
    expect(await docs.resolveUrl('/docs/next/routing', guest)).toEqual({ kind: 'none' });
    let caught: unknown;
    try {
      await docs.readPage({ path: 'routing', version: 'next' }, guest);
    } catch (error) {
      caught = error;
    }
    expect(isKitError(caught, 'version.not_found')).toBe(true);
    expect((caught as Error).message).not.toContain('next,');
    expect((await docs.readPage({ path: 'routing', version: 'next' }, staff)).meta.version).toBe('next');
  });

  it('keeps a page with visibility private out of guest reads, listings and search', async () => {
    const docs = small();
    expect(await docs.getPage({ path: 'roadmap' }, guest)).toBeNull();
    expect((await docs.visiblePages({}, guest)).map((page) => page.path)).not.toContain('roadmap');
    const guestHits = await docs.search({ query: 'unannounced features' }, guest, 'mcp');
    expect(guestHits.results.map((hit) => hit.path)).not.toContain('roadmap');
    expect((await docs.getPage({ path: 'roadmap' }, staff))?.page.title).toBe('Roadmap');
    const staffHits = await docs.search({ query: 'unannounced features' }, staff, 'mcp');
    expect(staffHits.results.map((hit) => hit.path)).toContain('roadmap');
  });

  it('finds the routing section a question is about, with section URLs', async () => {
    const docs = small();
    const result = await docs.search({ query: 'route group middleware', limit: 3 }, guest, 'cli');
    expect(result.results.length).toBeGreaterThan(0);
    expect(result.results.length).toBeLessThanOrEqual(3);
    expect(result.results[0]).toMatchObject({ path: 'routing', markdown_url: '/docs/routing.md' });
    expect(result.results[0]!.url).toMatch(/^\/docs\/routing#/);
  });
});

describe('a doc set whose renderer gets a component after pages were rendered', () => {
  it('serves the component on the page and in its agent Markdown instead of the unknown-component text', async () => {
    const components = parts.createComponentRegistry();
    const docs = createDocSet({
      config: setConfig('escape'),
      source: memorySource({
        manifest: { name: 'Small' },
        pages: [{ version: 'current', locale: 'en', path: 'index', body: '# Home\n\n<Zed />\n' }],
      }),
      renderer: parts.createRenderer({ components }),
      search: parts.createServerSearch(),
    });
    const before = await docs.getPage({ path: 'index' }, guest);
    expect(before!.rendered.html).toContain('&lt;Zed /&gt;');
    expect(before!.rendered.problems).toMatchObject([{ rule: 'components.unknown' }]);

    components.register('Zed', { html: () => '<b>zebra</b>', markdown: () => 'A zebra.' });
    const after = await docs.getPage({ path: 'index' }, guest);
    expect(after!.rendered.html).toContain('<b>zebra</b>');
    expect(after!.rendered.problems).toEqual([]);
    expect(after!.agentMarkdown).toContain('A zebra.');
    expect((await docs.readPage({ path: 'index' }, guest)).text).toContain('A zebra.');
  });
});
