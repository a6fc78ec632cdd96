import { describe, expect, it } from 'vitest';
import type { AccessMode, Gates, ResolvedSetConfig } from '../config/types.js';
import { isKitError, type KitError } from '../errors/kit-error.js';
import { createEvents } from '../events/emitter.js';
import type { KitEventMap } from '../events/types.js';
import type { Viewer } from '../ports/docset.js';
import { type MemoryPage, memorySource, smallRenderer, substringSearch } from './__fixtures__/doubles.js';
import { createDocSet, withContentHashLine } from './docset.js';

const guest: Viewer = { user: null };
const reader: Viewer = { user: { id: 2, role: 'reader' } };
const staff: Viewer = { user: { id: 1, role: 'staff' } };
const admin: Viewer = { user: { id: 3, role: 'admin' } };
const gates: Gates = {
  viewKit: (user) => (user as { role?: string } | null)?.role === 'staff',
  manageKit: (user) => (user as { role?: string } | null)?.role === 'admin',
};

function setConfig(mode: AccessMode = 'public', prefix = 'docs'): ResolvedSetConfig {
  return {
    key: 'docs',
    route: { prefix, domain: null, middleware: ['web'] },
    source: { driver: 'repository', path: '/tmp/docs', connection: null, cache: null, disk: null },
    access: { mode },
    html_input: 'escape',
    integrations: {},
    snippets: { root: null },
  } as unknown as ResolvedSetConfig;
}

const routingBody = [
  '# Routing',
  '',
  'Routes map URLs to handlers.',
  '',
  '## Basic Routing',
  '',
  'Define a route with a closure. See [middleware](/docs/{{version}}/middleware).',
  '',
  '```md',
  '## Not a heading inside code',
  '```',
  '',
  '### Redirect Routes',
  '',
  'Redirect one URI to another.',
  '',
  '## Route Groups',
  '',
  'Groups share middleware.',
].join('\n');

const pages: MemoryPage[] = [
  { version: '2.x', locale: 'en', path: 'index', body: '# Welcome\n\nStart here.' },
  { version: '2.x', locale: 'en', path: 'routing', body: routingBody, frontmatter: { description: 'URLs to code.' } },
  { version: '2.x', locale: 'en', path: 'guides/index', body: '# Guides\n\nAll guides.' },
  { version: '2.x', locale: 'en', path: 'guides/setup', body: '# Setup\n\nInstall the package.' },
  {
    version: '2.x',
    locale: 'en',
    path: 'internal',
    body: '# Internal\n\nSecret routing runbook.',
    frontmatter: { visibility: 'private' },
  },
  { version: '2.x', locale: 'en', path: 'orphan', body: '# Orphan\n\nNot in navigation.' },
  { version: '2.x', locale: 'ar', path: 'index', body: '# مرحبا\n\nابدأ هنا.' },
  { version: '1.x', locale: 'en', path: 'index', body: '# Welcome to 1.x' },
  { version: '1.x', locale: 'en', path: 'routing', body: '# Routing\n\nOld routing in {{version}}.' },
  { version: 'secret', locale: 'en', path: 'index', body: '# Secret version' },
  { version: 'secret', locale: 'en', path: 'plans', body: '# Plans\n\nRouting plans for next year.' },
];

const navigation = {
  groups: [
    { label: 'Start', pages: ['index', { path: 'routing', title: 'Routing basics' }] },
    { label: 'Guides', pages: ['guides/index', 'guides/setup', 'internal', 'missing-page'] },
    { label: 'Links', pages: [{ label: 'GitHub', href: 'https://github.com/acme' }] },
  ],
};

const manifest = {
  name: 'Acme',
  versions: ['2.x', '1.x', { id: 'secret', visibility: 'private' }],
  locales: ['en', 'ar'],
  redirects: [
    { from: '/docs/old-routing', to: '/docs/routing' },
    { from: '/docs/internal', to: '/docs/guides/setup', status: 302 },
    { from: '/docs/secret/plans-old', to: '/docs/secret/plans' },
  ],
};

function build(options: { mode?: AccessMode; watch?: boolean; prefix?: string; origin?: string; gates?: Gates } = {}) {
  const source = memorySource({
    manifest,
    pages,
    navigation: [{ version: '2.x', locale: 'en', nav: navigation }],
    watch: options.watch,
  });
  const renderer = smallRenderer();
  const search = substringSearch();
  const events = createEvents();
  const docs = createDocSet({
    config: setConfig(options.mode, options.prefix),
    source,
    renderer,
    search,
    events,
    gates: options.gates ?? gates,
    origin: options.origin ?? 'https://acme.test',
  });
  return { docs, source, renderer, search, events };
}

async function errorOf(promise: Promise<unknown>): Promise<KitError> {
  try {
    await promise;
  } catch (error) {
    if (isKitError(error)) return error;
    throw error;
  }
  throw new Error('expected a KitError');
}

