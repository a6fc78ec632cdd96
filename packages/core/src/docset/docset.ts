import {
  accessAllowed,
  type AccessRequest,
  decideAccess,
  decideAccessWithoutGates,
  canManage as gateAllowsManage,
  canReviewChanges as gateAllowsReview,
  visibilityOf,
} from '../access/access.js';
import type { Gates, ResolvedSetConfig } from '../config/types.js';
import { KitError } from '../errors/kit-error.js';
import { createEvents } from '../events/emitter.js';
import type { KitEventMap } from '../events/types.js';
import { fileContentType, isServableFileName } from '../files/file-names.js';
import { contentHash } from '../hash/content-hash.js';
import { normalizeManifest, parseManifestText } from '../manifest/normalize.js';
import type {
  LocaleInfo,
  NavEntry,
  NavGroup,
  NavigationFile,
  NormalizedManifest,
  RedirectRule,
  SourcePage,
  SourceProblem,
  VersionInfo,
} from '../model/types.js';
import { deriveNavigation } from '../navigation/derive.js';
import { navigationPages } from '../navigation/pages.js';
import { parseNavigation } from '../navigation/parse.js';
import { nearestPages } from '../pages/nearest-pages.js';
import type { CacheStore } from '../ports/cache-store.js';
import type { ContentChange, ContentSource } from '../ports/content-source.js';
import type {
  DocSet,
  FileView,
  KitEvents,
  NavigationView,
  PageListing,
  PageView,
  ReadPageResult,
  UrlMatch,
  Viewer,
} from '../ports/docset.js';
import type { PageRenderer, RenderContext, RenderedPage } from '../ports/renderer.js';
import type { SearchDriver, SearchResult, SearchScope, SearchSection } from '../ports/search-driver.js';
import type { SourceHistory, StaleSources } from '../ports/source-history.js';
import { matchRedirect } from '../redirects/redirects.js';
import {
  candidatePaths,
  cleanPagePath,
  createUrlLayout,
  fileCandidates,
  markdownUrl,
  pageUrl,
  parseSetUrl,
  restrictVersions,
  type UrlLayout,
} from '../urls/set-urls.js';
import {
  cursorHash,
  decodeReadCursor,
  encodeReadCursor,
  MIN_READ_CHARS,
  nextPart,
  partLimit,
  type ReadCursor,
  type ReadSelection,
  selectedText,
} from './read-parts.js';
import { createRenderContext, mayIncludeSnippets } from './render-context.js';
import { MAX_SEARCH_LIMIT, normalizeSearchLimit, normalizeSearchSections } from './search-limit.js';
import { searchSectionsOf } from './search-sections.js';

/** What of a layout a viewer may see: its versions (read only) and the layout restricted to them. */
interface VisibleSubset {
  versions: VersionInfo[];
  view: UrlLayout;
}

/** Each layout's subsets for the sets of versions viewers may see (see subsetOf), by which are visible. */
const layoutSubsets = new WeakMap<UrlLayout, Map<number | string, VisibleSubset>>();

/**
 * The versions of `layout` whose decision is true, and the layout as one who sees only those sees
 * it: made once per layout and set of decisions, so a request makes neither. With every version
 * visible the list is the layout's own.
 */
function subsetOf(layout: UrlLayout, allowed: readonly boolean[]): VisibleSubset {
  let subsets = layoutSubsets.get(layout);
  if (!subsets) {
    subsets = new Map();
    layoutSubsets.set(layout, subsets);
  }
  // A bit per version while they fit in a number, as every real set's do; a text past that.
  let key: number | string = 0;
  if (allowed.length <= 30) {
    for (let index = 0; index < allowed.length; index++) if (allowed[index]) key |= 1 << index;
  } else key = allowed.map((decision) => (decision ? '1' : '0')).join('');
  let subset = subsets.get(key);
  if (!subset) {
    const versions = allowed.every(Boolean) ? layout.versions : layout.versions.filter((_, index) => allowed[index]);
    const ids = new Set(versions.map((version) => version.id));
    subset = { versions, view: restrictVersions(layout, (version) => ids.has(version.id)) };
    subsets.set(key, subset);
  }
  return subset;
}

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
  /** Most rendered pages kept in memory. Default 2000. */
  maxRenderedPages?: number;
  /**
   * The set's cache store (`cacheStoreFor(config, key)`, built by `createCacheStore` of
   * `@kit/source-db`): rendered pages and search sections are kept there under content-addressed
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

/** A page the viewer may see, as found in a version and locale. */
interface Located {
  page: SourcePage;
  version: string;
  locale: string;
}

interface ManifestState {
  text: string | null;
  manifest: NormalizedManifest;
  problems: SourceProblem[];
  layout: UrlLayout;
}

interface NavigationState {
  file: NavigationFile;
  derived: boolean;
  problems: SourceProblem[];
}

interface IndexState {
  fingerprint: string;
  /** The renderer's `generation()` its sections were rendered under. */
  generation: number;
  visibility: Map<string, SourcePage['visibility']>;
  dirty: boolean;
  /** The cache-store key its sections were kept under, removed once a newer index replaces them. */
  sectionsKey: string | null;
}

/** A render kept in memory: of which text, under which renderer generation, and its result once settled. */
interface RenderEntry {
  hash: string;
  generation: number;
  result: Promise<RenderedPage>;
  done?: RenderedPage;
}

/** `html` renders for reader pages; `agent` renders skip syntax highlighting (agent Markdown, search, validation). */
type RenderPurpose = 'html' | 'agent';

