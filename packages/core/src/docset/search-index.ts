import type { ResolvedSetConfig } from '../config/types.js';
import { contentHash } from '../hash/content-hash.js';
import type { SourcePage, VersionInfo, Visibility } from '../model/types.js';
import type { CacheStore } from '../ports/cache-store.js';
import type { ContentChange } from '../ports/content-source.js';
import type { RenderedPage } from '../ports/renderer.js';
import type { SearchDriver, SearchScope, SearchSection } from '../ports/search-driver.js';
import { markdownUrl, pageUrl, type UrlLayout } from '../urls/set-urls.js';
import type { Content } from './content.js';
import type { ManifestReader } from './manifest-state.js';
import { mayIncludeSnippets } from './render-context.js';
import type { Renders } from './renders.js';
import { inScope } from './scoped-map.js';
import { searchSectionsOf } from './search-sections.js';
import { pageVisibility } from './viewer-access.js';

/** A search index built for one scope and audience: what it was made from, and whether it is out of date. */
export interface IndexState {
  scope: SearchScope;
  fingerprint: string;
  /** The renderer's `generation()` its sections were rendered under. */
  generation: number;
  /** The visibility each indexed page was indexed with. */
  visibility: Map<string, Visibility>;
  dirty: boolean;
  /** The cache-store key its sections were stored under, removed once a newer index replaces them. */
  sectionsKey: string | null;
}

/** What the search index part needs from its doc set. */
export interface SearchIndexesOptions {
  set: string;
  config: ResolvedSetConfig;
  search: SearchDriver;
  store?: CacheStore | undefined;
  manifest: ManifestReader;
  content: Content;
  renders: Renders;
  watching: boolean;
}

/** A set's search indexes, built one at a time and rebuilt when the content they were made from changed. */
export interface SearchIndexes {
  /** The scope's index, built (or restored, or taken from the cache store) when missing or out of date. */
  indexFor(scope: SearchScope, version: VersionInfo, layout: UrlLayout): Promise<IndexState>;
  /** Marks every index out of date (the manifest changed). */
  markAllDirty(): void;
  invalidate(change: ContentChange): void;
}

const indexKey = (scope: SearchScope) => JSON.stringify([scope.version, scope.locale, scope.audience]);

/** The search index part of a doc set. */
export function createSearchIndexes(options: SearchIndexesOptions): SearchIndexes {
  const { content, renders } = options;
  const indexes = new Map<string, IndexState>();
  const indexing = new Map<string, Promise<IndexState>>();
  /** The last index build asked for; the next one starts once it is done. */
  let buildQueue: Promise<unknown> = Promise.resolve();

  async function build(scope: SearchScope, version: VersionInfo, layout: UrlLayout): Promise<IndexState> {
    const startedAt = content.changeCount();
    const generation = renders.generation();
    // The manifest fixes every URL in the index (the landing page's, a version's), so it is part
    // of what the index is made from, like the pages.
    const { text: manifestText } = await options.manifest.load();
    const pages = indexedPages(await content.listAll(scope.version, scope.locale), scope, version);
    const fingerprint = [
      `manifest\u0000${manifestText === null ? '' : contentHash(manifestText)}`,
      ...pages.map((page) => `${page.path}\u0000${page.contentHash}\u0000${pageVisibility(page)}`).sort(),
    ].join('\n');
    const existing = indexes.get(indexKey(scope));
    if (existing && existing.fingerprint === fingerprint && existing.generation === generation) {
      existing.dirty = false;
      return existing;
    }
    const sectionsKey = await sectionsStoreKey(options, scope, pages, fingerprint, layout);
    const state: IndexState = {
      scope,
      fingerprint,
      generation,
      visibility: new Map(pages.map((page) => [page.path, pageVisibility(page)])),
      dirty: false,
      sectionsKey,
    };
    // A driver that keeps built indexes (the server driver under `.kit/cache/search`) loads the
    // one made from this very content: neither the sections nor the index are made again.
    const { search, store } = options;
    const restored =
      sectionsKey !== null && search.restore ? await search.restore(scope, sectionsKey).catch(() => false) : false;
    if (!restored) await indexSections(options, scope, pages, layout, sectionsKey, existing);
    else if (existing?.sectionsKey && existing.sectionsKey !== sectionsKey) {
      await store?.delete(existing.sectionsKey).catch(() => {});
    }
    state.dirty = content.changeCount() !== startedAt;
    indexes.set(indexKey(scope), state);
    return state;
  }

  return {
    async indexFor(scope, version, layout) {
      const key = indexKey(scope);
      const current = indexes.get(key);
      if (current && !current.dirty && options.watching && current.generation === renders.generation()) return current;
      const running = indexing.get(key);
      if (running) return running;
      // One index is built at a time: builds running side by side would share the CPU and all finish
      // last, while one after the other the version asked for first is answered first.
      const before = buildQueue;
      const building = (async () => {
        await before;
        return build(scope, version, layout);
      })();
      indexing.set(key, building);
      buildQueue = building.catch(() => undefined);
      try {
        return await building;
      } finally {
        indexing.delete(key);
      }
    },
    markAllDirty() {
      for (const state of indexes.values()) state.dirty = true;
    },
    invalidate(change) {
      if (change.kind === 'manifest') {
        for (const state of indexes.values()) state.dirty = true;
        return;
      }
      if (change.kind !== 'page') return;
      for (const state of indexes.values())
        if (inScope(change, state.scope.version, state.scope.locale)) state.dirty = true;
    },
  };
}