describe('createDocSet: URLs', () => {
  it('resolves page URLs, Markdown twins and the landing page', async () => {
    const { docs } = build();
    expect(await docs.resolveUrl('/docs/routing', guest)).toEqual({
      kind: 'page',
      ref: { set: 'docs', version: '2.x', locale: 'en', path: 'routing' },
      markdown: false,
    });
    expect(await docs.resolveUrl('/docs/1.x/routing.md', guest)).toMatchObject({
      kind: 'page',
      ref: { version: '1.x', path: 'routing' },
      markdown: true,
    });
    expect(await docs.resolveUrl('/docs', guest)).toMatchObject({ kind: 'page', ref: { path: 'index' } });
    expect(await docs.resolveUrl('/docs/ar/index.md', guest)).toMatchObject({
      kind: 'page',
      ref: { locale: 'ar', path: 'index' },
      markdown: true,
    });
  });

  it('serves a folder index page at the folder URL', async () => {
    const { docs } = build();
    expect(await docs.resolveUrl('/docs/guides', guest)).toMatchObject({ kind: 'page', ref: { path: 'guides/index' } });
    expect(await docs.pageUrl({ version: '2.x', locale: 'en', path: 'guides/index' })).toBe('/docs/guides');
  });

  it('redirects a trailing slash to the URL without it, permanently', async () => {
    const { docs } = build();
    expect(await docs.resolveUrl('/docs/1.x/', guest)).toEqual({
      kind: 'redirect',
      location: '/docs/1.x',
      status: 308,
    });
    expect(await docs.resolveUrl('/docs/nothing-here/', guest)).toEqual({ kind: 'none' });
  });

  it('runs a manifest redirect where no page lives, keeping the reader in their version', async () => {
    const { docs } = build();
    expect(await docs.resolveUrl('/docs/old-routing', guest)).toEqual({
      kind: 'redirect',
      location: '/docs/routing',
      status: 301,
    });
    expect(await docs.resolveUrl('/docs/1.x/old-routing.md', guest)).toEqual({
      kind: 'redirect',
      location: '/docs/1.x/routing.md',
      status: 301,
    });
  });

  it('answers a private page like a missing one: the redirect at its path runs for a guest', async () => {
    const { docs } = build();
    expect(await docs.resolveUrl('/docs/internal', guest)).toEqual({
      kind: 'redirect',
      location: '/docs/guides/setup',
      status: 302,
    });
    expect(await docs.resolveUrl('/docs/internal', staff)).toMatchObject({ kind: 'page', ref: { path: 'internal' } });
  });

  it('answers a private version like an undeclared one', async () => {
    const { docs } = build();
    expect(await docs.resolveUrl('/docs/secret/plans', guest)).toEqual({ kind: 'none' });
    expect(await docs.resolveUrl('/docs/secret/plans-old', guest)).toEqual({ kind: 'none' });
    expect(await docs.resolveUrl('/docs/secret/plans', staff)).toMatchObject({
      kind: 'page',
      ref: { version: 'secret', path: 'plans' },
    });
    expect(await docs.resolveUrl('/docs/secret/plans-old', staff)).toEqual({
      kind: 'redirect',
      location: '/docs/secret/plans',
      status: 301,
    });
  });

  it('keeps where a URL leads while watching, until the content changes', async () => {
    const { docs, source } = build();
    const first = await docs.resolveUrl('/docs/guides/setup', reader);
    expect(first).toMatchObject({ kind: 'page', ref: { path: 'guides/setup' } });
    const reads = source.reads.getPage + source.reads.listPages;
    expect(await docs.resolveUrl('/docs/guides/setup', reader)).toBe(first);
    expect(source.reads.getPage + source.reads.listPages).toBe(reads);
    expect(Object.isFrozen(first)).toBe(true);
    source.removePage('2.x', 'en', 'guides/setup');
    expect(await docs.resolveUrl('/docs/guides/setup', reader)).toEqual({ kind: 'none' });
  });

  it('answers a URL it keeps without a promise when every gate answers at once, still asking them each time', async () => {
    let asked = 0;
    let staffSeesSecret = true;
    const countingGates: Gates = {
      viewKit: (user) => {
        asked += 1;
        return staffSeesSecret && (user as { role?: string } | null)?.role === 'staff';
      },
    };
    const { docs } = build({ gates: countingGates });
    const first = await docs.resolveUrl('/docs/guides/setup', staff);
    const before = asked;
    const again = docs.resolveUrl('/docs/guides/setup', staff);
    expect(again).not.toBeInstanceOf(Promise);
    expect(again).toBe(first);
    // The private version's gate was asked again: what staff may see is never kept.
    expect(asked).toBeGreaterThan(before);
    // A URL not found before, or a gate answering later, is waited for; the answer is resolveUrl's.
    expect(docs.resolveUrl('/docs/secret/plans', staff)).toBeInstanceOf(Promise);
    const { docs: slowGates } = build({
      gates: { viewKit: async (user) => (user as { role?: string } | null)?.role === 'staff' },
    });
    await slowGates.resolveUrl('/docs/guides/setup', staff);
    const waited = slowGates.resolveUrl('/docs/guides/setup', staff);
    expect(waited).toBeInstanceOf(Promise);
    expect(await waited).toEqual(first);
    // The gate changes its mind: the next call hears it.
    expect(await docs.resolveUrl('/docs/secret/plans', staff)).toMatchObject({ kind: 'page' });
    staffSeesSecret = false;
    expect(await docs.resolveUrl('/docs/secret/plans', staff)).toEqual({ kind: 'none' });
    expect(await docs.resolveUrl('/docs/secret/plans', guest)).toEqual({ kind: 'none' });
  });

  it('never keeps a page a gate decided on for another viewer who sees the same versions', async () => {
    // Both may read every version; only staff may read the private `internal` page.
    const pageGates: Gates = {
      viewKit: (user, subject) =>
        subject.page === 'internal' ? (user as { role?: string } | null)?.role === 'staff' : user !== null,
    };
    const { docs } = build({ gates: pageGates });
    for (let round = 0; round < 2; round++) {
      expect(await docs.resolveUrl('/docs/internal', staff)).toMatchObject({ kind: 'page', ref: { path: 'internal' } });
      expect(await docs.resolveUrl('/docs/internal', reader)).toEqual({
        kind: 'redirect',
        location: '/docs/guides/setup',
        status: 302,
      });
    }
    // A gate that changes its mind is heard on the next request.
    expect(await docs.resolveUrl('/docs/secret/plans', reader)).toMatchObject({ kind: 'page' });
    pageGates.viewKit = (user) => (user as { role?: string } | null)?.role === 'staff';
    expect(await docs.resolveUrl('/docs/secret/plans', reader)).toEqual({ kind: 'none' });
  });

  it('answers nothing outside its prefix and for unsafe paths', async () => {
    const { docs } = build();
    expect(await docs.resolveUrl('/blog/routing', guest)).toEqual({ kind: 'none' });
    expect(await docs.resolveUrl('/docs/../etc/passwd', guest)).toEqual({ kind: 'none' });
  });

  it('lets nobody but signed-in users resolve pages of an auth-mode set', async () => {
    const { docs } = build({ mode: 'auth' });
    expect(await docs.resolveUrl('/docs/routing', guest)).toEqual({ kind: 'none' });
    expect(await docs.resolveUrl('/docs/routing', reader)).toMatchObject({ kind: 'page' });
    expect(await docs.versions(guest)).toEqual([]);
  });

  it('serves a root-mounted set from the domain root', async () => {
    const { docs } = build({ prefix: '' });
    expect(await docs.resolveUrl('/', guest)).toMatchObject({ kind: 'page', ref: { path: 'index' } });
    expect(await docs.resolveUrl('/1.x/routing', guest)).toMatchObject({ kind: 'page', ref: { version: '1.x' } });
    expect(await docs.pageUrl({ version: '1.x', locale: 'ar', path: 'routing' })).toBe('/1.x/ar/routing');
  });
});

