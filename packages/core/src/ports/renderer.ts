import type { ReferenceSettings } from '../references/types.js';
import type { SourcePage, SourceProblem } from '../model/types.js';
import type { LinkBase, UrlLayout } from '../urls/set-urls.js';

/** What a context's `pageUrl` and `fileUrl` are built from: plain data a renderer on another thread rebuilds them with (`contextUrls`). */
export interface PageUrlInput {
  layout: UrlLayout;
  version: string;
  locale: string;
}

/** Where and how one page is rendered. */
export interface RenderContext {
  set: string;
  version: string;
  locale: string;
  /** Version segment readers use in links (`{{version}}` becomes this); the version id. */
  versionSegment: string;
  /** Site URL path of a page of the same version and locale: `pageUrl('routing')` → `/docs/13.x/routing`. */
  pageUrl(path: string): string;
  /**
   * Site URL path of a static file beside the pages of the same version and locale:
   * `fileUrl('img/flow.png')` → `/docs/13.x/img/flow.png`. Absent: files are linked like pages.
   */
  fileUrl?(path: string): string;
  /**
   * The data `pageUrl` and `fileUrl` were built from, set by `createRenderContext`. With it the
   * context can be posted to a worker thread (which rebuilds them with `contextUrls`); a context
   * without it renders on the calling thread.
   */
  pageUrlInput?: PageUrlInput;
  /**
   * Set when the pages were written for a site that mounts the set elsewhere (`route.link_prefix`):
   * site-absolute links under `written` are served under `served`, those already under `served` as
   * written (apply it with `rebaseLink`).
   */
  linkBase?: LinkBase;
  /** Absolute origin for agent Markdown links, e.g. `https://example.com` (no trailing slash). */
  origin: string;
  htmlInput: 'escape' | 'allow';
  /** Database sets: always escape raw HTML and sanitize the output. */
  sanitize: boolean;
  /** Absolute folder snippet includes resolve in, or null to include nothing. */
  snippetsRoot: string | null;
  /**
   * Syntax highlighting of code blocks (off for benchmarks and agent-only renders). It changes the
   * HTML only: a doc set answers agent Markdown, sections and search from a highlighted render of
   * the same page when it has one.
   */
  highlight?: boolean;
  /**
   * The config's `references.*` (top level only): what `<Route>`, `<Model>` and `<Event>` may
   * describe. Absent: the defaults.
   */
  references?: ReferenceSettings;
}

export interface TocEntry {
  depth: number;
  text: string;
  id: string;
}

/** One section of a page: the unit of search. */
export interface PageSection {
  /** Heading text; empty for the text before the first heading. */
  heading: string;
  /** Heading texts from the page's top-level section down to this one. */
  headingPath: string[];
  /** Anchor id of the heading, or undefined for the intro. */
  anchor?: string;
  depth: number;
  /** Plain text of the section (no Markdown syntax). */
  text: string;
}

export interface RenderedPage {
  /** Article HTML (no layout). */
  html: string;
  toc: TocEntry[];
  /** Agent Markdown: components and includes resolved, links absolute, without the content_hash line. */
  markdown: string;
  sections: PageSection[];
  /** Every id a link can target on the page (headings, `{#id}`, `<a name>`). */
  anchors: string[];
  /** Every link and image target as written in the page (for validation); `image` marks an image's source. */
  links: Array<{ href: string; line?: number; image?: true }>;
  /** Unknown components, missing snippets, ... */
  problems: SourceProblem[];
  /**
   * True for an answer of this moment only: a render deadline or a crashed render worker cut the
   * render short and the page is shown as its text. Nothing keeps it (memory, store, HTTP caches),
   * so the next request renders the page again.
   */
  provisional?: true;
}

/** The renderer port, implemented by `@kit/render`. Rendering is cached by content hash. */
export interface PageRenderer {
  render(page: SourcePage, context: RenderContext): Promise<RenderedPage>;
  /**
   * Optional: true when rendering `page` with highlighting would not wait for a grammar to load.
   * When false, loading has started in the background; a server that must answer at once renders
   * the page without highlighting (`highlight: false`) and keeps that render out of its caches.
   */
  highlightReady?(page: SourcePage): boolean;
  /**
   * Optional: loads, in the background and a little at a time, what highlighting these pages needs
   * (the grammars of their code languages, most used first). Resolves when done.
   */
  prepareHighlight?(pages: SourcePage[]): Promise<void>;
  /**
   * Optional: what this renderer is, as far as its output goes: a text that changes whenever the
   * same page and context may render differently (its code and libraries, its components). A doc
   * set keeps renders and search sections in a cache store (shared by processes, outliving them)
   * only under it, so a server of another release, or with other components, never reads them; a
   * renderer without it has its renders kept in the process only.
   */
  fingerprint?(): Promise<string>;
  /**
   * Optional: a number that changes whenever the same page and context may render differently in
   * this process while the code stays the same (a component registered or replaced). A doc set
   * reads it on every render, so it must be cheap, and renders again what it rendered under
   * another number; a renderer without it is taken to render alike for the life of the process.
   */
  generation?(): number;
}