/** The pages an audience's index holds: the public audience gets public pages of a public version only. */
function indexedPages(all: SourcePage[], scope: SearchScope, version: VersionInfo): SourcePage[] {
  if (scope.audience !== 'public') return all;
  return version.visibility === 'public' ? all.filter((page) => pageVisibility(page) === 'public') : [];
}

/**
 * Makes the sections of an index (or takes them from the cache store, where another process may
 * have rendered these very pages) and hands them to the driver.
 */
async function indexSections(
  options: SearchIndexesOptions,
  scope: SearchScope,
  pages: SourcePage[],
  layout: UrlLayout,
  sectionsKey: string | null,
  existing: IndexState | undefined,
): Promise<void> {
  const { store, search } = options;
  const stored = sectionsKey ? await store!.get<SearchSection[]>(sectionsKey).catch(() => undefined) : undefined;
  const sections: SearchSection[] = Array.isArray(stored) ? stored : [];
  if (!Array.isArray(stored)) {
    const kept = await unchangedSections(options, existing, pages);
    await renderSections(options, scope, pages, layout, sections, kept);
  }
  // The store keeps the sections for other processes; the driver need not wait for it.
  const storing =
    sectionsKey && !Array.isArray(stored) ? store!.set(sectionsKey, sections).catch(() => {}) : Promise.resolve();
  try {
    await search.index(scope, sections, sectionsKey !== null ? { key: sectionsKey } : undefined);
  } finally {
    await storing;
  }
  // The sections of the index this one replaces are never asked for again (their key names
  // content that is gone); removing them keeps a store from filling with a copy per change.
  if (existing?.sectionsKey && existing.sectionsKey !== sectionsKey) {
    await store?.delete(existing.sectionsKey).catch(() => {});
  }
}

/**
 * The sections of the index this one replaces, by page, for the pages whose text is the same as
 * then: a change to one page gathers the others' sections from the one stored list instead of
 * asking every page's render again. None when the manifest or the renderer changed since (every
 * URL and section may differ), or when the store no longer has that list.
 */