describe('createDocSet: versions and access', () => {
  it('lists only the versions a viewer may see', async () => {
    const { docs } = build();
    expect((await docs.versions(guest)).map((v) => v.id)).toEqual(['2.x', '1.x']);
    expect((await docs.versions(staff)).map((v) => v.id)).toEqual(['2.x', '1.x', 'secret']);
    expect((await docs.locales()).map((l) => l.code)).toEqual(['en', 'ar']);
  });

  it('answers canView for the set, a version and a page', async () => {
    const { docs } = build();
    expect(await docs.canView(guest, {})).toBe(true);
    expect(await docs.canView(guest, { version: 'secret' })).toBe(false);
    expect(await docs.canView(staff, { version: 'secret' })).toBe(true);
    expect(await docs.canView(guest, { path: 'internal' })).toBe(false);
    expect(await docs.canView(staff, { path: 'internal' })).toBe(true);
    expect(await docs.canView(guest, { path: 'routing' })).toBe(true);
    expect(await docs.canView(guest, { path: 'does-not-exist' })).toBe(false);
    expect(await docs.canView(guest, { version: 'nope' })).toBe(false);
  });

  it('answers canManage from the manageKit gate only', async () => {
    const { docs } = build();
    expect(await docs.canManage(admin)).toBe(true);
    expect(await docs.canManage(staff)).toBe(false);
    expect(await docs.canManage(guest)).toBe(false);
  });

  it('checks every page with viewKit in gate mode', async () => {
    const { docs } = build({ mode: 'gate' });
    expect(await docs.getPage({ path: 'routing' }, reader)).toBeNull();
    expect(await docs.getPage({ path: 'routing' }, staff)).not.toBeNull();
    expect(await docs.canView(reader, {})).toBe(false);
  });
});

