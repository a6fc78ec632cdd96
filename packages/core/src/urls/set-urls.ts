import { looksLikeFile } from '../files/file-names.js';
import type { LocaleInfo, NormalizedManifest, VersionInfo } from '../model/types.js';

/**
 * What the URL rules of one set need: its prefix and the versions and locales of its manifest.
 * Build it with {@link createUrlLayout}; every URL function takes it.
 */
export interface UrlLayout {
  /** `''` for a root-mounted set, else `/docs` (leading slash, no trailing slash). */
  prefix: string;
  /** False for an unversioned set: its URLs never carry a version segment. */
  versioned: boolean;
  versions: VersionInfo[];
  locales: LocaleInfo[];
  defaultVersion: string;
  defaultLocale: string;
  /** Page a version opens on (manifest `landing`, default `index`). */
  landing: string;
  /**
   * The prefix the set's pages write their site-absolute links with (`route.link_prefix`, same
   * form as `prefix`), when they were written for a site that mounts the set there: a link under it
   * is a link to this set. Absent: links are read as written.
   */
  linkPrefix?: string;
}

/**
 * Where the site-absolute links of a set's pages are written and where they are served: a link
 * under `written` is served with `written` replaced by `served` (the set's own prefix), unless it
 * is already under `served` (see {@link rebaseLink}).
 */
export interface LinkBase {
  /** `route.link_prefix` in URL form: `/docs`, or `''` for links written for a root-mounted set. */
  written: string;
  /** The set's `route.prefix` in URL form. */
  served: string;
}

/** A page address as URLs carry it (no set key: a layout belongs to one set). */
export interface UrlTarget {
  version: string;
  locale: string;
  path: string;
}

/** What a request path means under one set, before anyone looks for a page. */
export type ParsedSetUrl =
  | {
      kind: 'page';
      version: string;
      locale: string;
      /** Page path without `.md`; the landing page when the URL names no path. */
      path: string;
      /** The `.md` twin was asked for. */
      markdown: boolean;
      /** The URL names the version / locale with a segment (rules 2 and 3 of redirects read these). */
      explicitVersion: boolean;
      explicitLocale: boolean;
      /** The URL named no path: the version (or locale) root, which serves the landing page. */
      root: boolean;
    }
  /** A trailing slash: the same URL without it is canonical. */
  | { kind: 'slash'; location: string }
  /** The path is not under this set's prefix. */
  | { kind: 'outside' }
  /** Under the prefix but no page can live there (empty or dot segments, bad escapes). */
  | { kind: 'invalid' };

/**
 * Normalizes a configured `route.prefix` to the form URLs use: `''` for a root-mounted set,
 * otherwise one leading slash and no trailing slash.
 *
 * @example
 * normalizePrefix('docs/'); // '/docs'
 * normalizePrefix('/'); // ''
 */
export function normalizePrefix(prefix: string): string {
  const trimmed = prefix.trim().replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? '' : `/${trimmed}`;
}

/**
 * The URL path of a set's web MCP endpoint: the set prefix, then `mcp.web.path` (`/mcp` for a
 * root-mounted set).
 *
 * @example
 * mcpEndpointPath('docs', 'mcp'); // '/docs/mcp'
 * mcpEndpointPath('', '/mcp/'); // '/mcp'
 */
export function mcpEndpointPath(prefix: string, path: string): string {
  return `${normalizePrefix(prefix)}/${path.trim().replace(/^\/+|\/+$/g, '')}`;
}

/**
 * The URL layout of a set from its prefix and normalized manifest. The default version and locale
 * are the ones marked `default` (else the first), as the manifest rules say.
 *
 * @example
 * const layout = createUrlLayout('docs', manifest);
 * pageUrl(layout, { version: '12.x', locale: 'en', path: 'routing' }); // '/docs/12.x/routing'
 */
export function createUrlLayout(
  prefix: string,
  manifest: Pick<NormalizedManifest, 'versioned' | 'versions' | 'locales' | 'landing'>,
  options: {
    /** `route.link_prefix`: the prefix the pages' site-absolute links were written with. @default null */
    linkPrefix?: string | null;
  } = {},
): UrlLayout {
  const versions = manifest.versions.length > 0 ? manifest.versions : [implicitVersion];
  const locales = manifest.locales.length > 0 ? manifest.locales : [implicitLocale];
  const layout: UrlLayout = {
    prefix: normalizePrefix(prefix),
    versioned: manifest.versioned,
    versions,
    locales,
    defaultVersion: (versions.find((version) => version.default) ?? versions[0]!).id,
    defaultLocale: (locales.find((locale) => locale.default) ?? locales[0]!).code,
    landing: cleanPagePath(manifest.landing) ?? 'index',
  };
  if (options.linkPrefix !== undefined && options.linkPrefix !== null) {
    const linkPrefix = normalizePrefix(options.linkPrefix);
    // Links written with the set's own prefix need no rebasing.
    if (linkPrefix !== layout.prefix) layout.linkPrefix = linkPrefix;
  }
  return layout;
}