async function unchangedSections(
  options: SearchIndexesOptions,
  existing: IndexState | undefined,
  pages: SourcePage[],
): Promise<Map<string, SearchSection[]>> {
  const kept = new Map<string, SearchSection[]>();
  if (!existing?.sectionsKey || !options.store || existing.generation !== options.renders.generation()) return kept;
  const [manifestLine, ...pageLines] = existing.fingerprint.split('\n');
  const { text: manifestText } = await options.manifest.load();
  if (manifestLine !== `manifest\u0000${manifestText === null ? '' : contentHash(manifestText)}`) return kept;
  const before = await options.store.get<SearchSection[]>(existing.sectionsKey).catch(() => undefined);
  if (!Array.isArray(before)) return kept;
  const hashThen = new Map(pageLines.map((line) => line.split('\u0000') as [string, string]));
  const same = new Set(pages.filter((page) => hashThen.get(page.path) === page.contentHash).map((page) => page.path));
  for (const section of before) {
    if (!same.has(section.path)) continue;
    const list = kept.get(section.path);
    if (list) list.push(section);
    else kept.set(section.path, [section]);
  }
  return kept;
}

/** Renders asked for at once while an index is built: enough to keep every render worker busy. */
const RENDERS_IN_FLIGHT = 16;

/**
 * Renders the pages for agents and appends their sections in page order. Several renders are asked
 * for at once, so a renderer with worker threads never waits for this loop to ask for the next page;
 * a fixed window keeps the renders held at once few, whatever the size of the set.
 */
async function renderSections(
  options: SearchIndexesOptions,
  scope: SearchScope,
  pages: SourcePage[],
  layout: UrlLayout,
  sections: SearchSection[],
  kept: Map<string, SearchSection[]>,
): Promise<void> {
  const inFlight: Array<{ page: SourcePage; result: Promise<RenderedPage> | SearchSection[] }> = [];
  const collect = async () => {
    const { page, result } = inFlight.shift()!;
    if (Array.isArray(result)) {
      sections.push(...result);
      return;
    }
    const target = { version: scope.version, locale: scope.locale, path: page.path };
    const rendered = await result;
    sections.push(
      ...searchSectionsOf(page, rendered.sections, {
        url: pageUrl(layout, target),
        markdownUrl: markdownUrl(layout, target),
      }),
    );
  };
  let slice = performance.now();
  for (const page of pages) {
    // Rendering is synchronous work between awaits that resolve without waiting: hand the event
    // loop back every few milliseconds so requests keep being answered while an index is built.
    if (performance.now() - slice > 20) {
      await new Promise((resume) => setTimeout(resume, 0));
      slice = performance.now();
    }
    const unchanged = kept.get(page.path);
    if (unchanged) {
      inFlight.push({ page, result: unchanged });
      continue;
    }
    const result = options.renders.render(page, 'agent');
    // A failure is collected in its turn; until then it must not count as unhandled.
    result.catch(() => {});
    inFlight.push({ page, result });
    if (inFlight.length >= RENDERS_IN_FLIGHT) await collect();
  }
  while (inFlight.length > 0) await collect();
}

/**
 * The cache-store key of a search index's sections: the fingerprint of the pages it covers (with
 * the manifest), the render context of the layout the sections link with, and the renderer that
 * made them. Null where renders are not stored (snippet includes, a renderer without one).
 */
async function sectionsStoreKey(
  options: SearchIndexesOptions,
  scope: SearchScope,
  pages: SourcePage[],
  fingerprint: string,
  layout: UrlLayout,
): Promise<string | null> {
  if (!options.store) return null;
  const context = options.renders.context(layout, scope.version, scope.locale, 'agent');
  if (context.snippetsRoot !== null && pages.some((page) => mayIncludeSnippets(page.body))) return null;
  const made = await options.renders.fingerprint();
  if (made === null) return null;
  const inputs = JSON.stringify([made, fingerprint, context, options.config.route]);
  const digest = contentHash(inputs).slice('sha256:'.length);
  return `v1:search:${options.set}:${scope.version}:${scope.locale}:${scope.audience}:${digest}`;
}
