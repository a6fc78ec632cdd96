import type { ResolvedConfig, ResolvedSetConfig } from '../config/types.js';
import type { KitEventMap, KitEventName } from '../events/types.js';
import type {
  LocaleInfo,
  NavigationFile,
  NormalizedManifest,
  SourcePage,
  SourceProblem,
  VersionInfo,
} from '../model/types.js';
import type { ContentSource, SourceFileContent } from './content-source.js';
import type { RenderedPage, TocEntry } from './renderer.js';
import type { SearchResult } from './search-driver.js';
import type { StaleSources } from './source-history.js';

/** Who is asking: the user the application's resolver returned (null for a guest) and their address. */
export interface Viewer {
  user: unknown | null;
  ip?: string;
  /**
   * The operator of a local process (`kit mcp` over stdio, CLI commands): the local server serves
   * every set with all tools, so access decisions admit it. Never set from an HTTP request.
   */
  local?: boolean;
  /**
   * The local operator's account name on the machine (`USER`, `USERNAME`), set by the CLI with
   * `local`: who the review rule takes the operator for. Read only when `local` is true.
   */
  operator?: string;
}

/** A page's address inside a set. */
export interface PageRef {
  set: string;
  version: string;
  locale: string;
  path: string;
}

/** A page ready to serve: source, rendering and its URLs. */
export interface PageView {
  ref: PageRef;
  page: SourcePage;
  rendered: RenderedPage;
  /** Site URL path, e.g. `/docs/13.x/routing` (default version and locale without a segment). */
  url: string;
  /** Markdown twin URL path, e.g. `/docs/13.x/routing.md`. */
  markdownUrl: string;
  /** Agent Markdown ending with the `content_hash` line. */
  agentMarkdown: string;
  /**
   * True when `rendered.html` shows code without highlighting because a grammar was still loading
   * (the first pages after a server starts). Send it, but keep it out of response caches.
   */
  highlightPending?: boolean;
  /**
   * True when a render deadline or a crashed render worker cut the render short and the page shows
   * as its text (`RenderedPage.provisional`). Send it, but keep it out of response caches.
   */
  provisional?: boolean;
}

/** What a request path under a set resolves to. */
export type UrlMatch =
  | { kind: 'page'; ref: PageRef; markdown: boolean }
  | { kind: 'redirect'; location: string; status: 301 | 302 | 307 | 308 }
  | { kind: 'none' };

/** A static file a viewer may read: what a set serves at a file's URL. */
export interface FileView {
  /** The file's name relative to the set folder (`13.x/images/flow.png`). */
  name: string;
  /** Content type from the extension; `application/octet-stream` for an unknown one. */
  contentType: string;
  /** Sent as a download (`Content-Disposition: attachment`): the type is unknown or would run in the site's origin. */
  download: boolean;
  file: SourceFileContent;
}

/** `list_pages` result: groups in navigation order, then their pages. */
export interface PageListing {
  set: string;
  version: string;
  locale: string;
  groups: Array<{
    label: string;
    tab?: string;
    pages: Array<{ title: string; path: string; description: string | null }>;
  }>;
}

/** What `read_page` and the `.md` twin's query parameters ask for. */
export interface ReadPageInput {
  /** Page path, its URL or its `.md` URL (a `#fragment` names a section). */
  path: string;
  version?: string;
  locale?: string;
  /** One section or several, by heading text or anchor id; read in page order. */
  section?: string | string[];
  /** Whether a section includes its subsections. @default true */
  subsections?: boolean;
  /**
   * Most characters of text to return; a longer selection comes in parts, cut at headings, then
   * blocks, never inside code, with a cursor to the rest. `'budget'` is the set's
   * `agents.markdown_budget`. Default: no limit (the whole selection).
   */
  maxChars?: number | 'budget';
  /** The `next_cursor` of the previous part; it carries the section selection, so pass it alone. */
  cursor?: string;
  /** Say whether the page's `sources:` files changed after it (`meta.stale` and a note on top). @default false */
  staleness?: boolean;
}

/** `read_page` result. */
export interface ReadPageResult {
  /** Agent Markdown (or the part asked for) ending with the `content_hash` line. */
  text: string;
  meta: {
    title: string;
    path: string;
    version: string;
    locale: string;
    url: string;
    markdown_url: string;
    content_hash: string;
    /** Characters `[start, end)` of `total` this part holds, when the read came in parts. */
    range?: { start: number; end: number; total: number };
    /** Where the next part starts: pass it as `cursor`. Absent on the last part. */
    next_cursor?: string;
    /** The heading the next part opens with, when it opens with one. */
    next_section?: string;
    /** The page's `sources:` files changed after it did (asked for with `staleness`). */
    stale?: StaleSources;
  };
}

/** The navigation of one version and locale as a reader sees it (private pages removed). */
export interface NavigationView {
  file: NavigationFile;
  /** True when derived from folders because the version has no navigation file. */
  derived: boolean;
}

/**
 * One doc set at run time: config, source, renderer and search composed, with access checked on
 * every call. HTTP routes, MCP tools and CLI commands are thin doors onto these methods.
 * Methods that take a `Viewer` never return what that viewer may not see: a hidden page answers
 * exactly like a missing one.
 */