describe('createDocSet: getPage and rendering', () => {
  it('renders a page with its URLs and agent Markdown ending in the content_hash line', async () => {
    const { docs, renderer } = build();
    const page = await docs.getPage({ version: '1.x', path: 'routing' }, guest);
    expect(page).not.toBeNull();
    expect(page!.url).toBe('/docs/1.x/routing');
    expect(page!.markdownUrl).toBe('/docs/1.x/routing.md');
    expect(page!.rendered.markdown).toContain('Old routing in 1.x.');
    expect(page!.agentMarkdown.endsWith(`\n\ncontent_hash: ${page!.page.contentHash}\n`)).toBe(true);
    const context = renderer.contexts[0]!;
    expect(context).toMatchObject({ set: 'docs', version: '1.x', versionSegment: '1.x', origin: 'https://acme.test' });
    expect(context.pageUrl('middleware#groups')).toBe('/docs/1.x/middleware#groups');
    expect(context.pageUrl('index')).toBe('/docs/1.x');
  });

  it('renders each page once while its hash holds: the reader render serves agents and search too', async () => {
    const { docs, renderer } = build();
    await docs.getPage({ path: 'routing' }, guest);
    await docs.getPage({ path: 'routing' }, guest);
    await docs.readPage({ path: 'routing' }, guest);
    await docs.readPage({ path: 'routing', section: 'Route Groups' }, guest);
    await docs.search({ query: 'routing' }, guest, 'mcp');
    const routingRenders = renderer.contexts.filter((_, index) => renderer.renders[index] === '2.x/en/routing');
    expect(routingRenders.map((context) => context.highlight)).toEqual([undefined]);
  });

  it('renders for agents without highlighting when no reader has asked for the page yet', async () => {
    const { docs, renderer } = build();
    await docs.readPage({ path: 'routing' }, guest);
    await docs.getPage({ path: 'routing' }, guest);
    await docs.readPage({ path: 'routing' }, guest);
    const routingRenders = renderer.contexts.filter((_, index) => renderer.renders[index] === '2.x/en/routing');
    expect(routingRenders.map((context) => context.highlight)).toEqual([false, undefined]);
  });

  it('renders again after the source reports a change', async () => {
    const { docs, renderer, source } = build();
    await docs.getPage({ path: 'routing' }, guest);
    source.setPage({ version: '2.x', locale: 'en', path: 'routing', body: '# Routing\n\nRewritten.' });
    const page = await docs.getPage({ path: 'routing' }, guest);
    expect(page!.rendered.markdown).toContain('Rewritten.');
    expect(renderer.renders.filter((r) => r === '2.x/en/routing')).toHaveLength(2);
  });

  it('notices changed content through the hash when the source cannot watch', async () => {
    const { docs, source } = build({ watch: false });
    await docs.getPage({ path: 'routing' }, guest);
    source.setPage({ version: '2.x', locale: 'en', path: 'routing', body: '# Routing\n\nChanged quietly.' }, false);
    expect((await docs.getPage({ path: 'routing' }, guest))!.rendered.markdown).toContain('Changed quietly.');
  });

  it('renders again, and indexes again, once the renderer says its output changed (a component registered)', async () => {
    const { docs, renderer, search } = build();
    let generation = 0;
    renderer.generation = () => generation;
    await docs.getPage({ path: 'routing' }, guest);
    await docs.search({ query: 'routing' }, guest, 'mcp');
    await docs.getPage({ path: 'routing' }, guest);
    await docs.search({ query: 'routing' }, guest, 'mcp');
    expect(renderer.renders.filter((r) => r === '2.x/en/routing')).toHaveLength(1);
    expect(search.indexed).toHaveLength(1);

    generation += 1;
    await docs.getPage({ path: 'routing' }, guest);
    await docs.search({ query: 'routing' }, guest, 'mcp');
    expect(renderer.renders.filter((r) => r === '2.x/en/routing')).toHaveLength(2);
    expect(search.indexed).toHaveLength(2);
  });

  it('returns null for hidden and missing pages alike, and for unknown versions', async () => {
    const { docs } = build();
    expect(await docs.getPage({ path: 'internal' }, guest)).toBeNull();
    expect(await docs.getPage({ path: 'no-such-page' }, guest)).toBeNull();
    expect(await docs.getPage({ version: 'secret', path: 'plans' }, guest)).toBeNull();
    expect(await docs.getPage({ version: '9.x', path: 'routing' }, guest)).toBeNull();
    expect(await docs.getPage({ version: 'secret', path: 'plans' }, staff)).not.toBeNull();
  });

  it('stops watching the source on close', async () => {
    const { docs, source } = build();
    expect(source.watchers).toBe(1);
    await docs.close();
    expect(source.watchers).toBe(0);
  });
});