/** Longest feedback comment, in characters (code points, `[...comment].length`), on every surface. */
export const FEEDBACK_COMMENT_LIMIT = 2000;
const SEARCH_QUERY_LIMIT = 1000;
/** Single pages a watching set keeps between changes (see findPage). */
const MAX_FOUND_PAGES = 4096;
/** What a URL that leads nowhere resolves to: shared, so frozen. */
const NO_MATCH: UrlMatch = Object.freeze({ kind: 'none' });

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
  const key = options.key ?? options.config.key;
  const { config, source, renderer, search } = options;
  const events = options.events ?? createEvents();
  const gates = options.gates ?? {};
  const origin = (options.origin ?? '').replace(/\/+$/, '');
  const maxRendered = Math.max(1, options.maxRenderedPages ?? 2000);
  // A shared source hears of another process's writes late, so nothing is kept on its notices alone.
  const watching = typeof source.watch === 'function' && source.shared !== true;
  const store = options.cache;

  let manifestState: Promise<ManifestState> | null = null;
  /** Each manifest read once it has settled, so a repeat finds it without a promise (see manifestNow). */
  const settledManifests = new WeakMap<Promise<ManifestState>, ManifestState>();
  const navigationStates = new Map<string, Promise<NavigationState>>();
  const pageLists = new Map<string, Promise<SourcePage[]>>();
  const orders = new WeakMap<SourcePage[], { navigation: NavigationState; ordered: SourcePage[] }>();
  const privateInList = new WeakMap<SourcePage[], boolean>();
  // The pages of a settled listing by path, and single pages read since the last change, for findPage.
  const listedByPath = new WeakMap<Promise<SourcePage[]>, Map<string, SourcePage>>();
  const foundPages = new Map<string, SourcePage>();
  // Where a URL leads for each view of the layout (the versions a viewer may see), kept while
  // watching until the next change: only pages every viewer with that view may open, found
  // without asking a gate about the page, so a repeat costs the access checks alone.
  const resolvedUrls = new Map<UrlLayout, Map<string, UrlMatch>>();
  const rendered = new Map<string, RenderEntry>();
  const generationOf = () => renderer.generation?.() ?? 0;
  const indexes = new Map<string, IndexState>();
  const indexing = new Map<string, Promise<IndexState>>();
  /** The last index build asked for; the next one starts once it is done. */
  let buildQueue: Promise<unknown> = Promise.resolve();

  // Bumped on every change notice, so an index built while content changed is rebuilt next time.
  let changes = 0;
  const scopeKey = (version: string, locale: string) => `${version}\u0000${locale}`;

  const stopWatching = source.watch?.((change) => invalidate(change));

  function invalidate(change: ContentChange): void {
    changes += 1;
    foundPages.clear();
    resolvedUrls.clear();
    if (change.kind === 'manifest') {
      manifestState = null;
      navigationStates.clear();
      pageLists.clear();
      rendered.clear();
      for (const state of indexes.values()) state.dirty = true;
      return;
    }
    if (change.kind !== 'page' && change.kind !== 'navigation') return;
    const inScope = (scope: string) =>
      (change.version === undefined || scope.startsWith(`${change.version}\u0000`)) &&
      (change.locale === undefined || scope.endsWith(`\u0000${change.locale}`));
    for (const scope of [...navigationStates.keys()]) if (inScope(scope)) navigationStates.delete(scope);
    if (change.kind === 'page') {
      for (const scope of [...pageLists.keys()]) if (inScope(scope)) pageLists.delete(scope);
      for (const renderKey of [...rendered.keys()]) {
        const scope = renderKey.slice(0, renderKey.lastIndexOf('\u0000'));
        const path = renderKey.slice(renderKey.indexOf(':', renderKey.lastIndexOf('\u0000')) + 1);
        if (inScope(scope) && (change.path === undefined || change.path === path)) rendered.delete(renderKey);
      }
      for (const [indexKey, state] of indexes) {
        if (inScope(indexKey.slice(0, indexKey.lastIndexOf('\u0000')))) state.dirty = true;
      }
    }
  }

  async function loadManifest(): Promise<ManifestState> {
    if (watching && manifestState) return manifestState;
    const previous = manifestState;
    const next = (async (): Promise<ManifestState> => {
      const file = await source.readManifest();
      const text = file?.text ?? null;
      const before = previous ? await previous.catch(() => null) : null;
      if (before && before.text === text) return before;
      const result = text === null ? normalizeManifest(undefined, key) : parseManifestText(text, key, file?.file);
      if (before) {
        // The manifest moved on: URLs and rendered links may differ now.
        rendered.clear();
        for (const state of indexes.values()) state.dirty = true;
      }
      return {
        text,
        manifest: result.manifest,
        problems: result.problems,
        layout: createUrlLayout(config.route.prefix, result.manifest, { linkPrefix: config.route.link_prefix }),
      };
    })();
    manifestState = next;
    next.then(
      (state) => settledManifests.set(next, state),
      () => {
        if (manifestState === next) manifestState = null;
      },
    );
    return next;
  }

  /**
   * The manifest {@link loadManifest} would answer, without a promise: while watching, once its read
   * has settled and no change came since. Undefined otherwise (then read it with loadManifest).
   */
  function manifestNow(): ManifestState | undefined {
    return watching && manifestState ? settledManifests.get(manifestState) : undefined;
  }

  const viewerOf = (viewer: Viewer) => viewer.user ?? null;

  // Both answer at once (no promise) when no gate needs asking: a request for a public page asks
  // them several times, so a signed-in reader's kept page costs little more than a guest's.
  function versionAllowed(viewer: Viewer, version: VersionInfo, locale?: string): boolean | Promise<boolean> {
    return accessAllowed({
      mode: config.access.mode,
      user: viewerOf(viewer),
      local: viewer.local === true,
      gates,
      subject: { set: key, version: version.id, ...(locale ? { locale } : {}) },
      versionVisibility: version.visibility,
    });
  }

  function setAllowed(viewer: Viewer): boolean | Promise<boolean> {
    return accessAllowed({
      mode: config.access.mode,
      user: viewerOf(viewer),
      local: viewer.local === true,
      gates,
      subject: { set: key },
    });
  }

  function fileView(name: string, file: FileView['file']): FileView {
    const { type, download } = fileContentType(name);
    return { name, contentType: type, download, file };
  }

  function pageVisibility(page: SourcePage): SourcePage['visibility'] {
    return page.visibility === 'private' || visibilityOf(page.frontmatter.visibility) === 'private'
      ? 'private'
      : 'public';
  }

  function pageAccess(viewer: Viewer, version: VersionInfo, locale: string, page: SourcePage): AccessRequest {
    return {
      mode: config.access.mode,
      user: viewerOf(viewer),
      local: viewer.local === true,
      gates,
      subject: { set: key, version: version.id, locale, page: page.path },
      versionVisibility: version.visibility,
      pageVisibility: pageVisibility(page),
    };
  }

  function pageAllowed(
    viewer: Viewer,
    version: VersionInfo,
    locale: string,
    page: SourcePage,
  ): boolean | Promise<boolean> {
    return accessAllowed(pageAccess(viewer, version, locale, page));
  }

  /** The layout as last read: at once while watching, once read (manifestNow); else read now. */
  function currentLayout(): UrlLayout | Promise<UrlLayout> {
    const state = manifestNow();
    return state ? state.layout : loadManifest().then((read) => read.layout);
  }

  /**
   * What of the layout a viewer may see: at once when the layout is read and no gate answers with
   * a promise. Gates are asked every time; only what their answers select is kept (subsetOf).
   */
  function visibleSubset(viewer: Viewer): VisibleSubset | Promise<VisibleSubset> {
    const layout = currentLayout();
    if (layout instanceof Promise) return layout.then((read) => subsetFor(read, viewer));
    return subsetFor(layout, viewer);
  }

  function subsetFor(layout: UrlLayout, viewer: Viewer): VisibleSubset | Promise<VisibleSubset> {
    // Loops, not callbacks: this runs on every request for a page.
    const decisions: Array<boolean | Promise<boolean>> = new Array(layout.versions.length);
    let waiting = false;
    for (let index = 0; index < layout.versions.length; index++) {
      const decision = versionAllowed(viewer, layout.versions[index]!);
      decisions[index] = decision;
      if (decision instanceof Promise) waiting = true;
    }
    if (waiting) return Promise.all(decisions).then((allowed) => subsetOf(layout, allowed));
    return subsetOf(layout, decisions as boolean[]);
  }

  /** The versions a viewer may see (read only). */
  function visibleVersions(viewer: Viewer): VersionInfo[] | Promise<VersionInfo[]> {
    const subset = visibleSubset(viewer);
    return subset instanceof Promise ? subset.then((visible) => visible.versions) : subset.versions;
  }

  /** The layout as a viewer sees it: their versions only. */
  function viewerLayout(viewer: Viewer): UrlLayout | Promise<UrlLayout> {
    const subset = visibleSubset(viewer);
    return subset instanceof Promise ? subset.then((visible) => visible.view) : subset.view;
  }

  /**
   * The manifest redirects a viewer may follow: a rule whose `from` or `to` names a version the
   * viewer may not see is left out, so no redirect leads into (or reveals) a private version.
   */
  async function redirectsFor(viewer: Viewer): Promise<RedirectRule[]> {
    const { manifest, layout } = await loadManifest();
    const visible = new Set((await visibleVersions(viewer)).map((version) => version.id));
    const namesHidden = (url: string) => {
      if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(url)) return false;
      const parsed = parseSetUrl(url.replace(/[?#].*$/, '').replace(/(.)\/+$/, '$1'), layout);
      return parsed.kind === 'page' && parsed.explicitVersion && !visible.has(parsed.version);
    };
    return manifest.redirects.filter((rule) => !namesHidden(rule.from) && !namesHidden(rule.to));
  }

  /**
   * The version and locale a call names, checked against what the viewer may see. Without a
   * version, URLs and agent files use the manifest's default version; the read tools (`current`)
   * use the current version: the default one when its status is `current`, else the first
   * visible version whose status is `current`, else the default one.
   */
  async function scopeFor(
    input: { version?: string; locale?: string },
    viewer: Viewer,
    unnamed: 'default' | 'current' = 'default',
  ): Promise<{ version: VersionInfo; locale: LocaleInfo; layout: UrlLayout }> {
    const { layout } = await loadManifest();
    const visible = await visibleVersions(viewer);
    const versionId =
      input.version?.trim() || (unnamed === 'current' ? currentVersionId(layout, visible) : layout.defaultVersion);
    const version = visible.find((candidate) => candidate.id === versionId);
    if (!version) {
      const ids = visible.map((candidate) => candidate.id);
      throw new KitError(
        'version.not_found',
        ids.length === 0
          ? `No version "${versionId}" is available to you in the "${key}" docs.`
          : `No version "${versionId}" in the "${key}" docs. Use one of: ${ids.join(', ')} (default ${layout.defaultVersion}), or omit version.`,
        { details: { version: versionId, versions: ids } },
      );
    }
    const localeCode = input.locale?.trim() || layout.defaultLocale;
    const locale = layout.locales.find((candidate) => candidate.code === localeCode);
    if (!locale) {
      const codes = layout.locales.map((candidate) => candidate.code);
      throw new KitError(
        'locale.not_found',
        `No locale "${localeCode}" in the "${key}" docs. Use one of: ${codes.join(', ')} (default ${layout.defaultLocale}), or omit locale.`,
        { details: { locale: localeCode, locales: codes } },
      );
    }
    return { version, locale, layout };
  }

  function currentVersionId(layout: UrlLayout, visible: VersionInfo[]): string {
    const preferred = visible.find((version) => version.id === layout.defaultVersion && version.status === 'current');
    return (preferred ?? visible.find((version) => version.status === 'current'))?.id ?? layout.defaultVersion;
  }

  function listAll(version: string, locale: string): Promise<SourcePage[]> {
    const scope = scopeKey(version, locale);
    const cached = watching ? pageLists.get(scope) : undefined;
    if (cached) return cached;
    const loading = source.listPages(version, locale);
    if (watching) {
      pageLists.set(scope, loading);
      loading.then(
        (pages) => listedByPath.set(loading, new Map(pages.map((page) => [page.path, page]))),
        () => pageLists.delete(scope),
      );
    }
    return loading;
  }

  async function navigationState(version: string, locale: string): Promise<NavigationState> {
    const scope = scopeKey(version, locale);
    const cached = watching ? navigationStates.get(scope) : undefined;
    if (cached) return cached;
    const loading = (async (): Promise<NavigationState> => {
      const file = await source.readNavigation(version, locale);
      if (file) {
        const parsed = parseNavigation(file.text, file.file);
        const problems = parsed.problems;
        if (parsed.navigation) return { file: parsed.navigation, derived: false, problems };
        const pages = await listAll(version, locale);
        return { file: deriveNavigation(pages), derived: true, problems };
      }
      const pages = await listAll(version, locale);
      return { file: deriveNavigation(pages), derived: true, problems: [] };
    })();
    if (watching) {
      navigationStates.set(scope, loading);
      loading.catch(() => navigationStates.delete(scope));
    }
    return loading;
  }

  async function findPage(version: string, locale: string, paths: string[]): Promise<SourcePage | null> {
    // A listing kept while watching answers for its pages without asking the source again (which
    // would hand out a fresh copy of the page on every request).
    const scope = scopeKey(version, locale);
    const listing = watching ? pageLists.get(scope) : undefined;
    const listed = listing ? listedByPath.get(listing) : undefined;
    for (const path of paths) {
      const key = `${scope}\u0000${path}`;
      const known = listed?.get(path) ?? foundPages.get(key);
      if (known) return known;
      const generation = changes;
      const page = await source.getPage(version, locale, path);
      if (!page) continue;
      // Kept while watching, until the next change: a page asked for in a version whose listing
      // nobody has loaded yet (a Markdown twin, another version's switcher link).
      if (watching && generation === changes) {
        foundPages.set(key, page);
        if (foundPages.size > MAX_FOUND_PAGES) foundPages.delete(foundPages.keys().next().value as string);
      }
      return page;
    }
    return null;
  }

  /** A page the viewer may see, or null exactly as for a page that does not exist. */
  async function locate(
    viewer: Viewer,
    version: VersionInfo,
    locale: string,
    paths: string[],
  ): Promise<Located | null> {
    const page = await findPage(version.id, locale, paths);
    if (!page || !(await pageAllowed(viewer, version, locale, page))) return null;
    return { page, version: version.id, locale };
  }

  function renderContext(layout: UrlLayout, version: string, locale: string, purpose: RenderPurpose): RenderContext {
    return createRenderContext({
      set: key,
      config,
      sourceKind: source.kind,
      layout,
      version,
      locale,
      origin,
      // Agent Markdown and search sections never show highlighted code; skipping it is most of a render's cost.
      highlight: purpose === 'html',
    });
  }

  async function render(page: SourcePage, purpose: RenderPurpose): Promise<RenderedPage> {
    const { layout, text } = await loadManifest();
    const renderKey = `${scopeKey(page.version, page.locale)}\u0000${purpose}:${page.path}`;
    const cached = rendered.get(renderKey);
    const generation = generationOf();
    if (cached && cached.hash === page.contentHash && cached.generation === generation) {
      rendered.delete(renderKey);
      rendered.set(renderKey, cached);
      return cached.result;
    }
    if (purpose === 'agent') {
      // Highlighting changes only the HTML: a finished reader render of the same text serves agent
      // Markdown, sections and search as well, so the page is not parsed a second time.
      const reader = rendered.get(`${scopeKey(page.version, page.locale)}\u0000html:${page.path}`);
      if (reader?.done && reader.hash === page.contentHash && reader.generation === generation) return reader.done;
    }
    const result = renderThrough(page, renderContext(layout, page.version, page.locale, purpose), text);
    const entry: RenderEntry = { hash: page.contentHash, generation, result };
    rendered.set(renderKey, entry);
    result.then(
      (done) => {
        entry.done = done;
        // Cut short by a deadline or a crashed worker: the next request renders the page again.
        if (done.provisional && rendered.get(renderKey) === entry) rendered.delete(renderKey);
      },
      () => {
        if (rendered.get(renderKey)?.result === result) rendered.delete(renderKey);
      },
    );
    while (rendered.size > maxRendered) rendered.delete(rendered.keys().next().value as string);
    return result;
  }

  /** Renders a page, or takes the render another process sharing the cache store left there. */
  async function renderThrough(
    page: SourcePage,
    context: RenderContext,
    manifestText: string | null,
  ): Promise<RenderedPage> {
    const storeKey = store ? await renderStoreKey(page, context, manifestText) : null;
    if (!store || !storeKey) return renderer.render(page, context);
    const hit = await store.get<RenderedPage>(storeKey).catch(() => undefined);
    if (isRenderedPage(hit)) return hit;
    const result = await renderer.render(page, context);
    // A page answered as text is cheap to answer again, and when a render deadline or a crashed
    // render worker cut it short, the answer belongs to that moment: it is not shared or kept.
    if (!result.provisional && !result.problems.some((problem) => problem.rule === 'markdown.complexity')) {
      await store.set(storeKey, result).catch(() => {});
    }
    return result;
  }

  /**
   * What produced a stored render: the renderer's fingerprint (its code, libraries and components),
   * or null for a renderer that gives none, whose renders then stay out of the store. Without it a
   * server of a new release sharing Redis with an old one would serve the old renders for a day.
   */
  async function rendererFingerprint(): Promise<string | null> {
    if (!renderer.fingerprint) return null;
    return renderer.fingerprint().catch(() => null);
  }

  /**
   * A render's key in the cache store: the page's content hash plus a hash of everything else the
   * output depends on (the renderer, the render context, the set's routes and manifest, which fix
   * every link), so a changed page, manifest or renderer never meets an old entry. Null for a page
   * that includes snippet files, which can change while the page does not, and for a renderer
   * without a fingerprint.
   */
  async function renderStoreKey(
    page: SourcePage,
    context: RenderContext,
    manifestText: string | null,
  ): Promise<string | null> {
    if (context.snippetsRoot !== null && mayIncludeSnippets(page.body)) return null;
    const made = await rendererFingerprint();
    if (made === null) return null;
    const inputs = JSON.stringify([
      made,
      page.path,
      page.file ?? null,
      page.bodyLine,
      context,
      config.route,
      manifestText,
    ]);
    return `v1:render:${key}:${page.contentHash}:${contentHash(inputs).slice('sha256:'.length)}`;
  }

  /**
   * The cache-store key of a search index's sections: the fingerprint of the pages it covers (with
   * the manifest), the render context of the layout the sections link with, and the renderer that
   * made them. Null where renders are not stored (snippet includes, a renderer without one).
   */
  async function sectionsStoreKey(
    scope: SearchScope,
    pages: SourcePage[],
    fingerprint: string,
    layout: UrlLayout,
  ): Promise<string | null> {
    if (!store) return null;
    const context = renderContext(layout, scope.version, scope.locale, 'agent');
    if (context.snippetsRoot !== null && pages.some((page) => mayIncludeSnippets(page.body))) return null;
    const made = await rendererFingerprint();
    if (made === null) return null;
    const inputs = JSON.stringify([made, fingerprint, context, config.route]);
    const digest = contentHash(inputs).slice('sha256:'.length);
    return `v1:search:${key}:${scope.version}:${scope.locale}:${scope.audience}:${digest}`;
  }

  async function view(located: Located, purpose: RenderPurpose): Promise<PageView> {
    const { layout } = await loadManifest();
    const target = { version: located.version, locale: located.locale, path: located.page.path };
    // A page whose code grammars are still loading is answered now without highlighting (the agent
    // render, which never highlights) rather than after a wait of up to seconds; the caller keeps
    // it out of its caches and the next request gets the highlighted page.
    const pending = purpose === 'html' && renderer.highlightReady?.(located.page) === false;
    const result = await render(located.page, pending ? 'agent' : purpose);
    return {
      ...(pending ? { highlightPending: true } : {}),
      ...(result.provisional ? { provisional: true } : {}),
      ref: { set: key, ...target },
      page: located.page,
      rendered: result,
      url: pageUrl(layout, target),
      markdownUrl: markdownUrl(layout, target),
      agentMarkdown: withContentHashLine(result.markdown, located.page.contentHash),
    };
  }

  /** Pages of a scope the viewer may see, navigation order first, then the rest by path. */
  async function visibleInOrder(viewer: Viewer, version: VersionInfo, locale: string): Promise<SourcePage[]> {
    const [pages, navigation] = await Promise.all([listAll(version.id, locale), navigationState(version.id, locale)]);
    const ordered = pagesInOrder(pages, navigation);
    if (ordered.length > 0 && !hasPrivatePage(ordered)) {
      // Without a private page, every page is decided as the first is: decided at once, when no
      // gate needs asking, for the whole list (a signed-in reader's sidebar on every request).
      const decision = decideAccessWithoutGates(pageAccess(viewer, version, locale, ordered[0]!));
      if (decision) return decision.allowed ? ordered : [];
    }
    const visible: SourcePage[] = [];
    for (const page of ordered) {
      // Most pages need no gate: deciding those at once spares a promise per page of the sidebar.
      const request = pageAccess(viewer, version, locale, page);
      if ((decideAccessWithoutGates(request) ?? (await decideAccess(request))).allowed) visible.push(page);
    }
    // A viewer who may see every page gets the kept order itself: the same list for all of them,
    // which lets a caller keep what it derives from the list by the list (the reader's viewer class).
    return visible.length === ordered.length ? ordered : visible;
  }

  /** Whether a kept list of pages holds a private one, found once per list. */
  function hasPrivatePage(pages: SourcePage[]): boolean {
    let found = privateInList.get(pages);
    if (found === undefined) {
      found = pages.some((page) => pageVisibility(page) === 'private');
      privateInList.set(pages, found);
    }
    return found;
  }

  /**
   * A scope's pages in navigation order, then the rest by path. Kept with the listing and the
   * navigation it was made from (both kept while watching), so a signed-in reader's sidebar does
   * not walk the navigation again.
   */
  function pagesInOrder(pages: SourcePage[], navigation: NavigationState): SourcePage[] {
    const kept = orders.get(pages);
    if (kept?.navigation === navigation) return kept.ordered;
    const byPath = new Map(pages.map((page) => [page.path, page]));
    const ordered: SourcePage[] = [];
    const placed = new Set<string>();
    for (const entry of navigationPages(navigation.file)) {
      const page = byPath.get(entry.path);
      if (page && !placed.has(page.path)) {
        ordered.push(page);
        placed.add(page.path);
      }
    }
    for (const page of pages) if (!placed.has(page.path)) ordered.push(page);
    orders.set(pages, { navigation, ordered });
    return ordered;
  }

  /** Reads what `read_page` and `submit_feedback` accept as a page: a path, a URL or a `.md` URL. */
  async function pageInput(
    raw: string,
    input: { version?: string; locale?: string },
    viewer: Viewer,
  ): Promise<{ version?: string; locale?: string; paths: string[]; fragment?: string; shown: string; whole?: string }> {
    let text = raw.trim();
    let fragment: string | undefined;
    // A page's own name may hold `?` or `#` (a file `a?b.md`): the uncut text is tried first.
    let whole: string | null = null;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
      try {
        const url = new URL(text);
        text = url.pathname;
        if (url.hash.length > 1) fragment = decodeURIComponent(url.hash.slice(1));
      } catch {
        throw new KitError(
          'argument.invalid',
          `"${raw}" is not a valid URL. Pass a page path such as "routing" or a page URL.`,
        );
      }
    } else {
      const cut = text.search(/[?#]/);
      if (cut !== -1) {
        if (!text.startsWith('/')) whole = cleanPagePath(text);
        if (text[cut] === '#' && text.length > cut + 1) fragment = text.slice(cut + 1);
        text = text.slice(0, cut);
      }
    }
    if (text.startsWith('/')) {
      const layout = await viewerLayout(viewer);
      const parsed = parseSetUrl(text.length > 1 ? text.replace(/\/+$/, '') : text, layout);
      if (parsed.kind === 'page') {
        return {
          // An unversioned URL names the default version, as it does in a browser.
          version: parsed.explicitVersion ? parsed.version : (input.version ?? parsed.version),
          locale: parsed.explicitLocale ? parsed.locale : input.locale,
          paths: candidatePaths(parsed),
          shown: parsed.path,
          ...(fragment ? { fragment } : {}),
        };
      }
    }
    const path = cleanPagePath(text);
    if (!path) {
      throw new KitError(
        'page.invalid_path',
        `"${raw}" is not a page path. Pass a path such as "routing" or "guides/setup" (no "..", no empty segments), a page URL or its .md URL.`,
      );
    }
    // `index` names the landing page, which a manifest may set to another page; a page really
    // called `index` still wins, as it does at its own URL.
    const { landing } = (await loadManifest()).layout;
    const paths = path === 'index' && landing !== 'index' ? ['index', landing] : candidatePaths({ path, root: false });
    if (whole) return { ...input, paths: [whole, ...paths], shown: path, whole, ...(fragment ? { fragment } : {}) };
    return { ...input, paths, shown: path, ...(fragment ? { fragment } : {}) };
  }

  async function pageNotFound(shown: string, version: VersionInfo, locale: string, viewer: Viewer): Promise<KitError> {
    const visible = await visibleInOrder(viewer, version, locale);
    const suggestions = closestPaths(
      shown,
      visible.map((page) => page.path),
    );
    const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.map((path) => `"${path}"`).join(', ')}?` : '';
    return new KitError(
      'page.not_found',
      `No page "${shown}" in version ${version.id} (${locale}) of the "${key}" docs.${hint} Call list_pages to see every path, or search_docs to find a topic.`,
      { details: { path: shown, version: version.id, locale, suggestions } },
    );
  }

  /** The search scope a viewer gets: the private audience only for viewers `viewKit` admits to private pages. */
  async function searchScopeFor(input: { version?: string; locale?: string }, viewer: Viewer) {
    const scope = await scopeFor(input, viewer, 'current');
    const seesPrivate = (
      await decideAccess({
        mode: 'public',
        user: viewerOf(viewer),
        local: viewer.local === true,
        gates,
        subject: { set: key, version: scope.version.id, locale: scope.locale.code },
        pageVisibility: 'private',
      })
    ).allowed;
    const searchScope: SearchScope = {
      set: key,
      version: scope.version.id,
      locale: scope.locale.code,
      audience: seesPrivate ? 'private' : 'public',
    };
    return { scope, searchScope };
  }

  /** Whether gates may refuse single pages of an index's audience, so its hits are checked per viewer. */
  function gatesSinglePages(scope: SearchScope): boolean {
    return config.access.mode === 'gate' || scope.audience === 'private';
  }

  /** Whether a viewer may open one page of a search index (by the visibility it was indexed with). */
  async function indexedPageAllowed(
    viewer: Viewer,
    version: VersionInfo,
    locale: string,
    path: string,
    state: IndexState,
  ): Promise<boolean> {
    const decision = await decideAccess({
      mode: config.access.mode,
      user: viewerOf(viewer),
      local: viewer.local === true,
      gates,
      subject: { set: key, version: version.id, locale, page: path },
      versionVisibility: version.visibility,
      pageVisibility: state.visibility.get(path) ?? 'private',
    });
    return decision.allowed;
  }

  async function indexFor(scope: SearchScope, version: VersionInfo, layout: UrlLayout): Promise<IndexState> {
    const stateKey = `${scope.version}\u0000${scope.locale}\u0000${scope.audience}`;
    const current = indexes.get(stateKey);
    if (current && !current.dirty && watching && current.generation === generationOf()) return current;
    const running = indexing.get(stateKey);
    if (running) return running;
    // One index is built at a time: builds running side by side would share the CPU and all finish
    // last, while one after the other the version asked for first is answered first.
    const before = buildQueue;
    const build = (async (): Promise<IndexState> => {
      await before;
      const startedAt = changes;
      const generation = generationOf();
      // The manifest fixes every URL in the index (the landing page's, a version's), so it is part
      // of what the index is made from, like the pages.
      const { text: manifestText } = await loadManifest();
      const all = await listAll(scope.version, scope.locale);
      const pages =
        scope.audience === 'public'
          ? version.visibility === 'public'
            ? all.filter((page) => pageVisibility(page) === 'public')
            : []
          : all;
      const fingerprint = [
        `manifest\u0000${manifestText === null ? '' : contentHash(manifestText)}`,
        ...pages.map((page) => `${page.path}\u0000${page.contentHash}\u0000${pageVisibility(page)}`).sort(),
      ].join('\n');
      const existing = indexes.get(stateKey);
      if (existing && existing.fingerprint === fingerprint && existing.generation === generation) {
        existing.dirty = false;
        return existing;
      }
      const sectionsKey = await sectionsStoreKey(scope, pages, fingerprint, layout);
      const state: IndexState = {
        fingerprint,
        generation,
        visibility: new Map(pages.map((page) => [page.path, pageVisibility(page)])),
        dirty: false,
        sectionsKey,
      };
      // A driver that keeps built indexes (the server driver under `.kit/cache/search`) loads the
      // one made from this very content: neither the sections nor the index are made again.
      const restored =
        sectionsKey !== null && search.restore ? await search.restore(scope, sectionsKey).catch(() => false) : false;
      if (restored) {
        if (existing?.sectionsKey && existing.sectionsKey !== sectionsKey) {
          await store?.delete(existing.sectionsKey).catch(() => {});
        }
        state.dirty = changes !== startedAt;
        indexes.set(stateKey, state);
        return state;
      }
      // Another process sharing the cache store may have rendered these very pages already.
      const stored = sectionsKey ? await store!.get<SearchSection[]>(sectionsKey).catch(() => undefined) : undefined;
      const sections: SearchSection[] = Array.isArray(stored) ? stored : [];
      let slice = performance.now();
      for (const page of Array.isArray(stored) ? [] : pages) {
        // Rendering is synchronous work between awaits that resolve at once: hand the event loop
        // back every few milliseconds so requests keep being answered while an index is built.
        if (performance.now() - slice > 20) {
          await new Promise((resume) => setTimeout(resume, 0));
          slice = performance.now();
        }
        const result = await render(page, 'agent');
        const target = { version: scope.version, locale: scope.locale, path: page.path };
        sections.push(
          ...searchSectionsOf(page, result.sections, {
            url: pageUrl(layout, target),
            markdownUrl: markdownUrl(layout, target),
          }),
        );
      }
      if (sectionsKey && !Array.isArray(stored)) await store!.set(sectionsKey, sections).catch(() => {});
      // The sections of the index this one replaces are never asked for again (their key names
      // content that is gone); removing them keeps a store from filling with a copy per change.
      if (existing?.sectionsKey && existing.sectionsKey !== sectionsKey) {
        await store?.delete(existing.sectionsKey).catch(() => {});
      }
      await search.index(scope, sections, sectionsKey !== null ? { key: sectionsKey } : undefined);
      state.dirty = changes !== startedAt;
      indexes.set(stateKey, state);
      return state;
    })();
    indexing.set(stateKey, build);
    buildQueue = build.catch(() => undefined);
    try {
      return await build;
    } finally {
      indexing.delete(stateKey);
    }
  }

  /** The page's stale sources, or null; a history that fails costs the note, never the read. */
  async function staleSourcesOf(page: SourcePage): Promise<StaleSources | null> {
    if (!options.sourceHistory) return null;
    return options.sourceHistory.staleSources(page).catch(() => null);
  }

  /** matchUrl once the viewer may see the set: a URL kept in the viewer's view at once. */
  function matchInView(pathname: string, viewer: Viewer): UrlMatch | Promise<UrlMatch> {
    const viewed = viewerLayout(viewer);
    if (viewed instanceof Promise) return viewed.then((layout) => findUrl(pathname, viewer, layout));
    return (watching ? resolvedUrls.get(viewed)?.get(pathname) : undefined) ?? findUrl(pathname, viewer, viewed);
  }

  /**
   * Where `pathname` leads in the viewer's view of the layout, found afresh (see matchUrl): kept,
   * while watching, when no gate was asked about the page.
   */
  async function findUrl(pathname: string, viewer: Viewer, layout: UrlLayout): Promise<UrlMatch> {
    const generation = changes;
    const parsed = parseSetUrl(pathname, layout);
    if (parsed.kind === 'slash') {
      const target = await docSet.matchUrl(parsed.location, viewer);
      if (target.kind === 'page') return { kind: 'redirect', location: parsed.location, status: 308 };
      return target;
    }
    if (parsed.kind !== 'page') return NO_MATCH;
    const version = layout.versions.find((candidate) => candidate.id === parsed.version);
    if (version && (await versionAllowed(viewer, version))) {
      const located = await locate(viewer, version, parsed.locale, candidatePaths(parsed));
      if (located) {
        const match: UrlMatch = {
          kind: 'page',
          ref: { set: key, version: located.version, locale: located.locale, path: located.page.path },
          markdown: parsed.markdown,
        };
        // Kept only when no gate was asked about this page (the local operator sees what others may not).
        const settled = decideAccessWithoutGates(pageAccess(viewer, version, located.locale, located.page));
        if (watching && viewer.local !== true && settled?.allowed === true && generation === changes) {
          let urls = resolvedUrls.get(layout);
          if (!urls) {
            urls = new Map();
            resolvedUrls.set(layout, urls);
          }
          // Shared by every request that finds it: frozen, so no caller can change it for the others.
          Object.freeze(match.ref);
          urls.set(pathname, Object.freeze(match));
          if (urls.size > MAX_FOUND_PAGES) urls.delete(urls.keys().next().value as string);
        }
        return match;
      }
    }
    const redirect = matchRedirect(await redirectsFor(viewer), layout, parsed);
    return redirect ? { kind: 'redirect', location: redirect.location, status: redirect.status } : NO_MATCH;
  }

  const docSet: RuntimeDocSet = {
    key,
    config,
    source,
    events,

    async manifest() {
      return (await loadManifest()).manifest;
    },

    async versions(viewer) {
      // A copy: the list may be the layout's own (every version visible), which callers must not change.
      return [...(await visibleVersions(viewer))];
    },

    async locales() {
      return (await loadManifest()).layout.locales;
    },

    async resolveUrl(pathname, viewer): Promise<UrlMatch> {
      return docSet.matchUrl(pathname, viewer);
    },

    matchUrl(pathname, viewer) {
      // Waited for only when a gate answers with a promise or the manifest is being read: a repeat
      // of a kept URL then answers at once.
      const allowed = setAllowed(viewer);
      if (allowed instanceof Promise) return allowed.then((yes) => (yes ? matchInView(pathname, viewer) : NO_MATCH));
      return allowed ? matchInView(pathname, viewer) : NO_MATCH;
    },
    async resolveFile(pathname, viewer) {
      if (!(await setAllowed(viewer))) return null;
      const layout = await viewerLayout(viewer);
      const parsed = parseSetUrl(pathname, layout);
      if (parsed.kind !== 'page' || parsed.markdown || parsed.root) return null;
      const version = layout.versions.find((candidate) => candidate.id === parsed.version);
      if (!version || !(await versionAllowed(viewer, version, parsed.locale))) return null;
      for (const name of fileCandidates(layout, parsed)) {
        if (!isServableFileName(name)) return null;
        const file = await source.openFile(name);
        if (file) return fileView(name, file);
      }
      return null;
    },

    async manifestFile(name, viewer) {
      if (!(await setAllowed(viewer))) return null;
      const { manifest } = await loadManifest();
      const named = [manifest.logo?.light, manifest.logo?.dark, manifest.favicon];
      if (!named.includes(name) || !isServableFileName(name)) return null;
      const file = await source.openFile(name);
      return file ? fileView(name, file) : null;
    },

    async pageUrl(ref) {
      const { layout } = await loadManifest();
      return pageUrl(layout, ref);
    },

    async getPage(ref, viewer) {
      let scope: Awaited<ReturnType<typeof scopeFor>>;
      try {
        scope = await scopeFor(ref, viewer);
      } catch (error) {
        if (error instanceof KitError && (error.code === 'version.not_found' || error.code === 'locale.not_found')) {
          return null;
        }
        throw error;
      }
      const path = cleanPagePath(ref.path);
      if (!path) return null;
      const located = await locate(viewer, scope.version, scope.locale.code, candidatePaths({ path, root: false }));
      return located ? view(located, 'html') : null;
    },

    async readPage(input, viewer): Promise<ReadPageResult> {
      if (typeof input.path !== 'string' || input.path.trim() === '') {
        throw new KitError(
          'argument.invalid',
          'read_page needs a path: a page path such as "routing", its URL or its .md URL.',
        );
      }
      const asked = readSections(input.section);
      const cursor = input.cursor === undefined ? null : decodeReadCursor(String(input.cursor).trim());
      checkMaxChars(input.maxChars);
      const wanted = await pageInput(input.path, input, viewer);
      const scope = await scopeFor(wanted, viewer, 'current');
      const located = await locate(viewer, scope.version, scope.locale.code, wanted.paths);
      if (!located) throw await pageNotFound(wanted.shown, scope.version, scope.locale.code, viewer);
      const page = await view(located, 'agent');
      const meta = {
        title: located.page.title,
        path: located.page.path,
        version: located.version,
        locale: located.locale,
        url: origin + page.url,
        markdown_url: origin + page.markdownUrl,
        content_hash: located.page.contentHash,
      };
      const hash = located.page.contentHash;
      let selection: ReadSelection;
      let start = 0;
      if (cursor) {
        if (asked.length > 0 && !sameSelection(asked, input.subsections !== false, cursor)) {
          throw new KitError(
            'argument.invalid',
            'This `cursor` continues another section selection than `section` names. Pass the cursor alone (it carries its sections), or omit it to start a new read.',
          );
        }
        if (cursor.hash !== cursorHash(hash)) {
          throw new KitError(
            'content.conflict',
            `Page "${located.page.path}" changed since this cursor was handed out (content_hash is now ${hash}). Read it again without cursor.`,
            { details: { path: located.page.path, content_hash: hash } },
          );
        }
        selection = { sections: cursor.sections, subsections: cursor.subsections };
        start = cursor.offset;
      } else if (asked.length > 0) {
        selection = { sections: asked, subsections: input.subsections !== false };
      } else {
        const fragment = located.page.path === wanted.whole ? undefined : wanted.fragment;
        // A URL's #fragment that names no section still reads the page, as a browser would show it.
        const named = fragment !== undefined && selectionFinds(page.rendered, fragment);
        selection = { sections: named ? [fragment] : null, subsections: input.subsections !== false };
      }
      const text = selectedText(page.rendered, selection, located.page.path);
      const stale = input.staleness === true ? await staleSourcesOf(located.page) : null;
      const note = stale ? staleNote(stale) : '';
      const resultMeta = { ...meta, ...(stale ? { stale } : {}) };
      const whole = `${note}${withContentHashLine(text, hash)}`;
      // A cursor keeps the max_chars its read began with, unless this call names another.
      const askedMax = typeof input.maxChars === 'number' ? input.maxChars : (cursor?.maxChars ?? input.maxChars);
      const maxChars = askedMax === 'budget' ? config.agents.markdown_budget : askedMax;
      // The budget is measured as `markdown.size` measures it, so a page that passes validation comes whole.
      if (!cursor && (maxChars === undefined || whole.length - note.length <= maxChars)) {
        return { text: whole, meta: resultMeta };
      }
      if (start >= text.length) {
        throw new KitError(
          'argument.invalid',
          '`cursor` points past the end of the page. Pass the cursor from the last part exactly as given.',
        );
      }
      const part = nextPart(text, start, partLimit(maxChars ?? config.agents.markdown_budget, note.length));
      const body = text.slice(part.start, part.end);
      const range = { start: part.start, end: part.end, total: text.length };
      if (part.end >= text.length) {
        return { text: `${note}${withContentHashLine(body, hash)}`, meta: { ...resultMeta, range } };
      }
      const next = encodeReadCursor({
        ...selection,
        offset: part.end,
        hash: cursorHash(hash),
        maxChars: typeof askedMax === 'number' ? askedMax : null,
      });
      const what = selection.sections === null ? 'the page' : 'the sections asked for';
      const continuation =
        `> **Continued:** this part holds characters ${part.start}–${part.end} of the ${text.length} of ${what}. ` +
        `Read the rest with read_page, the same path and cursor "${next}", or GET ${meta.markdown_url}?cursor=${next}` +
        `${part.nextSection ? `. It goes on at the section "${part.nextSection}".` : '.'}`;
      return {
        text: `${note}${body}${body.endsWith('\n') ? '' : '\n'}\n${continuation}\n\ncontent_hash: ${hash}\n`,
        meta: {
          ...resultMeta,
          range,
          next_cursor: next,
          ...(part.nextSection ? { next_section: part.nextSection } : {}),
        },
      };
    },

    async listPages(input, viewer): Promise<PageListing> {
      const scope = await scopeFor(input, viewer, 'current');
      const version = scope.version.id;
      const locale = scope.locale.code;
      const [navigation, pages] = await Promise.all([navigationState(version, locale), listAll(version, locale)]);
      const byPath = new Map(pages.map((page) => [page.path, page]));
      const groups: PageListing['groups'] = [];
      const placed = new Set<string>();
      for (const entry of navigationPages(navigation.file)) {
        const page = byPath.get(entry.path);
        if (!page || placed.has(`${entry.tab ?? ''}\u0000${entry.group}\u0000${page.path}`)) continue;
        if (!(await pageAllowed(viewer, scope.version, locale, page))) continue;
        placed.add(`${entry.tab ?? ''}\u0000${entry.group}\u0000${page.path}`);
        let group = groups.find((candidate) => candidate.label === entry.group && candidate.tab === entry.tab);
        if (!group) {
          group = { label: entry.group, ...(entry.tab !== undefined ? { tab: entry.tab } : {}), pages: [] };
          groups.push(group);
        }
        group.pages.push({ title: entry.title ?? page.title, path: page.path, description: page.description ?? null });
      }
      let shown = groups;
      if (input.group !== undefined && input.group.trim() !== '') {
        const wanted = input.group.trim().toLowerCase();
        shown = groups.filter((group) => group.label.trim().toLowerCase() === wanted);
        if (shown.length === 0) {
          const labels = [...new Set(groups.map((group) => group.label))];
          throw new KitError(
            'navigation.group_not_found',
            `No group "${input.group}" in version ${version} (${locale}). Groups: ${labels.join('; ') || 'none'}. Omit group to list every page.`,
            { details: { group: input.group, groups: labels } },
          );
        }
      }
      return { set: key, version, locale, groups: shown };
    },

    async navigation(input, viewer): Promise<NavigationView> {
      const scope = await scopeFor(input, viewer);
      const state = await navigationState(scope.version.id, scope.locale.code);
      const pages = await listAll(scope.version.id, scope.locale.code);
      const visible = new Set<string>();
      for (const page of pages) {
        if (await pageAllowed(viewer, scope.version, scope.locale.code, page)) visible.add(page.path);
      }
      return { file: filterNavigation(state.file, (path) => visible.has(path)), derived: state.derived };
    },

    async visiblePages(input, viewer) {
      const scope = await scopeFor(input, viewer);
      return visibleInOrder(viewer, scope.version, scope.locale.code);
    },

    async search(input, viewer, from): Promise<SearchResult> {
      if (typeof input.query !== 'string') {
        throw new KitError('search.invalid_query', 'search_docs needs a query: the words to look for.');
      }
      const query = input.query.trim();
      if (query.length > SEARCH_QUERY_LIMIT) {
        throw new KitError(
          'search.invalid_query',
          `The query is ${query.length} characters long; keep it under ${SEARCH_QUERY_LIMIT}. Search for the key words only.`,
        );
      }
      const limit = normalizeSearchLimit(input.limit);
      const sections = normalizeSearchSections(input.sections);
      const { scope, searchScope } = await searchScopeFor(input, viewer);
      const version = scope.version;
      const locale = scope.locale.code;
      const state = await indexFor(searchScope, version, scope.layout);
      // Gates may refuse single pages; ask the driver for more (up to its maximum) and drop those.
      const perPage = gatesSinglePages(searchScope);
      const hits =
        query === ''
          ? []
          : await search.search(searchScope, query, {
              limit: perPage ? Math.min(limit * 3, MAX_SEARCH_LIMIT) : limit,
              sections,
            });
      const results = [];
      const allowedPaths = new Map<string, boolean>();
      for (const hit of hits) {
        if (results.length >= limit) break;
        if (perPage) {
          let allowed = allowedPaths.get(hit.path);
          if (allowed === undefined) {
            allowed = await indexedPageAllowed(viewer, version, locale, hit.path, state);
            allowedPaths.set(hit.path, allowed);
          }
          if (!allowed) continue;
        }
        results.push({
          ...hit,
          url: absolute(origin, hit.url),
          markdown_url: absolute(origin, hit.markdown_url),
          // Every result lists its page's other matching sections, none when the driver found one a page.
          sections: (hit.sections ?? [])
            .slice(0, sections - 1)
            .map((section) => ({ ...section, url: absolute(origin, section.url) })),
        });
      }
      events.emit('SearchPerformed', {
        set: key,
        version: version.id,
        locale,
        query,
        results: results.length,
        source: from,
      } satisfies KitEventMap['SearchPerformed']);
      return { set: key, version: version.id, query, results };
    },

    async clientSearchIndex(input, viewer) {
      if (!search.clientIndex) return null;
      const { scope, searchScope } = await searchScopeFor(input, viewer);
      const state = await indexFor(searchScope, scope.version, scope.layout);
      // One index serves every viewer of an audience. A viewer a gate refuses any of its pages gets
      // none rather than one holding pages they may not open; the reader then searches through the
      // server, which drops refused pages per viewer.
      if (gatesSinglePages(searchScope)) {
        for (const path of state.visibility.keys()) {
          if (!(await indexedPageAllowed(viewer, scope.version, scope.locale.code, path, state))) return null;
        }
      }
      return search.clientIndex(searchScope);
    },

    async submitFeedback(input, viewer, from) {
      if (typeof input.helpful !== 'boolean') {
        throw new KitError('argument.invalid', 'helpful must be true or false: did the page help?', {
          details: { field: 'helpful' },
        });
      }
      if (input.comment !== undefined && typeof input.comment !== 'string') {
        throw new KitError('argument.invalid', 'comment must be text.', { details: { field: 'comment' } });
      }
      if (input.comment !== undefined && [...input.comment].length > FEEDBACK_COMMENT_LIMIT) {
        throw new KitError(
          'argument.invalid',
          `comment is ${[...input.comment].length} characters long; the limit is ${FEEDBACK_COMMENT_LIMIT}. Shorten it to what was wrong or missing.`,
          { details: { field: 'comment', limit: FEEDBACK_COMMENT_LIMIT } },
        );
      }
      if (typeof input.path !== 'string' || input.path.trim() === '') {
        throw new KitError(
          'argument.invalid',
          'submit_feedback needs the path or URL of the page the feedback is about.',
        );
      }
      const wanted = await pageInput(input.path, input, viewer);
      const scope = await scopeFor(wanted, viewer, 'current');
      const located = await locate(viewer, scope.version, scope.locale.code, wanted.paths);
      if (!located) throw await pageNotFound(wanted.shown, scope.version, scope.locale.code, viewer);
      const comment = input.comment?.trim();
      events.emit('FeedbackSubmitted', {
        set: key,
        version: located.version,
        locale: located.locale,
        path: located.page.path,
        helpful: input.helpful,
        ...(comment ? { comment } : {}),
        source: from,
        user: viewerOf(viewer),
      });
    },

    async canView(viewer, subject) {
      const { layout } = await loadManifest();
      if (subject.version === undefined && subject.path === undefined) {
        const decision = await decideAccess({
          mode: config.access.mode,
          user: viewerOf(viewer),
          local: viewer.local === true,
          gates,
          subject: { set: key, ...(subject.locale ? { locale: subject.locale } : {}) },
        });
        return decision.allowed;
      }
      const version = layout.versions.find((candidate) => candidate.id === (subject.version ?? layout.defaultVersion));
      if (!version) return false;
      const locale = subject.locale ?? layout.defaultLocale;
      if (!layout.locales.some((candidate) => candidate.code === locale)) return false;
      if (subject.path === undefined) return versionAllowed(viewer, version, subject.locale);
      const path = cleanPagePath(subject.path);
      if (!path) return false;
      return (await locate(viewer, version, locale, candidatePaths({ path, root: false }))) !== null;
    },

    async canManage(viewer) {
      if (viewer.local === true) return true;
      return gateAllowsManage(viewerOf(viewer), gates, { set: key });
    },

    async canReviewChanges(viewer) {
      if (viewer.local === true) return true;
      return gateAllowsReview(viewerOf(viewer), gates, { set: key });
    },

    renderForAgents(page) {
      return render(page, 'agent');
    },

    async problems() {
      const { problems: manifestProblems, layout } = await loadManifest();
      const found: SourceProblem[] = [...manifestProblems];
      if (source.problems) found.push(...(await source.problems()));
      for (const version of layout.versions) {
        for (const locale of layout.locales) {
          const navigation = await navigationState(version.id, locale.code);
          found.push(...navigation.problems);
          for (const page of await listAll(version.id, locale.code)) {
            found.push(...page.problems.map((problem) => ({ ...problem, file: problem.file ?? page.file })));
            const result = await render(page, 'agent');
            found.push(...result.problems.map((problem) => ({ ...problem, file: problem.file ?? page.file })));
          }
        }
      }
      return found;
    },

    async warm(input = {}) {
      const viewer: Viewer = input.viewer ?? { user: null };
      let scoped: Awaited<ReturnType<typeof searchScopeFor>>;
      try {
        scoped = await searchScopeFor(input, viewer);
      } catch (error) {
        // A version the viewer may not see has nothing to prepare for them.
        if (error instanceof KitError && (error.code === 'version.not_found' || error.code === 'locale.not_found'))
          return;
        throw error;
      }
      const { scope, searchScope } = scoped;
      const parts = input.parts ?? ['highlight', 'search'];
      if (renderer.prepareHighlight && parts.includes('highlight')) {
        const pages = await visibleInOrder(viewer, scope.version, scope.locale.code);
        await renderer.prepareHighlight(pages);
      }
      if (parts.includes('search')) await indexFor(searchScope, scope.version, scope.layout);
    },

    async close() {
      stopWatching?.();
    },
  };
  return docSet;
}

/** `section` as a list of names: one string or several, trimmed, empty ones left out. */
function readSections(section: unknown): string[] {
  if (section === undefined || section === null) return [];
  const list = Array.isArray(section) ? section : [section];
  if (!list.every((name) => typeof name === 'string')) {
    throw new KitError(
      'argument.invalid',
      '`section` must be a heading text or anchor id, or a list of them, e.g. ["Retrying Jobs", "priorities"].',
    );
  }
  return [...new Set((list as string[]).map((name) => name.trim()).filter((name) => name !== ''))];
}

function checkMaxChars(maxChars: unknown): void {
  if (maxChars === undefined || maxChars === 'budget') return;
  if (typeof maxChars !== 'number' || !Number.isInteger(maxChars) || maxChars < MIN_READ_CHARS) {
    throw new KitError(
      'argument.invalid',
      `\`max_chars\` must be a whole number of at least ${MIN_READ_CHARS} (got ${JSON.stringify(maxChars)}); omit it for the set's budget (agents.markdown_budget).`,
    );
  }
}

