import type { createRenderContext } from '../docset/render-context.js';
import type { SourcePage } from '../model/types.js';
import type { DocSet } from '../ports/docset.js';
import type { PageRenderer, RenderedPage } from '../ports/renderer.js';
import type { SearchScope, SearchSection } from '../ports/search-driver.js';

/** The size of a client search index, as the search driver measured it. */
export interface SearchBudgetReport {
  gzipBytes: number;
  budgetKb: number;
}

/**
 * Measures the browser search index a scope would ship, for `search.budget`. Given the sections a
 * guest may search (exactly what the `client` driver indexes); null when the set's driver ships no
 * browser index.
 */
export type SearchBudgetCheck = (scope: SearchScope, sections: SearchSection[]) => Promise<SearchBudgetReport | null>;

/**
 * What a page's render context is built from (`createRenderContext`): plain data, so a renderer on
 * another thread can build the same context from it.
 */
export type RenderContextInput = Parameters<typeof createRenderContext>[0];

/**
 * Renders pages for validation from the inputs of their render context instead of the built
 * context, so the work can move to worker threads (`kit validate` renders on every core this way).
 * The result must equal `renderer.render(page, createRenderContext(context))` (the HTML aside:
 * validation never reads it).
 */
export interface ValidationRenderer {
  renderPage(page: SourcePage, context: RenderContextInput): Promise<RenderedPage>;
  /**
   * How many pages it renders at once. Above 1, validation asks for every page as soon as the
   * pages are listed, and reads the renders in page order as they come back.
   * @default 1
   */
  readonly concurrency?: number;
}

/** What `validateDocSet` checks and how it renders pages. */
export interface ValidateDocSetOptions {
  docSet: DocSet;
  /** Only this version; default every version. An unknown id is a `version.not_found` error. */
  version?: string;
  /**
   * Renders pages the way agent Markdown is rendered (no syntax highlighting): a `PageRenderer`
   * shares its cache with the running set, a `ValidationRenderer` may render on other threads.
   * Without one pages are rendered through the set's own caches (`docSet.renderForAgents`, with
   * the set's origin; `docSet.getPage` for a set without it).
   */
  renderer?: PageRenderer | ValidationRenderer;
  /** Origin agent Markdown links are made absolute with (same as the set's), so renders share the cache. */
  origin?: string;
  /** The `search.budget` check; without it the rule is not checked. */
  searchBudget?: SearchBudgetCheck;
  /**
   * Names of the components the renderer knows. With them, names in the manifest's `inserts` that
   * are not among them are reported (`components.unknown`); without them inserts are not checked.
   */
  components?: readonly string[];
  /**
   * Every set of the site (this one may be among them). With them, a site-absolute link under
   * another set's prefix on the same domain must reach a page or redirect of that set, and a
   * `{{version}}` link under no set's prefix is reported (`links.broken`). Without them, links
   * outside this set's prefix are not checked: they may be the application's own routes.
   */
  site?: readonly DocSet[];
  /**
   * Only these pages (paths in the checked version; every locale) get their own checks:
   * frontmatter, render problems, agent Markdown size, the links out of them and the anchors they
   * point at. The manifest, redirects and navigation are checked as in a full run; the browser
   * search index is not. The report holds every issue of these pages and every manifest, redirect
   * and navigation issue (orphans of any page included) as a full run reports them, and no other. The author tools validate a change to one page this
   * way (an empty list checks no page) instead of rendering and checking the whole version.
   */
  pages?: readonly string[];
}