describe('createDocSet: readPage', () => {
  it('reads a page by path, URL, absolute URL and .md URL with the same result', async () => {
    const { docs } = build();
    const byPath = await docs.readPage({ path: 'routing', version: '1.x' }, guest);
    expect(byPath.meta).toEqual({
      title: 'Routing',
      path: 'routing',
      version: '1.x',
      locale: 'en',
      url: 'https://acme.test/docs/1.x/routing',
      markdown_url: 'https://acme.test/docs/1.x/routing.md',
      content_hash: byPath.meta.content_hash,
    });
    expect(byPath.text.endsWith(`content_hash: ${byPath.meta.content_hash}\n`)).toBe(true);
    for (const path of [
      '/docs/1.x/routing',
      '/docs/1.x/routing.md',
      'https://acme.test/docs/1.x/routing.md',
      'routing.md',
    ]) {
      const again = await docs.readPage({ path, version: path === 'routing.md' ? '1.x' : undefined }, guest);
      expect(again).toEqual(byPath);
    }
  });

  it('reads the landing page as index when the manifest names another landing page', async () => {
    const docs = createDocSet({
      config: setConfig(),
      source: memorySource({
        manifest: { ...manifest, landing: 'guides/setup' },
        pages: pages.filter((page) => page.path !== 'index'),
      }),
      renderer: smallRenderer(),
      search: substringSearch(),
      events: createEvents(),
      gates,
    });
    expect((await docs.readPage({ path: 'index' }, guest)).meta.path).toBe('guides/setup');
    expect((await docs.readPage({ path: 'index.md' }, guest)).meta.path).toBe('guides/setup');
    const { docs: withIndexPage } = build();
    expect((await withIndexPage.readPage({ path: 'index' }, guest)).meta.path).toBe('index');
  });

  it('reads, lists and searches the current version when no version is named', async () => {
    const docs = createDocSet({
      config: setConfig(),
      source: memorySource({
        manifest: {
          ...manifest,
          versions: [{ id: '1.x', default: true, status: 'maintained' }, '2.x'],
        },
        pages,
      }),
      renderer: smallRenderer(),
      search: substringSearch(),
      events: createEvents(),
      gates,
    });
    expect((await docs.readPage({ path: 'routing' }, guest)).meta.version).toBe('2.x');
    expect((await docs.listPages({}, guest)).version).toBe('2.x');
    expect((await docs.search({ query: 'routing' }, guest, 'mcp')).version).toBe('2.x');
    // A URL without a version names the default version, as in a browser.
    expect((await docs.readPage({ path: '/docs/routing' }, guest)).meta.version).toBe('1.x');
    expect((await docs.readPage({ path: 'routing', version: '1.x' }, guest)).meta.version).toBe('1.x');
  });

  it('reads a page whose name holds ? or #, and still reads a section after # of another page', async () => {
    const docs = createDocSet({
      config: setConfig(),
      source: memorySource({
        manifest,
        pages: [...pages, { version: '2.x', locale: 'en', path: 'faq#1', body: '# FAQ one\n\nFirst answers.' }],
      }),
      renderer: smallRenderer(),
      search: substringSearch(),
      events: createEvents(),
      gates,
    });
    const odd = await docs.readPage({ path: 'faq#1' }, guest);
    expect(odd.meta.path).toBe('faq#1');
    expect(odd.text).toContain('First answers.');
    expect((await docs.readPage({ path: 'routing#route-groups' }, guest)).text).toContain('Groups share middleware.');
  });

  it('lets the version in a URL win over the default', async () => {
    const { docs } = build();
    expect((await docs.readPage({ path: '/docs/1.x/routing' }, guest)).meta.version).toBe('1.x');
    expect((await docs.readPage({ path: '/docs/routing' }, guest)).meta.version).toBe('2.x');
  });

  it('returns one section by heading text or anchor, down to the next heading of its level', async () => {
    const { docs } = build();
    const byText = await docs.readPage({ path: 'routing', section: 'Basic Routing' }, guest);
    expect(byText.text).toContain('## Basic Routing');
    expect(byText.text).toContain('### Redirect Routes');
    expect(byText.text).toContain('## Not a heading inside code');
    expect(byText.text).not.toContain('Route Groups');
    expect(byText.text.endsWith(`\n\ncontent_hash: ${byText.meta.content_hash}\n`)).toBe(true);
    const byAnchor = await docs.readPage({ path: 'routing', section: 'route-groups' }, guest);
    expect(byAnchor.text.startsWith('## Route Groups')).toBe(true);
    const byFragment = await docs.readPage({ path: '/docs/routing#redirect-routes' }, guest);
    expect(byFragment.text.startsWith('### Redirect Routes\n\nRedirect one URI to another.')).toBe(true);
  });

  it('names the sections when the asked one does not exist', async () => {
    const { docs } = build();
    const error = await errorOf(docs.readPage({ path: 'routing', section: 'Nope' }, guest));
    expect(error.code).toBe('section.not_found');
    expect(error.message).toContain('Basic Routing; Redirect Routes; Route Groups');
  });

  it('names every section of a page with many headings, with their count', async () => {
    const headings = Array.from({ length: 124 }, (_, index) => `Method ${index + 1}`);
    const docs = createDocSet({
      config: setConfig(),
      source: memorySource({
        manifest,
        pages: [
          ...pages,
          {
            version: '2.x',
            locale: 'en',
            path: 'collections',
            body: headings.map((h) => `## ${h}\n\nText.`).join('\n\n'),
          },
        ],
        navigation: [{ version: '2.x', locale: 'en', nav: navigation }],
      }),
      renderer: smallRenderer(),
      search: substringSearch(),
      events: createEvents(),
      gates,
      origin: 'https://acme.test',
    });
    const error = await errorOf(docs.readPage({ path: 'collections', section: 'Nope' }, guest));
    expect(error.code).toBe('section.not_found');
    expect(error.message).toContain('Its 124 sections: Method 1; Method 2;');
    expect(error.message).toContain('Method 123; Method 124.');
  });

  it('suggests close paths for a missing page and points at list_pages', async () => {
    const { docs } = build();
    const error = await errorOf(docs.readPage({ path: 'routng' }, guest));
    expect(error.code).toBe('page.not_found');
    expect(error.message).toContain('"routing"');
    expect(error.message).toContain('list_pages');
  });

  it('refuses a private page to a guest with the same error as a missing page', async () => {
    const { docs } = build();
    const hidden = await errorOf(docs.readPage({ path: 'internal' }, guest));
    const missing = await errorOf(docs.readPage({ path: 'internel' }, guest));
    expect(hidden.code).toBe('page.not_found');
    expect(hidden.message.replace('internal', 'X')).toBe(missing.message.replace('internel', 'X'));
    expect(hidden.message).not.toContain('private');
    expect((await docs.readPage({ path: 'internal' }, staff)).text).toContain('Secret routing runbook.');
  });

  it('never suggests a private page to a guest', async () => {
    const { docs } = build();
    const error = await errorOf(docs.readPage({ path: 'internl' }, guest));
    expect(error.message).not.toContain('"internal"');
  });

  it('lists the visible versions when the version does not exist or is hidden', async () => {
    const { docs } = build();
    const unknown = await errorOf(docs.readPage({ path: 'index', version: '9.x' }, guest));
    expect(unknown.code).toBe('version.not_found');
    expect(unknown.message).toContain('2.x, 1.x');
    const hidden = await errorOf(docs.readPage({ path: 'index', version: 'secret' }, guest));
    expect(hidden.message.replace('secret', '9.x')).toBe(unknown.message);
  });

  it('lists the locales when the locale does not exist', async () => {
    const { docs } = build();
    const error = await errorOf(docs.readPage({ path: 'index', locale: 'fr' }, guest));
    expect(error.code).toBe('locale.not_found');
    expect(error.message).toContain('en, ar');
  });

  it('refuses paths that cannot name a page', async () => {
    const { docs } = build();
    expect((await errorOf(docs.readPage({ path: '../secrets' }, guest))).code).toBe('page.invalid_path');
    expect((await errorOf(docs.readPage({ path: '  ' }, guest))).code).toBe('argument.invalid');
  });
});