/**
 * The link base of a layout whose pages were written for another mount (`route.link_prefix`),
 * or undefined when their links are served as written.
 */
export function linkBaseOf(layout: Pick<UrlLayout, 'prefix' | 'linkPrefix'>): LinkBase | undefined {
  return layout.linkPrefix === undefined ? undefined : { written: layout.linkPrefix, served: layout.prefix };
}

/**
 * A site-absolute link as the set serves it: a path under the link base's `written` prefix gets
 * the set's own prefix instead (query and fragment kept); any other link is returned unchanged.
 * A link already under the set's own prefix is served as written, so a set mounted inside its
 * link prefix (`written: '/docs'`, `served: '/docs/laravel'`), or pages written for a root-mounted
 * site (`written: ''`), never get the prefix twice. When a link is under both, the longer prefix
 * decides: the one it was written with. Renderer and validator both read page links through it,
 * so a link validates where it is served.
 *
 * @example
 * const base = { written: '/docs', served: '/laravel' };
 * rebaseLink('/docs/13.x/routing#groups', base); // '/laravel/13.x/routing#groups'
 * rebaseLink('/docs', base); // '/laravel'
 * rebaseLink('/docsets/x', base); // '/docsets/x' (not under /docs)
 * rebaseLink('/docs/laravel/13.x/x', { written: '/docs', served: '/docs/laravel' }); // as written
 * rebaseLink('/docs/laravel/13.x/x', { written: '/docs/laravel', served: '/docs' }); // '/docs/13.x/x'
 */