function sameSelection(asked: string[], subsections: boolean, cursor: ReadCursor): boolean {
  return (
    cursor.sections !== null &&
    cursor.subsections === subsections &&
    cursor.sections.length === asked.length &&
    cursor.sections.every((name, index) => name === asked[index])
  );
}

/** Whether a page has the section a URL fragment names. */
function selectionFinds(rendered: RenderedPage, fragment: string): boolean {
  try {
    selectedText(rendered, { sections: [fragment], subsections: true }, '');
    return true;
  } catch {
    return false;
  }
}

/**
 * The note on top of a page whose `sources:` changed after it, for clients that show only text.
 *
 * @example
 * staleNote({ sources: ['src/queue.ts'], total: 1, commit: 'a1b2c3…', date: '2026-01-02T10:00:00Z' });
 * // '> **Possibly out of date:** code this page documents changed after the page did: `src/queue.ts` (newest: commit a1b2c3d4e5f6, 2026-01-02). Check the code before relying on it.\n\n'
 */
export function staleNote(stale: StaleSources): string {
  const shown = stale.sources.slice(0, 5).map((file) => `\`${file}\``);
  const more = stale.total - shown.length;
  const files = more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
  return `> **Possibly out of date:** code this page documents changed after the page did: ${files} (newest: commit ${stale.commit.slice(0, 12)}, ${stale.date.slice(0, 10)}). Check the code before relying on it.\n\n`;
}