export interface DocSet {
  readonly key: string;
  readonly config: ResolvedSetConfig;
  readonly source: ContentSource;
  manifest(): Promise<NormalizedManifest>;
  /** Versions the viewer may see, default first-class. */
  versions(viewer: Viewer): Promise<VersionInfo[]>;
  locales(): Promise<LocaleInfo[]>;
  /**
   * Resolves a URL path (with the set prefix) to a page, a `.md` twin or a redirect. Answers
   * synchronously when nothing needs waiting for: the manifest is read, every gate asked
   * answers synchronously (gates are asked on every call), and the URL was found before (cached
   * while the source is watched). Servers answering cached pages use that: a promise per request costs
   * them more than the lookup. Other callers `await` it.
   */
  resolveUrl(pathname: string, viewer: Viewer): UrlMatch | Promise<UrlMatch>;
  /**
   * The static file a request path names (`/docs/13.x/images/flow.png`: `images/flow.png` beside
   * the pages of 13.x, a non-default locale falling back to the default locale's file), when the
   * viewer may read that version; null otherwise, exactly as for a page they may not see.
   */
  resolveFile(pathname: string, viewer: Viewer): Promise<FileView | null>;
  /**
   * A file the manifest names relative to itself as `logo` (light or dark) or `favicon`, for a
   * viewer the set admits; null for any other name or a missing file.
   */
  manifestFile(name: string, viewer: Viewer): Promise<FileView | null>;
  /** Site URL path of a page. */
  pageUrl(ref: Omit<PageRef, 'set'>): Promise<string>;
  /** A page the viewer may see, rendered, or null. `version`/`locale` default to the set's defaults. */
  getPage(ref: { version?: string; locale?: string; path: string }, viewer: Viewer): Promise<PageView | null>;
  /** `read_page`: `path` may be a page path, its URL or its `.md` URL; throws `KitError` with a fix. */
  readPage(input: ReadPageInput, viewer: Viewer): Promise<ReadPageResult>;
  /** `list_pages`. */
  listPages(input: { version?: string; locale?: string; group?: string }, viewer: Viewer): Promise<PageListing>;
  navigation(input: { version?: string; locale?: string }, viewer: Viewer): Promise<NavigationView>;
  /** Every page the viewer may see in one version and locale, in navigation order. */
  visiblePages(input: { version?: string; locale?: string }, viewer: Viewer): Promise<SourcePage[]>;
  /**
   * `search_docs`. Fires `SearchPerformed`. `sections` (1 to 5, default 3) is the most sections
   * listed per page: the best in the result, more in its `sections`.
   */
  search(
    input: { query: string; version?: string; locale?: string; limit?: number; sections?: number },
    viewer: Viewer,
    source: KitEventMap['SearchPerformed']['source'],
  ): Promise<SearchResult>;
  /**
   * The browser search index of one version and locale for this viewer (a public index for guests),
   * when the set's search driver searches in the browser; null otherwise. Over `search.budget_kb`
   * the `client` driver's body is a pointer to server search rather than the index.
   */
  clientSearchIndex(
    input: { version?: string; locale?: string },
    viewer: Viewer,
  ): Promise<{ body: string; contentType: string } | null>;
  /** `submit_feedback` and the widget endpoint. Fires `FeedbackSubmitted`; stores nothing. */
  submitFeedback(
    input: { path: string; helpful: boolean; comment?: string; version?: string; locale?: string },
    viewer: Viewer,
    source: 'agent' | 'widget',
  ): Promise<void>;
  /** The access decision for a viewer: may they see the set, a version, a page? */
  canView(viewer: Viewer, subject: { version?: string; locale?: string; path?: string }): Promise<boolean>;
  /** May the viewer use the `manageKit` tools? */
  canManage(viewer: Viewer): Promise<boolean>;
  /** May the viewer review drafts on the web (the review screen, the MCP review tools)? The `reviewKit` gate. */
  canReviewChanges(viewer: Viewer): Promise<boolean>;
  /** Problems the source and renderer found (for validation). */
  problems(): Promise<SourceProblem[]>;
  /**
   * Optional: a page's render as agents get it (no highlighting, the set's origin in links),
   * through the set's caches: a render already made for agents or readers of the same text, or one
   * kept in its cache store. Validation reads pages this way, so a server's check parses nothing
   * its search index or readers already had parsed.
   */
  renderForAgents?(page: SourcePage): Promise<RenderedPage>;
  /**
   * Optional: prepares a version (default: the default version and locale) in the background after
   * a server starts: loads the code grammars its pages use, then builds the guests' search index,
   * yielding to requests as it goes, so the first reader's page and search do not wait for either.
   * `parts` picks what to prepare (default both): an agent-only server never highlights, and
   * `warmKit` builds every version's index before it loads any grammar. `viewer` (default a guest)
   * is who the index is for: the local operator of `kit mcp` searches the private audience.
   */
  warm?(input?: {
    version?: string;
    locale?: string;
    parts?: ReadonlyArray<'highlight' | 'search'>;
    viewer?: Viewer;
  }): Promise<void>;
}

/** Several sets with one config and one event bus: what the CLI, the MCP servers and the app use. */
export interface Kit {
  readonly config: ResolvedConfig;
  readonly sets: ReadonlyMap<string, DocSet>;
  readonly events: KitEvents;
  /** The set named `key`, or the configured default; throws `set.not_found` listing the keys. */
  set(key?: string): DocSet;
  close(): Promise<void>;
}

/** A typed event emitter. */
export interface KitEvents {
  on<E extends KitEventName>(event: E, handler: (payload: KitEventMap[E]) => void | Promise<void>): () => void;
  emit<E extends KitEventName>(event: E, payload: KitEventMap[E]): void;
}

export type { TocEntry };
