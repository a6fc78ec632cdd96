import type { Gates, ResolvedSetConfig } from '../config/types.js';
import { KitError } from '../errors/kit-error.js';
import { createEvents } from '../events/emitter.js';
import type { SourceProblem } from '../model/types.js';
import type { CacheStore } from '../ports/cache-store.js';
import type { ContentChange, ContentSource } from '../ports/content-source.js';
import type { DocSet, KitEvents, Viewer } from '../ports/docset.js';
import type { PageRenderer } from '../ports/renderer.js';
import type { SearchDriver } from '../ports/search-driver.js';
import type { SourceHistory } from '../ports/source-history.js';
import { candidatePaths, cleanPagePath, pageUrl } from '../urls/set-urls.js';
import { type Content, createContent } from './content.js';
import { createFeedback } from './feedback.js';
import { createListing, type Listing } from './listing.js';
import { createManifestReader, type ManifestReader } from './manifest-state.js';
import { createPages, type Pages } from './pages.js';
import { createReadPage } from './read-page.js';
import { createRenders, type Renders } from './renders.js';
import { createScopes, type Scopes } from './scope.js';
import { createSearchDocs } from './search-docs.js';
import { createSearchIndexes, type SearchIndexes } from './search-index.js';
import { createUrls } from './urls.js';
import { createViewerAccess, type ViewerAccess } from './viewer-access.js';

export { FEEDBACK_COMMENT_LIMIT } from './feedback.js';
export { staleNote, withContentHashLine, withoutContentHashLine } from './markdown-lines.js';

export interface CreateDocSetOptions {
  /** Set key; default `config.key`. */
  key?: string;
  config: ResolvedSetConfig;
  source: ContentSource;
  renderer: PageRenderer;
  search: SearchDriver;
  /** The kit's event bus; give every set of a kit the same one. Default: a bus of its own. */
  events?: KitEvents;
  /** The application's gates (`viewKit`, `manageKit`, `askKit`). Default: none. */
  gates?: Gates;
  /** Absolute origin for links in agent Markdown and in `read_page`/search URLs, e.g. `https://example.com`. Default: none (paths). */
  origin?: string;
  /** Most rendered pages cached in memory. Default 2000. */
  maxRenderedPages?: number;
  /**
   * The set's cache store (`cacheStoreFor(config, key)`, built by `createCacheStore` of
   * `@kit/node`): rendered pages and search sections are kept there under content-addressed
   * keys, so a process sharing the store (Redis) uses what another one rendered. Default: none.
   */
  cache?: CacheStore;
  /**
   * The history of the project the set documents (`createSourceHistory` of `@kit/source-fs`): a
   * read asked for with `staleness` says when the page's `sources:` files changed after the page.
   * Default: none (no read is ever marked stale).
   */
  sourceHistory?: SourceHistory;
}

/** A doc set built by {@link createDocSet}: the `DocSet` port plus `close()`, which stops watching the source. */
export interface RuntimeDocSet extends DocSet {
  readonly events: KitEvents;
  close(): Promise<void>;
}

/** The parts a doc set is composed of, each owning its own caches. */
interface Parts {
  manifest: ManifestReader;
  content: Content;
  access: ViewerAccess;
  scopes: Scopes;
  renders: Renders;
  listing: Listing;
  pages: Pages;
  indexes: SearchIndexes;
}

