import { KitError } from '../errors/kit-error.js';
import type { SourcePage, VersionInfo } from '../model/types.js';
import { nearestPages } from '../pages/nearest-pages.js';
import type { PageView, Viewer } from '../ports/docset.js';
import type { PageRenderer } from '../ports/renderer.js';
import { candidatePaths, cleanPagePath, markdownUrl, pageUrl, parseSetUrl } from '../urls/set-urls.js';
import type { Content } from './content.js';
import type { Listing } from './listing.js';
import type { ManifestReader } from './manifest-state.js';
import { withContentHashLine } from './markdown-lines.js';
import type { RenderPurpose, Renders } from './renders.js';
import type { Scopes } from './scope.js';
import { pageTarget, type ViewerAccess } from './viewer-access.js';

/** A page the viewer may see, as found in a version and locale. */
export interface Located {
  page: SourcePage;
  version: string;
  locale: string;
}

/** What `read_page` and `submit_feedback` were given as a page, read (see {@link Pages.pageInput}). */
export interface PageInput {
  version?: string;
  locale?: string;
  /** The paths to try, in order. */
  paths: string[];
  /** A `#fragment` the input named. */
  fragment?: string;
  /** The path as error messages show it. */
  shown: string;
  /** The uncut text as a path, when it held `?` or `#`. */
  whole?: string;
}

/** Finding the page a call names, for a viewer, and making it ready to serve. */
export interface Pages {
  /** A page the viewer may see, or null exactly as for a page that does not exist. */
  locate(viewer: Viewer, version: VersionInfo, locale: string, paths: string[]): Promise<Located | null>;
  /** A located page rendered for `purpose`, with its URLs and agent Markdown. */
  view(located: Located, purpose: RenderPurpose): Promise<PageView>;
  /** Reads what `read_page` and `submit_feedback` accept as a page: a path, a URL or a `.md` URL. */
  pageInput(raw: string, input: { version?: string; locale?: string }, viewer: Viewer): Promise<PageInput>;
  /** The `page.not_found` error for a path, with the closest paths the viewer may see. */
  pageNotFound(shown: string, version: VersionInfo, locale: string, viewer: Viewer): Promise<KitError>;
}

/** The page part of a doc set. */
export function createPages(options: {
  set: string;
  renderer: PageRenderer;
  manifest: ManifestReader;
  content: Content;
  access: ViewerAccess;
  scopes: Scopes;
  listing: Listing;
  renders: Renders;
}): Pages {
  const { set, renderer, manifest, content, access, scopes, listing, renders } = options;
  return {
    async locate(viewer, version, locale, paths) {
      const page = await content.findPage(version.id, locale, paths);
      if (!page || !(await access.allowed(viewer, pageTarget(version, locale, page)))) return null;
      return { page, version: version.id, locale };
    },

    async view(located, purpose) {
      const { layout } = await manifest.load();
      const target = { version: located.version, locale: located.locale, path: located.page.path };
      // A page whose code grammars are still loading is answered now without highlighting (the agent
      // render, which never highlights) rather than after a wait of up to seconds; the caller keeps
      // it out of its caches and the next request gets the highlighted page.
      const pending = purpose === 'html' && renderer.highlightReady?.(located.page) === false;
      const result = await renders.render(located.page, pending ? 'agent' : purpose);
      return {
        ...(pending ? { highlightPending: true } : {}),
        ...(result.provisional ? { provisional: true } : {}),
        ref: { set, ...target },
        page: located.page,
        rendered: result,
        url: pageUrl(layout, target),
        markdownUrl: markdownUrl(layout, target),
        agentMarkdown: withContentHashLine(result.markdown, located.page.contentHash),
      };
    },

    async pageInput(raw, input, viewer) {
      const { text, fragment, whole } = splitPageInput(raw);
      if (text.startsWith('/')) {
        const layout = await scopes.viewerLayout(viewer);
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
      const { landing } = (await manifest.load()).layout;
      const paths =
        path === 'index' && landing !== 'index' ? ['index', landing] : candidatePaths({ path, root: false });
      if (whole) return { ...input, paths: [whole, ...paths], shown: path, whole, ...(fragment ? { fragment } : {}) };
      return { ...input, paths, shown: path, ...(fragment ? { fragment } : {}) };
    },

    async pageNotFound(shown, version, locale, viewer) {
      const visible = await listing.visibleInOrder(viewer, version, locale);
      const suggestions = closestPaths(
        shown,
        visible.map((page) => page.path),
      );
      const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.map((path) => `"${path}"`).join(', ')}?` : '';
      return new KitError(
        'page.not_found',
        `No page "${shown}" in version ${version.id} (${locale}) of the "${set}" docs.${hint} Call list_pages to see every path, or search_docs to find a topic.`,
        { details: { path: shown, version: version.id, locale, suggestions } },
      );
    },
  };
}

/**
 * A page input's path text without its query or fragment, the fragment, and (for a relative path
 * holding `?` or `#`) the uncut text as a path: a page's own name may hold them (a file `a?b.md`),
 * so the uncut text is tried first.
 */
function splitPageInput(raw: string): { text: string; fragment?: string; whole: string | null } {
  let text = raw.trim();
  let fragment: string | undefined;
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
  return { text, ...(fragment !== undefined ? { fragment } : {}), whole };
}

/** Up to three page paths close to a mistyped one: same last segment, containment, or few edits. */
function closestPaths(wanted: string, paths: string[]): string[] {
  return nearestPages(
    wanted,
    paths.map((path) => ({ path })),
  ).map((page) => page.path);
}