describe('createDocSet: navigation and listings', () => {
  it('lists groups then pages as the navigation shows them, without private or missing pages', async () => {
    const { docs } = build();
    const listing = await docs.listPages({}, guest);
    expect(listing).toEqual({
      set: 'docs',
      version: '2.x',
      locale: 'en',
      groups: [
        {
          label: 'Start',
          pages: [
            { title: 'Welcome', path: 'index', description: null },
            { title: 'Routing basics', path: 'routing', description: 'URLs to code.' },
          ],
        },
        {
          label: 'Guides',
          pages: [
            { title: 'Guides', path: 'guides/index', description: null },
            { title: 'Setup', path: 'guides/setup', description: null },
          ],
        },
      ],
    });
    const forStaff = await docs.listPages({ group: 'guides' }, staff);
    expect(forStaff.groups.map((g) => g.pages.map((p) => p.path))).toEqual([
      ['guides/index', 'guides/setup', 'internal'],
    ]);
  });

  it('names the groups when the asked group does not exist', async () => {
    const { docs } = build();
    const error = await errorOf(docs.listPages({ group: 'Nope' }, guest));
    expect(error.code).toBe('navigation.group_not_found');
    expect(error.message).toContain('Start; Guides');
  });

  it('derives navigation from the pages when a version has no navigation file', async () => {
    const { docs } = build();
    const view = await docs.navigation({ version: '1.x' }, guest);
    expect(view.derived).toBe(true);
    const listing = await docs.listPages({ version: '1.x' }, guest);
    expect(listing.groups.flatMap((g) => g.pages.map((p) => p.path)).sort()).toEqual(['index', 'routing']);
  });

  it('removes private pages from the navigation a guest sees', async () => {
    const { docs } = build();
    const forGuest = JSON.stringify((await docs.navigation({}, guest)).file);
    const forStaff = JSON.stringify((await docs.navigation({}, staff)).file);
    expect(forGuest).not.toContain('internal');
    expect(forStaff).toContain('internal');
    expect(forGuest).toContain('https://github.com/acme');
  });

  it('lists visible pages in navigation order, then the pages outside the navigation', async () => {
    const { docs } = build();
    expect((await docs.visiblePages({}, guest)).map((p) => p.path)).toEqual([
      'index',
      'routing',
      'guides/index',
      'guides/setup',
      'orphan',
    ]);
  });

  it('picks up a changed navigation file', async () => {
    const { docs, source } = build();
    await docs.listPages({}, guest);
    source.setNavigation('2.x', 'en', JSON.stringify({ groups: [{ label: 'Only', pages: ['routing'] }] }));
    expect((await docs.listPages({}, guest)).groups.map((g) => g.label)).toEqual(['Only']);
  });
});

