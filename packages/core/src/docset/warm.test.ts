import { describe, expect, it } from 'vitest';
import type { ResolvedSetConfig } from '../config/types.js';
import type { SourcePage } from '../model/types.js';
import type { DocSet, Viewer } from '../ports/docset.js';
import { type MemoryPage, memorySource, smallRenderer, substringSearch } from './__fixtures__/doubles.js';
import { createDocSet } from './docset.js';
import { createKit, warmKit } from './kit.js';

const guest: Viewer = { user: null };

const config = {
  key: 'docs',
  route: { prefix: 'docs', domain: null, middleware: ['web'] },
  source: { driver: 'repository', path: '/tmp/docs', connection: null, cache: null, disk: null },
  access: { mode: 'public' },
  html_input: 'escape',
  integrations: {},
  snippets: { root: null },
} as unknown as ResolvedSetConfig;

const pages: MemoryPage[] = [
  { version: '2.x', locale: 'en', path: 'index', body: '# Welcome\n\nStart here.' },
  { version: '2.x', locale: 'en', path: 'queues', body: '# Queues\n\n## Retrying\n\nFailed jobs retry three times.' },
  {
    version: '2.x',
    locale: 'en',
    path: 'secret',
    body: '# Secret\n\nRetry plans.',
    frontmatter: { visibility: 'private' },
  },
  { version: '1.x', locale: 'en', path: 'index', body: '# Welcome to 1.x\n\nOld retry rules.' },
];

/** A renderer whose grammars are "loading" until `finishLoading()`, recording what it was asked to prepare. */
function loadingRenderer() {
  const renderer = smallRenderer();
  let ready = false;
  const prepared: string[][] = [];
  return Object.assign(renderer, {
    prepared,
    finishLoading: () => {
      ready = true;
    },
    highlightReady: (_page: SourcePage) => ready,
    async prepareHighlight(list: SourcePage[]) {
      prepared.push(list.map((page) => page.path));
    },
  });
}

function build() {
  const source = memorySource({ manifest: { versions: ['2.x', '1.x'] }, pages, watch: true });
  const renderer = loadingRenderer();
  const search = substringSearch();
  const docs = createDocSet({ config, source, renderer, search });
  return { docs, renderer, search };
}