export function rebaseLink(url: string, base: LinkBase | undefined): string {
  if (!base || !url.startsWith('/') || url.startsWith('//')) return url;
  const cut = url.search(/[?#]/);
  const path = cut === -1 ? url : url.slice(0, cut);
  const suffix = cut === -1 ? '' : url.slice(cut);
  const { written, served } = base;
  if (!underPrefix(path, written)) return url;
  // Under both: a link names the longer prefix on purpose; the shorter one holds every path under it.
  if (served.length > written.length && underPrefix(path, served)) return url;
  const rest = path.slice(written.length);
  const rebased = rest === '/' ? served : `${served}${rest}`;
  return `${rebased === '' ? '/' : rebased}${suffix}`;
}

/** True when `path` is `prefix` or below it; every path is below the root prefix `''`. */
function underPrefix(path: string, prefix: string): boolean {
  return prefix === '' || path === prefix || path.startsWith(`${prefix}/`);
}

const implicitVersion: VersionInfo = {
  id: 'current',
  label: 'current',
  status: 'current',
  default: true,
  visibility: 'public',
};
const implicitLocale: LocaleInfo = { code: 'en', label: 'English', dir: 'ltr', default: true };

/**
 * The same layout with some versions removed, keeping the default version. A set resolves a
 * viewer's URLs against the versions that viewer may see, so a private version answers exactly as
 * if the manifest did not declare it.
 */
export function restrictVersions(layout: UrlLayout, visible: (version: VersionInfo) => boolean): UrlLayout {
  return {
    ...layout,
    versions: layout.versions.filter((version) => version.id === layout.defaultVersion || visible(version)),
  };
}

/**
 * Reads a request path (with the set prefix, without query or fragment) as a page address.
 *
 * Segments are read left to right: after the prefix, a segment equal to a version id is the version
 * (versioned sets only); the next segment equal to a locale code is the locale; the rest is the page
 * path. A last segment ending in `.md` asks for the Markdown twin, and `index.md` right after the
 * version/locale root is the landing page's twin. A URL naming no path is the landing page.
 * A trailing slash is never a page: it answers `slash` with the canonical location.
 *
 * @example
 * parseSetUrl('/docs/12.x/ar/routing.md', layout);
 * // { kind: 'page', version: '12.x', locale: 'ar', path: 'routing', markdown: true, ... }
 */
export function parseSetUrl(pathname: string, layout: UrlLayout): ParsedSetUrl {
  const { prefix } = layout;
  if (prefix !== '' && pathname !== prefix && !pathname.startsWith(`${prefix}/`)) return { kind: 'outside' };
  if (!pathname.startsWith('/')) return { kind: 'outside' };
  const rest = pathname.slice(prefix.length);

  if (rest.length > 1 && rest.endsWith('/')) {
    const location = pathname.replace(/\/+$/, '');
    return location === '' ? { kind: 'invalid' } : { kind: 'slash', location };
  }
  if (prefix !== '' && rest === '/') return { kind: 'slash', location: prefix };

  const raw = rest === '' || rest === '/' ? [] : rest.slice(1).split('/');
  const segments: string[] = [];
  for (const segment of raw) {
    const decoded = decodeSegment(segment);
    if (decoded === null) return { kind: 'invalid' };
    segments.push(decoded);
  }

  let index = 0;
  let version = layout.defaultVersion;
  let locale = layout.defaultLocale;
  let explicitVersion = false;
  let explicitLocale = false;
  if (layout.versioned && index < segments.length && layout.versions.some((v) => v.id === segments[index])) {
    version = segments[index]!;
    explicitVersion = true;
    index += 1;
  }
  if (index < segments.length && layout.locales.some((l) => l.code === segments[index])) {
    locale = segments[index]!;
    explicitLocale = true;
    index += 1;
  }

  const pathSegments = segments.slice(index);
  let markdown = false;
  const last = pathSegments.length - 1;
  if (last >= 0 && pathSegments[last]!.endsWith('.md')) {
    markdown = true;
    pathSegments[last] = pathSegments[last]!.slice(0, -'.md'.length);
    if (pathSegments[last] === '') return { kind: 'invalid' };
  }

  const root = pathSegments.length === 0 || (markdown && pathSegments.length === 1 && pathSegments[0] === 'index');
  const path = root ? layout.landing : pathSegments.join('/');
  return { kind: 'page', version, locale, path, markdown, explicitVersion, explicitLocale, root };
}

/**
 * A site-absolute link to a page of this set in its canonical form, the one `pageUrl`, the sitemap
 * and `llms.txt` use: a version or locale segment naming the default is dropped, so one page is
 * linked under one URL (`/laravel/13.x/queues` and `/laravel/queues` are the same page when 13.x
 * is the default). Links outside the set, to files, to Markdown twins or to other versions are
 * returned unchanged; the query and fragment are kept.
 *
 * @example
 * canonicalPageLink('/laravel/13.x/queues#retries', layout); // '/laravel/queues#retries' (13.x default)
 * canonicalPageLink('/laravel/12.x/queues', layout); // '/laravel/12.x/queues'
 */
export function canonicalPageLink(url: string, layout: UrlLayout): string {
  const cut = url.search(/[?#]/);
  const path = cut === -1 ? url : url.slice(0, cut);
  const parsed = parseSetUrl(path, layout);
  if (parsed.kind !== 'page' || parsed.markdown || !(parsed.explicitVersion || parsed.explicitLocale)) return url;
  if (!parsed.root && looksLikeFile(parsed.path)) return url;
  const canonical = pageUrl(layout, parsed);
  return canonical === path ? url : `${canonical}${cut === -1 ? '' : url.slice(cut)}`;
}

/** A percent-decoded URL segment, or null when no page path may contain it. */
function decodeSegment(segment: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return null;
  }
  if (decoded === '' || decoded === '.' || decoded === '..') return null;
  if (/[/\\\u0000]/.test(decoded)) return null;
  return decoded;
}

/**
 * A clean page path (`guides/intro`) from what a person may type: leading/trailing slashes and a
 * `.md` ending removed. Null when it cannot be a page path (empty, `.`/`..` segments, backslashes).
 */
export function cleanPagePath(input: string): string | null {
  const trimmed = input.trim().replace(/^\/+|\/+$/g, '');
  const withoutExtension = trimmed.endsWith('.md') ? trimmed.slice(0, -'.md'.length) : trimmed;
  if (withoutExtension === '') return null;
  const segments = withoutExtension.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..' || /[\\\u0000]/.test(segment))) {
    return null;
  }
  return segments.join('/');
}

/** `/{prefix}/{version}/{locale}` with the default version and locale left out. */
export function rootUrl(layout: UrlLayout, target: Omit<UrlTarget, 'path'>): string {
  let url = layout.prefix;
  if (layout.versioned && target.version !== layout.defaultVersion) url += `/${encodeSegment(target.version)}`;
  if (target.locale !== layout.defaultLocale) url += `/${encodeSegment(target.locale)}`;
  return url === '' ? '/' : url;
}

/**
 * The canonical site URL path of a page: the landing page is the version (and locale) root, a
 * folder's `index` page is the folder, and the default version and locale carry no segment.
 *
 * @example
 * pageUrl(layout, { version: '13.x', locale: 'en', path: 'routing' }); // '/docs/routing' (13.x default)
 * pageUrl(layout, { version: '12.x', locale: 'ar', path: 'installation' }); // '/docs/12.x/ar' (landing)
 */
export function pageUrl(layout: UrlLayout, target: UrlTarget): string {
  const root = rootUrl(layout, target);
  if (target.path === layout.landing) return root;
  const path = target.path.endsWith('/index') ? target.path.slice(0, -'/index'.length) : target.path;
  return joinUrl(root, path);
}

/**
 * The URL path of a page's Markdown twin: the page URL plus `.md`, the landing page's twin is
 * `index.md` under the root, and a folder's `index` page keeps `/index.md`.
 *
 * @example
 * markdownUrl(layout, { version: '12.x', locale: 'en', path: 'routing' }); // '/docs/12.x/routing.md'
 * markdownUrl(layout, { version: '13.x', locale: 'en', path: 'installation' }); // '/docs/index.md' (landing)
 */
export function markdownUrl(layout: UrlLayout, target: UrlTarget): string {
  const root = rootUrl(layout, target);
  if (target.path === layout.landing) return joinUrl(root, 'index.md');
  return `${joinUrl(root, target.path)}.md`;
}

/**
 * The page paths a parsed URL may name, in the order a set looks for them: the path itself, then
 * the folder's `index` page (`/docs/guides` serves `guides/index` when there is no `guides` page).
 */
export function candidatePaths(parsed: { path: string; root: boolean }): string[] {
  if (parsed.root || parsed.path === 'index' || parsed.path.endsWith('/index')) return [parsed.path];
  return [parsed.path, `${parsed.path}/index`];
}

function joinUrl(root: string, path: string): string {
  const encoded = path.split('/').map(encodeSegment).join('/');
  return root === '/' ? `/${encoded}` : `${root}/${encoded}`;
}

function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/%40/g, '@').replace(/%3A/gi, ':');
}