/**
 * Agent Markdown as `read_page` and `.md` twins serve it: the Markdown, a blank line, and the line
 * `content_hash: sha256:...` for clients that show only text.
 *
 * @example
 * withContentHashLine('# Routing\n', 'sha256:ab…'); // '# Routing\n\ncontent_hash: sha256:ab…\n'
 */
export function withContentHashLine(markdown: string, hash: string): string {
  // trimEnd strips what /\s+$/ would, scanning from the end instead of trying every offset (twins are served per request).
  return `${markdown.trimEnd()}\n\ncontent_hash: ${hash}\n`;
}

/**
 * Agent Markdown without the `content_hash` line {@link withContentHashLine} added: what Ask AI
 * reads (the specification gives it pages without that line). Text without the line passes unchanged.
 *
 * @example
 * withoutContentHashLine('# Routing\n\ncontent_hash: sha256:ab…\n', 'sha256:ab…'); // '# Routing\n'
 */
export function withoutContentHashLine(text: string, hash: string): string {
  const line = `\n\ncontent_hash: ${hash}\n`;
  return text.endsWith(line) ? `${text.slice(0, -line.length)}\n` : text;
}

/** Whether a value read from a cache store has the shape of a render (a shared store may hold anything). */
function isRenderedPage(value: unknown): value is RenderedPage {
  const page = value as Partial<RenderedPage> | null | undefined;
  return (
    typeof page?.html === 'string' &&
    typeof page.markdown === 'string' &&
    Array.isArray(page.sections) &&
    Array.isArray(page.toc) &&
    Array.isArray(page.anchors) &&
    Array.isArray(page.links) &&
    Array.isArray(page.problems)
  );
}

