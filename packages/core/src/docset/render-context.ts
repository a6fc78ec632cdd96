import type { ResolvedSetConfig } from '../config/types.js';
import type { PageUrlInput, RenderContext } from '../ports/renderer.js';
import { cleanPagePath, fileUrl, linkBaseOf, pageUrl, type UrlLayout } from '../urls/set-urls.js';

/**
 * The render context of one page of a set: where its links point, how raw HTML is treated and
 * whether code is highlighted. The DocSet and validation both build contexts here, so a validation
 * render of a page hits the renderer's cache entry the runtime made for agent Markdown.
 *
 * @example
 * createRenderContext({ set: 'docs', config, sourceKind: 'repository', layout, version: '3.x', locale: 'en', origin: '', highlight: false });
 */
export function createRenderContext(options: {
  set: string;
  config: Pick<ResolvedSetConfig, 'html_input' | 'snippets'> & Partial<Pick<ResolvedSetConfig, 'references'>>;
  sourceKind: 'repository' | 'database';
  layout: UrlLayout;
  version: string;
  locale: string;
  /** Absolute origin for agent Markdown links; a trailing slash is dropped. */
  origin: string;
  /** False for agent Markdown, search and validation: none of them shows highlighted code. */
  highlight: boolean;
}): RenderContext {
  const { layout, version, locale } = options;
  const database = options.sourceKind === 'database';
  const linkBase = linkBaseOf(layout);
  return {
    set: options.set,
    version,
    locale,
    versionSegment: version,
    ...contextUrls({ layout, version, locale }),
    pageUrlInput: { layout, version, locale },
    ...(linkBase ? { linkBase } : {}),
    origin: options.origin.replace(/\/+$/, ''),
    // A database set always escapes raw HTML and sanitizes what it renders.
    htmlInput: database ? 'escape' : options.config.html_input,
    sanitize: database,
    snippetsRoot: options.config.snippets.root,
    ...(options.highlight ? {} : { highlight: false }),
    ...(options.config.references ? { references: options.config.references } : {}),
  };
}

/**
 * The URL functions of a render context, from the data they are built from: `pageUrl` (a page path,
 * with an optional `#fragment`, of the same version and locale to its site URL path) and `fileUrl`
 * (a static file beside those pages). A worker thread rebuilds them for a context posted to it
 * (`context.pageUrlInput`).
 *
 * @example
 * const context = { ...posted, ...contextUrls(posted.pageUrlInput) };
 */
export function contextUrls(input: PageUrlInput): Pick<RenderContext, 'pageUrl' | 'fileUrl'> {
  const { layout, version, locale } = input;
  return {
    pageUrl: (path: string) => {
      const cut = path.indexOf('#');
      const pagePath = cut === -1 ? path : path.slice(0, cut);
      const fragment = cut === -1 ? '' : path.slice(cut);
      return pageUrl(layout, { version, locale, path: cleanPagePath(pagePath) ?? layout.landing }) + fragment;
    },
    fileUrl: (path: string) => fileUrl(layout, { version, locale, path }),
  };
}

/**
 * A snippet include (`<<< @/path`) anywhere, also after a list marker or `>` of a quote. A PHP
 * heredoc (`<<<EOT`, `<<<'blade'`) is not one.
 */
const SNIPPET_INCLUDE = /<<<[ \t]*@/;

/**
 * Whether a page may include snippet files: its render can then change while its text does not (the
 * file changed), so no cache outside the renderer keeps it.
 *
 * @example
 * mayIncludeSnippets('<<< @/app/routes.php'); // true
 * mayIncludeSnippets("return <<<'blade'"); // false
 */
export function mayIncludeSnippets(body: string): boolean {
  return SNIPPET_INCLUDE.test(body);
}