/** Builds the parts in dependency order; a manifest that moved drops renders and dates indexes. */
function createParts(options: CreateDocSetOptions, set: string, watching: boolean, origin: string): Parts {
  const { config, source } = options;
  const manifest = createManifestReader({
    set,
    config,
    source,
    watching,
    onMoved: () => {
      renders.clear();
      indexes.markAllDirty();
    },
  });
  const content = createContent({ source, watching });
  const access = createViewerAccess({ set, mode: config.access.mode, gates: options.gates ?? {} });
  const scopes = createScopes({ set, manifest, access });
  const renders = createRenders({
    set,
    config,
    sourceKind: source.kind,
    renderer: options.renderer,
    manifest,
    origin,
    maxRendered: Math.max(1, options.maxRenderedPages ?? 2000),
    store: options.cache,
  });
  const indexes = createSearchIndexes({
    set,
    config,
    search: options.search,
    store: options.cache,
    manifest,
    content,
    renders,
    watching,
  });
  const listing = createListing({ set, content, access, scopes });
  const pages = createPages({ set, renderer: options.renderer, manifest, content, access, scopes, listing, renders });
  return { manifest, content, access, scopes, renders, listing, pages, indexes };
}

/**
 * One doc set at run time: the set's config, content source, renderer and search driver composed,
 * with access checked on every call. HTTP routes, MCP tools and CLI commands call these methods and
 * hold no rules of their own. Everything a viewer may not see answers exactly as if it did not
 * exist. Rendering is cached by content hash (also in `cache`, when given); when the source can watch
 * and is not `shared`, navigation, page lists and search indexes refresh on its change notices,
 * otherwise they are read from the source each time (a database source caches on its own).
 *
 * @example
 * const events = createEvents();
 * const docs = createDocSet({
 *   config: resolved.sets.docs,
 *   source: createFsSource({ root: resolved.sets.docs.source.path, setKey: 'docs', watch: true }),
 *   renderer: createRenderer(),
 *   search: createServerSearch(),
 *   events,
 *   gates: resolved.gates,
 *   origin: 'https://example.com',
 * });
 * const page = await docs.readPage({ path: '/docs/12.x/routing.md', section: 'route-groups' }, { user: null });
 */
export function createDocSet(options: CreateDocSetOptions): RuntimeDocSet {
  const set = options.key ?? options.config.key;
  const { config, source } = options;
  const events = options.events ?? createEvents();
  const origin = (options.origin ?? '').replace(/\/+$/, '');
  // A shared source hears of another process's writes late, so nothing is cached on its notices alone.
  const watching = typeof source.watch === 'function' && source.shared !== true;
  const parts = createParts(options, set, watching, origin);
  const { manifest, content, access, scopes, renders, listing, pages, indexes } = parts;
  const urls = createUrls({ set, source, watching, manifest, content, scopes, access, pages });
  const stopWatching = source.watch?.((change: ContentChange) => {
    content.invalidate(change);
    urls.forget();
    if (change.kind === 'manifest') manifest.forget();
    renders.invalidate(change);
    indexes.invalidate(change);
  });
  return {
    key: set,
    config,
    source,
    events,
    manifest: async () => (await manifest.load()).manifest,
    // A copy: the list may be the layout's own (every version visible), which callers must not change.
    versions: async (viewer) => [...(await scopes.visibleVersions(viewer))],
    locales: async () => (await manifest.load()).layout.locales,
    resolveUrl: urls.resolveUrl,
    resolveFile: urls.resolveFile,
    manifestFile: urls.manifestFile,
    pageUrl: async (ref) => pageUrl((await manifest.load()).layout, ref),
    getPage: (ref, viewer) => getPage(parts, ref, viewer),
    readPage: createReadPage({ config, origin, pages, scopes, sourceHistory: options.sourceHistory }),
    listPages: listing.listPages,
    navigation: listing.navigation,
    async visiblePages(input, viewer) {
      const scope = await scopes.scopeFor(input, viewer);
      return listing.visibleInOrder(viewer, scope.version, scope.locale.code);
    },
    ...createSearchDocs({
      set,
      mode: config.access.mode,
      origin,
      events,
      search: options.search,
      scopes,
      indexes,
      access,
    }),
    submitFeedback: createFeedback({ set, events, pages, scopes }),
    canView: (viewer, subject) => canView(parts, viewer, subject),
    canManage: access.canManage,
    canReviewChanges: access.canReviewChanges,
    renderForAgents: (page) => renders.render(page, 'agent'),
    problems: () => problems(source, parts),
    warm: (input) => warm(options.renderer, parts, input),
    async close() {
      stopWatching?.();
    },
  };
}