/**
 * The folder of one version and locale inside a set's content, relative to the set folder (`''` is
 * the set folder): the version's folder on a versioned set (`13.x`), then the locale's subfolder
 * for a locale other than the default (`13.x/ar`). Pages and the files beside them live there, in
 * a repository set's folder and under a database set's asset names alike.
 *
 * @example
 * contentFolder({ versioned: true, defaultLocale: 'en' }, '13.x', 'ar'); // '13.x/ar'
 * contentFolder({ versioned: false, defaultLocale: 'en' }, 'current', 'en'); // ''
 */
export function contentFolder(
  scope: Pick<UrlLayout, 'versioned' | 'defaultLocale'>,
  version: string,
  locale: string,
): string {
  const parts: string[] = [];
  if (scope.versioned) parts.push(version);
  if (locale !== scope.defaultLocale) parts.push(locale);
  return parts.join('/');
}

/**
 * The names a static file of one version and locale is looked for under, relative to the set
 * folder: beside that locale's pages, then (for a locale other than the default) beside the
 * default locale's pages of the same version, so a translation shares the original's images.
 *
 * @example
 * fileCandidates(layout, { version: '13.x', locale: 'ar', path: 'img/flow.png' });
 * // ['13.x/ar/img/flow.png', '13.x/img/flow.png']
 */
export function fileCandidates(layout: Pick<UrlLayout, 'versioned' | 'defaultLocale'>, target: UrlTarget): string[] {
  const join = (folder: string) => (folder === '' ? target.path : `${folder}/${target.path}`);
  const own = join(contentFolder(layout, target.version, target.locale));
  if (target.locale === layout.defaultLocale) return [own];
  return [own, join(contentFolder(layout, target.version, layout.defaultLocale))];
}

/**
 * The site URL path of a static file beside a version's pages: the page URL space of that version
 * and locale plus the file's path, as written (no landing or `index` folding).
 *
 * @example
 * fileUrl(layout, { version: '12.x', locale: 'en', path: 'img/flow.png' }); // '/docs/12.x/img/flow.png'
 */
export function fileUrl(layout: UrlLayout, target: UrlTarget): string {
  return joinUrl(rootUrl(layout, target), target.path);
}

/**
 * Resolves a file link written in a page (`./img/flow.png`, `../downloads/guide.pdf`) against the
 * page's folder, percent-decoded; no `.md` or `index` folding, since it names a file. Null when it
 * climbs out of the version's folder.
 *
 * @example
 * resolveFilePath('guides/index', './flow.png'); // 'guides/flow.png'
 */
export function resolveFilePath(fromPage: string, target: string): string | null {
  let decoded = target;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    // Not valid percent-encoding (`100%.png`): read as written.
  }
  const segments = fromPage.split('/').slice(0, -1);
  for (const part of decoded.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (segments.length === 0) return null;
      segments.pop();
    } else segments.push(part);
  }
  return segments.length === 0 ? null : segments.join('/');
}