describe('createDocSet: a server that has just started', () => {
  it('answers a page whose code grammar is still loading without highlighting, marked so, then highlighted', async () => {
    const { docs, renderer } = build();
    const ref = { version: '2.x', locale: 'en', path: 'queues' };
    const early = await docs.getPage(ref, guest);
    expect(early?.highlightPending).toBe(true);
    expect(renderer.contexts.at(-1)?.highlight).toBe(false);
    expect(early?.rendered.html).toContain('Failed jobs retry three times.');

    renderer.finishLoading();
    const later = await docs.getPage(ref, guest);
    expect(later?.highlightPending).toBeUndefined();
    expect(renderer.contexts.at(-1)?.highlight).not.toBe(false);
  });

  it('prepares the default version for guests: grammars of its public pages, then its search index', async () => {
    const { docs, renderer, search } = build();
    await docs.warm!();
    expect(renderer.prepared).toEqual([['index', 'queues']]);
    expect(search.indexed).toHaveLength(1);
    expect(search.indexed[0]!.scope).toEqual({ set: 'docs', version: '2.x', locale: 'en', audience: 'public' });
    expect(search.indexed[0]!.sections.map((section) => section.path)).not.toContain('secret');
  });

  it('answers a search made while the index warms with the right pages, building the index once', async () => {
    const { docs, search } = build();
    const warming = docs.warm!();
    const result = await docs.search({ query: 'retry' }, guest, 'http');
    expect(result.results.map((hit) => hit.path)).toEqual(['queues']);
    await warming;
    expect((await docs.search({ query: 'retry' }, guest, 'http')).results.map((hit) => hit.path)).toEqual(['queues']);
    expect(search.indexed).toHaveLength(1);
  });

  it('prepares another version when asked, and nothing for a version guests may not see', async () => {
    const { docs, search } = build();
    await docs.warm!({ version: '1.x' });
    expect(search.indexed.map((entry) => entry.scope.version)).toEqual(['1.x']);
    await docs.warm!({ version: 'nope' });
    expect(search.indexed).toHaveLength(1);
  });

  it('warmKit prepares every version guests may see, default first, and goes on past one that fails', async () => {
    const { docs, search } = build();
    const kit = createKit({ config: { default: 'docs' } as never, sets: [docs] });
    const failures: string[] = [];
    const warm = docs.warm!.bind(docs);
    docs.warm = async (input) => {
      if (input?.version === '2.x') throw new Error('disk full');
      return warm(input);
    };
    await warmKit(kit, { onError: (_error, where) => failures.push(`${where.set} ${where.version}`) });
    // Once for its search index, once for its grammars.
    expect(failures).toEqual(['docs 2.x', 'docs 2.x']);
    expect(search.indexed.map((entry) => entry.scope.version)).toEqual(['1.x']);

    docs.warm = warm;
    await warmKit(kit);
    expect(search.indexed.map((entry) => entry.scope.version)).toEqual(['1.x', '2.x']);
  });

  it('warmKit prepares the index the given viewer searches: the local operator’s holds private pages', async () => {
    const { docs, search } = build();
    const kit = createKit({ config: { default: 'docs' } as never, sets: [docs] });
    await warmKit(kit, { viewer: { user: null, local: true }, highlight: false });
    expect(search.indexed.map((entry) => `${entry.scope.version} ${entry.scope.audience}`)).toEqual([
      '2.x private',
      '1.x private',
    ]);
    expect(search.indexed[0]!.sections.map((section) => section.path)).toContain('secret');
    // The operator's first search finds the index ready: nothing is built for it.
    const found = await docs.search({ query: 'retry plans' }, { user: null, local: true }, 'mcp');
    expect(found.results.map((hit) => hit.path)).toEqual(['secret']);
    expect(search.indexed).toHaveLength(2);
  });

  it('warmKit stops preparing once told the server is closing', async () => {
    const { docs, search } = build();
    const kit = createKit({ config: { default: 'docs' } as never, sets: [docs] });
    let stop = false;
    const warm = docs.warm!.bind(docs);
    docs.warm = async (input) => {
      await warm(input);
      stop = true;
    };
    await warmKit(kit, { stopped: () => stop });
    expect(search.indexed.map((entry) => entry.scope.version)).toEqual(['2.x']);
  });

  it('warmKit builds every version’s search index before it loads any grammar, and none with highlight off', async () => {
    const { docs, renderer, search } = build();
    const kit = createKit({ config: { default: 'docs' } as never, sets: [docs] });
    const steps: string[] = [];
    const prepare = renderer.prepareHighlight.bind(renderer);
    renderer.prepareHighlight = async (list) => {
      steps.push(`grammars ${list[0]?.version}`);
      return prepare(list);
    };
    const index = search.index.bind(search);
    search.index = async (scope, sections) => {
      steps.push(`index ${scope.version}`);
      return index(scope, sections);
    };
    await warmKit(kit);
    expect(steps).toEqual(['index 2.x', 'index 1.x', 'grammars 2.x', 'grammars 1.x']);

    const agentOnly = build();
    const agentKit = createKit({ config: { default: 'docs' } as never, sets: [agentOnly.docs as DocSet] });
    await warmKit(agentKit, { highlight: false });
    expect(agentOnly.renderer.prepared).toEqual([]);
    expect(agentOnly.search.indexed.map((entry) => entry.scope.version)).toEqual(['2.x', '1.x']);
  });

  it('answers the Markdown twin and the search index from the reader page already rendered, rendering it once', async () => {
    const { docs, renderer, search } = build();
    renderer.finishLoading();
    const ref = { version: '2.x', locale: 'en', path: 'queues' };
    const page = await docs.getPage(ref, guest);
    expect(page?.highlightPending).toBeUndefined();
    const twin = await docs.readPage({ path: 'queues' }, guest);
    expect(twin.text).toContain('Failed jobs retry three times.');
    await docs.search({ query: 'retry' }, guest, 'http');
    expect(renderer.renders.filter((rendered) => rendered === '2.x/en/queues')).toHaveLength(1);
    expect(search.indexed[0]!.sections.some((section) => section.path === 'queues')).toBe(true);
  });

  it('builds one search index at a time, so the version asked for first is answered first', async () => {
    const { docs, search } = build();
    const events: string[] = [];
    const index = search.index.bind(search);
    search.index = async (scope, sections) => {
      events.push(`build ${scope.version}`);
      await new Promise((resume) => setTimeout(resume, 20));
      return index(scope, sections);
    };
    await Promise.all([
      docs.search({ query: 'retry', version: '2.x' }, guest, 'http').then(() => events.push('answer 2.x')),
      docs.search({ query: 'retry', version: '1.x' }, guest, 'http').then(() => events.push('answer 1.x')),
    ]);
    expect(events).toEqual(['build 2.x', 'answer 2.x', 'build 1.x', 'answer 1.x']);
  });
});
