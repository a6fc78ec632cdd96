import { fileContentType, isServableFileName } from '../files/file-names.js';
import type { ContentSource } from '../ports/content-source.js';
import type { FileView, UrlMatch, Viewer } from '../ports/docset.js';
import { matchRedirect } from '../redirects/redirects.js';
import { candidatePaths, fileCandidates, parseSetUrl, type UrlLayout } from '../urls/set-urls.js';
import type { Content } from './content.js';
import type { ManifestReader } from './manifest-state.js';
import type { Pages } from './pages.js';
import type { Scopes } from './scope.js';
import { pageTarget, type ViewerAccess } from './viewer-access.js';

/** Pages a watching set keeps resolved URLs for, per view of the layout, between changes. */
const MAX_RESOLVED_URLS = 4096;
/** What a URL that leads nowhere resolves to: shared, so frozen. */
const NO_MATCH: UrlMatch = Object.freeze({ kind: 'none' });

/** Where a set's URLs lead for a viewer: pages, redirects and static files. */
export interface Urls {
  /** See `DocSet.resolveUrl`: synchronous when nothing needs waiting for. */
  resolveUrl(pathname: string, viewer: Viewer): UrlMatch | Promise<UrlMatch>;
  resolveFile(pathname: string, viewer: Viewer): Promise<FileView | null>;
  manifestFile(name: string, viewer: Viewer): Promise<FileView | null>;
  /** Forgets every resolved URL (any change notice). */
  forget(): void;
}

/** The URL part of a doc set. */
export function createUrls(options: {
  set: string;
  source: ContentSource;
  watching: boolean;
  manifest: ManifestReader;
  content: Content;
  scopes: Scopes;
  access: ViewerAccess;
  pages: Pages;
}): Urls {
  const { set, source, watching, content, scopes, access, pages } = options;
  // Where a URL leads for each view of the layout (the versions a viewer may see), cached while
  // watching until the next change: only pages every viewer with that view may open, found
  // without asking a gate about the page, so a repeat costs the access checks alone.
  const resolved = new Map<UrlLayout, Map<string, UrlMatch>>();

  function remember(layout: UrlLayout, pathname: string, match: UrlMatch & { kind: 'page' }): void {
    let urls = resolved.get(layout);
    if (!urls) {
      urls = new Map();
      resolved.set(layout, urls);
    }
    // Shared by every request that finds it: frozen, so no caller can change it for the others.
    Object.freeze(match.ref);
    urls.set(pathname, Object.freeze(match));
    if (urls.size > MAX_RESOLVED_URLS) urls.delete(urls.keys().next().value as string);
  }

  /** Where `pathname` leads in the viewer's view of the layout, found afresh (see resolveUrl). */
  async function findUrl(pathname: string, viewer: Viewer, layout: UrlLayout): Promise<UrlMatch> {
    const generation = content.changeCount();
    const parsed = parseSetUrl(pathname, layout);
    if (parsed.kind === 'slash') {
      const target = await resolveUrl(parsed.location, viewer);
      if (target.kind === 'page') return { kind: 'redirect', location: parsed.location, status: 308 };
      return target;
    }
    if (parsed.kind !== 'page') return NO_MATCH;
    const version = layout.versions.find((candidate) => candidate.id === parsed.version);
    if (version && (await access.allowed(viewer, { version }))) {
      const located = await pages.locate(viewer, version, parsed.locale, candidatePaths(parsed));
      if (located) {
        const ref = { set, version: located.version, locale: located.locale, path: located.page.path };
        const match = { kind: 'page' as const, ref, markdown: parsed.markdown };
        // Kept only when no gate was asked about this page (the local operator sees what others may not).
        const settled = access.settled(viewer, pageTarget(version, located.locale, located.page));
        if (watching && viewer.local !== true && settled?.allowed === true && generation === content.changeCount()) {
          remember(layout, pathname, match);
        }
        return match;
      }
    }
    const redirect = matchRedirect(await scopes.redirectsFor(viewer), layout, parsed);
    return redirect ? { kind: 'redirect', location: redirect.location, status: redirect.status } : NO_MATCH;
  }

  /** resolveUrl once the viewer may see the set: a URL found before answers synchronously. */
  function resolveInView(pathname: string, viewer: Viewer): UrlMatch | Promise<UrlMatch> {
    const viewed = scopes.viewerLayout(viewer);
    if (viewed instanceof Promise) return viewed.then((layout) => findUrl(pathname, viewer, layout));
    return (watching ? resolved.get(viewed)?.get(pathname) : undefined) ?? findUrl(pathname, viewer, viewed);
  }

  function resolveUrl(pathname: string, viewer: Viewer): UrlMatch | Promise<UrlMatch> {
    // Waited for only when a gate answers with a promise or the manifest is being read: a repeat
    // of a URL found before then answers without one.
    const allowed = access.allowed(viewer, {});
    if (allowed instanceof Promise) return allowed.then((yes) => (yes ? resolveInView(pathname, viewer) : NO_MATCH));
    return allowed ? resolveInView(pathname, viewer) : NO_MATCH;
  }

  return {
    resolveUrl,
    async resolveFile(pathname, viewer) {
      if (!(await access.allowed(viewer, {}))) return null;
      const layout = await scopes.viewerLayout(viewer);
      const parsed = parseSetUrl(pathname, layout);
      if (parsed.kind !== 'page' || parsed.markdown || parsed.root) return null;
      const version = layout.versions.find((candidate) => candidate.id === parsed.version);
      if (!version || !(await access.allowed(viewer, { version, locale: parsed.locale }))) return null;
      for (const name of fileCandidates(layout, parsed)) {
        if (!isServableFileName(name)) return null;
        const file = await source.openFile(name);
        if (file) return fileView(name, file);
      }
      return null;
    },
    async manifestFile(name, viewer) {
      if (!(await access.allowed(viewer, {}))) return null;
      const { manifest } = await options.manifest.load();
      const named = [manifest.logo?.light, manifest.logo?.dark, manifest.favicon];
      if (!named.includes(name) || !isServableFileName(name)) return null;
      const file = await source.openFile(name);
      return file ? fileView(name, file) : null;
    },
    forget: () => resolved.clear(),
  };
}

function fileView(name: string, file: FileView['file']): FileView {
  const { type, download } = fileContentType(name);
  return { name, contentType: type, download, file };
}