function absolute(origin: string, url: string): string {
  return origin !== '' && url.startsWith('/') ? origin + url : url;
}

/** A navigation tree without the pages a viewer may not see (and without groups left empty). */
function filterNavigation(file: NavigationFile, visible: (path: string) => boolean): NavigationFile {
  const entries = (list: NavEntry[]): NavEntry[] =>
    list.flatMap((entry): NavEntry[] => {
      if (typeof entry === 'string') return visible(entry) ? [entry] : [];
      if ('pages' in entry) {
        const pages = entries(entry.pages);
        return pages.length > 0 ? [{ ...entry, pages }] : [];
      }
      if ('path' in entry) return visible(entry.path) ? [entry] : [];
      return [entry];
    });
  const groups = (list: NavGroup[]): NavGroup[] =>
    list.flatMap((group) => {
      const pages = entries(group.pages);
      return pages.length > 0 ? [{ ...group, pages }] : [];
    });
  if ('tabs' in file) {
    return {
      tabs: file.tabs.map((tab) => ({ ...tab, groups: groups(tab.groups) })).filter((tab) => tab.groups.length > 0),
    };
  }
  return { groups: groups(file.groups) };
}

/** Up to three page paths close to a mistyped one: same last segment, containment, or few edits. */
function closestPaths(wanted: string, paths: string[]): string[] {
  return nearestPages(
    wanted,
    paths.map((path) => ({ path })),
  ).map((page) => page.path);
}