describe('createDocSet: search', () => {
  it('finds sections with absolute URLs and fires SearchPerformed', async () => {
    const { docs, events } = build();
    const seen: Array<KitEventMap['SearchPerformed']> = [];
    events.on('SearchPerformed', (payload) => void seen.push(payload));
    const result = await docs.search({ query: 'route groups' }, guest, 'mcp');
    expect(result.set).toBe('docs');
    expect(result.version).toBe('2.x');
    expect(result.results[0]).toMatchObject({
      path: 'routing',
      heading: 'Route Groups',
      url: 'https://acme.test/docs/routing#route-groups',
      markdown_url: 'https://acme.test/docs/routing.md',
    });
    expect(seen).toEqual([
      {
        set: 'docs',
        version: '2.x',
        locale: 'en',
        query: 'route groups',
        results: result.results.length,
        source: 'mcp',
      },
    ]);
  });

  it('keeps private pages out of a guest search and in a staff search', async () => {
    const { docs, search } = build();
    const forGuest = await docs.search({ query: 'runbook' }, guest, 'http');
    expect(forGuest.results).toEqual([]);
    const forStaff = await docs.search({ query: 'runbook' }, staff, 'http');
    expect(forStaff.results.map((r) => r.path)).toEqual(['internal']);
    const publicIndex = search.indexed.find((entry) => entry.scope.audience === 'public')!;
    expect(publicIndex.sections.some((section) => section.path === 'internal')).toBe(false);
  });

  it('serves a client index only to viewers who may open every page it holds', async () => {
    // Staff see private pages except the runbook; the private index holds it, so they get none
    // (the reader then searches through the server, which drops it) instead of an index with it.
    const runbookHidden: Gates = {
      viewKit: (user, subject) => (user as { role?: string } | null)?.role === 'staff' && subject.page !== 'internal',
    };
    const { docs } = build({ gates: runbookHidden });
    const forGuest = await docs.clientSearchIndex({}, guest);
    expect(JSON.parse(forGuest!.body)).toContain('routing');
    expect(JSON.parse(forGuest!.body)).not.toContain('internal');
    expect(await docs.clientSearchIndex({}, staff)).toBeNull();
    expect((await docs.search({ query: 'runbook' }, staff, 'http')).results).toEqual([]);

    const { docs: fullAccess } = build();
    expect(JSON.parse((await fullAccess.clientSearchIndex({}, staff))!.body)).toContain('internal');
  });

  it('gives no client index of a gate set to a viewer the gate refuses a page', async () => {
    const readersMissRouting: Gates = {
      viewKit: (user, subject) =>
        user !== null && !(subject.page === 'routing' && (user as { role?: string }).role === 'reader'),
    };
    const docs = createDocSet({
      config: setConfig('gate'),
      source: memorySource({ manifest, pages, navigation: [{ version: '2.x', locale: 'en', nav: navigation }] }),
      renderer: smallRenderer(),
      search: substringSearch(),
      events: createEvents(),
      gates: readersMissRouting,
    });
    expect(await docs.clientSearchIndex({}, reader)).toBeNull();
    expect((await docs.search({ query: 'routes' }, reader, 'http')).results).toEqual([]);
    expect(JSON.parse((await docs.clientSearchIndex({}, staff))!.body)).toContain('routing');
  });

  it('refuses a hidden version to a guest search', async () => {
    const { docs } = build();
    expect((await errorOf(docs.search({ query: 'plans', version: 'secret' }, guest, 'mcp'))).code).toBe(
      'version.not_found',
    );
    expect((await docs.search({ query: 'plans', version: 'secret' }, staff, 'mcp')).results).toHaveLength(1);
  });

  it('validates the limit: 1 to 20, default 8', async () => {
    const { docs, source } = build();
    for (let i = 0; i < 12; i++) {
      source.setPage({ version: '2.x', locale: 'en', path: `extra-${i}`, body: `# Extra ${i}\n\nzebra facts` });
    }
    expect((await docs.search({ query: 'zebra' }, guest, 'cli')).results).toHaveLength(8);
    expect((await docs.search({ query: 'zebra', limit: 3 }, guest, 'cli')).results).toHaveLength(3);
    expect((await docs.search({ query: 'zebra', limit: 20 }, guest, 'cli')).results).toHaveLength(12);
    for (const limit of [0, 21, 2.5, -1]) {
      const error = await errorOf(docs.search({ query: 'zebra', limit }, guest, 'cli'));
      expect(error.code).toBe('argument.invalid');
      expect(error.message).toContain('1 to 20');
    }
  });

  it('builds an index lazily, once, and again after the content changes', async () => {
    const { docs, search, source } = build();
    expect(search.indexed).toHaveLength(0);
    await docs.search({ query: 'routing' }, guest, 'mcp');
    await docs.search({ query: 'setup' }, guest, 'mcp');
    expect(search.indexed).toHaveLength(1);
    source.setPage({ version: '2.x', locale: 'en', path: 'caching', body: '# Caching\n\nStore things.' });
    expect((await docs.search({ query: 'store things' }, guest, 'mcp')).results.map((r) => r.path)).toEqual([
      'caching',
    ]);
    expect(search.indexed).toHaveLength(2);
  });

  it('gives every indexed section an id of path and anchor', async () => {
    const { docs, search, source } = build();
    source.setPage({ version: '2.x', locale: 'en', path: 'intro', body: 'Text before any heading.\n\n## Next' });
    await docs.search({ query: 'routing' }, guest, 'mcp');
    const ids = search.indexed[0]!.sections.map((section) => section.id);
    expect(ids).toContain('intro#');
    expect(ids).toContain('intro#next');
    expect(ids).toContain('routing#routing');
    expect(ids).toContain('routing#basic-routing');
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('createDocSet: feedback and problems', () => {
  it('fires FeedbackSubmitted with the given source and stores nothing', async () => {
    const { docs, events } = build();
    const seen: Array<KitEventMap['FeedbackSubmitted']> = [];
    events.on('FeedbackSubmitted', (payload) => void seen.push(payload));
    await docs.submitFeedback(
      { path: '/docs/1.x/routing', helpful: false, comment: 'Missing groups.' },
      reader,
      'agent',
    );
    expect(seen).toEqual([
      {
        set: 'docs',
        version: '1.x',
        locale: 'en',
        path: 'routing',
        helpful: false,
        comment: 'Missing groups.',
        source: 'agent',
        user: reader.user,
      },
    ]);
  });

  it('refuses a comment longer than 2000 characters', async () => {
    const { docs } = build();
    await expect(
      docs.submitFeedback({ path: 'routing', helpful: true, comment: 'x'.repeat(2000) }, guest, 'widget'),
    ).resolves.toBeUndefined();
    const error = await errorOf(
      docs.submitFeedback({ path: 'routing', helpful: true, comment: 'x'.repeat(2001) }, guest, 'widget'),
    );
    expect(error.code).toBe('argument.invalid');
    expect(error.message).toContain('2000');
  });

  it('refuses feedback on a page the viewer cannot see', async () => {
    const { docs } = build();
    expect((await errorOf(docs.submitFeedback({ path: 'internal', helpful: true }, guest, 'agent'))).code).toBe(
      'page.not_found',
    );
  });

  it('gathers manifest, source, navigation, page and render problems', async () => {
    const { docs, source } = build();
    source.setPage({ version: '1.x', locale: 'en', path: 'broken', body: '# Broken\n\n<Unknown />' });
    source.setNavigation('1.x', 'en', '{ not json');
    const problems = await docs.problems();
    const rules = problems.map((problem) => problem.rule);
    expect(rules).toContain('source.unreadable');
    expect(rules).toContain('components.unknown');
    expect(problems.find((problem) => problem.rule === 'components.unknown')!.file).toBe('1.x/broken.md');
    expect(problems.some((problem) => problem.file === '1.x/navigation.json')).toBe(true);
  });
});

describe('withContentHashLine', () => {
  it('ends the Markdown with a blank line and the hash line', () => {
    expect(withContentHashLine('# T\n\n', 'sha256:ab')).toBe('# T\n\ncontent_hash: sha256:ab\n');
  });
});