/** A version or locale the viewer may not see, which some calls answer as nothing rather than an error. */
function isHiddenScope(error: unknown): boolean {
  return error instanceof KitError && (error.code === 'version.not_found' || error.code === 'locale.not_found');
}

async function getPage(
  parts: Parts,
  ref: { version?: string; locale?: string; path: string },
  viewer: Viewer,
): ReturnType<DocSet['getPage']> {
  let scope: Awaited<ReturnType<Scopes['scopeFor']>>;
  try {
    scope = await parts.scopes.scopeFor(ref, viewer);
  } catch (error) {
    if (isHiddenScope(error)) return null;
    throw error;
  }
  const path = cleanPagePath(ref.path);
  if (!path) return null;
  const located = await parts.pages.locate(
    viewer,
    scope.version,
    scope.locale.code,
    candidatePaths({ path, root: false }),
  );
  return located ? parts.pages.view(located, 'html') : null;
}

async function canView(
  parts: Parts,
  viewer: Viewer,
  subject: { version?: string; locale?: string; path?: string },
): Promise<boolean> {
  const { access } = parts;
  const { layout } = await parts.manifest.load();
  if (subject.version === undefined && subject.path === undefined) {
    return access.allowed(viewer, subject.locale ? { locale: subject.locale } : {});
  }
  const version = layout.versions.find((candidate) => candidate.id === (subject.version ?? layout.defaultVersion));
  if (!version) return false;
  const locale = subject.locale ?? layout.defaultLocale;
  if (!layout.locales.some((candidate) => candidate.code === locale)) return false;
  if (subject.path === undefined)
    return access.allowed(viewer, subject.locale ? { version, locale: subject.locale } : { version });
  const path = cleanPagePath(subject.path);
  if (!path) return false;
  return (await parts.pages.locate(viewer, version, locale, candidatePaths({ path, root: false }))) !== null;
}

async function problems(source: ContentSource, parts: Parts): Promise<SourceProblem[]> {
  const { problems: manifestProblems, layout } = await parts.manifest.load();
  const found: SourceProblem[] = [...manifestProblems];
  if (source.problems) found.push(...(await source.problems()));
  for (const version of layout.versions) {
    for (const locale of layout.locales) {
      const navigation = await parts.content.navigation(version.id, locale.code);
      found.push(...navigation.problems);
      for (const page of await parts.content.listAll(version.id, locale.code)) {
        found.push(...page.problems.map((problem) => ({ ...problem, file: problem.file ?? page.file })));
        const result = await parts.renders.render(page, 'agent');
        found.push(...result.problems.map((problem) => ({ ...problem, file: problem.file ?? page.file })));
      }
    }
  }
  return found;
}

async function warm(
  renderer: PageRenderer,
  parts: Parts,
  input: Parameters<NonNullable<DocSet['warm']>>[0] = {},
): Promise<void> {
  const viewer: Viewer = input.viewer ?? { user: null };
  let scoped: Awaited<ReturnType<Scopes['searchScopeFor']>>;
  try {
    scoped = await parts.scopes.searchScopeFor(input, viewer);
  } catch (error) {
    // A version the viewer may not see has nothing to prepare for them.
    if (isHiddenScope(error)) return;
    throw error;
  }
  const { scope, searchScope } = scoped;
  const wanted = input.parts ?? ['highlight', 'search'];
  if (renderer.prepareHighlight && wanted.includes('highlight')) {
    const pages = await parts.listing.visibleInOrder(viewer, scope.version, scope.locale.code);
    await renderer.prepareHighlight(pages);
  }
  if (wanted.includes('search')) await parts.indexes.indexFor(searchScope, scope.version, scope.layout);
}
