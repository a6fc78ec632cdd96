import { createHash } from 'node:crypto';
import {
  createUrlLayout,
  type DocSet,
  type InsertPoint,
  type Kit,
  type NavEntry,
  type NavGroup,
  type NavigationFile,
  type NormalizedManifest,
  type PageRef,
  type PageView,
  parseSetUrl,
  type SourcePage,
  type Viewer,
} from '@kit/core';
import { MANIFEST_DEFAULTS, mcpEndpointPath, nearestPages } from '@kit/core/internal';
import type {
  ReaderLink,
  ReaderNavItem,
  ReaderNavListing,
  ReaderNavPageView,
  ReaderNotFoundView,
  ReaderPageView,
  ReaderSearchHit,
  ReaderSearchPageView,
  ReaderSidebar,
  ReaderSiteView,
  ReaderStrings,
} from '@kit/render';
import { analyticsForSet, INSERT_POINTS, readerTranslation, renderInsert } from '@kit/render';
import { navigationUrl } from './nav-listing.js';

/** What the routes know about the request and the set's served files. */
export interface ViewContext {
  kit: Kit;
  set: DocSet;
  viewer: Viewer;
  /** `/docs`, or `''` for a root-mounted set. */
  base: string;
  /** Request origin, for canonical URLs. */
  origin: string;
  assets: { js: string; css: string };
  /** URLs of the set's own stylesheets (`assets.css`), content-hashed. */
  stylesheets: string[];
  /** The manifest's logo and favicon as served URLs; absent ones are not shown. */
  branding?: { logo?: { light: string; dark: string }; favicon?: string };
  /** True when Ask AI can answer on this server (`ai.ask.enabled` and the optional package installed). */
  askAvailable?: boolean;
}

/** The page and version/locale the view is for. */
interface Place {
  version: string;
  locale: string;
  path: string | null;
}

/**
 * Builds the reader view model of one page: chrome from the manifest, sidebar from the navigation
 * the viewer may see, switchers that keep the reader on the same page where it exists.
 */
export async function readerPageView(context: ViewContext, page: PageView): Promise<ReaderPageView> {
  const place = { version: page.ref.version, locale: page.ref.locale, path: page.ref.path };
  const site = await siteView(context, place, page.page);
  const order = keptOrderOf(site.sidebar.groups);
  const index = order.findIndex((entry) => entry.path === page.ref.path);
  const manifest = await context.set.manifest();
  const provenance = manifest.provenance ? page.page.provenance : undefined;
  return {
    ...site,
    page: {
      title: page.page.title,
      ...(page.page.description ? { description: page.page.description } : {}),
      path: page.ref.path,
      url: page.url,
      canonicalUrl: context.origin + page.url,
      markdownUrl: page.markdownUrl,
      html: page.rendered.html,
      toc: page.rendered.toc,
      ...(page.page.editUrl ? { editUrl: page.page.editUrl } : {}),
      provenance: provenance ?? null,
      ...(index >= 0 && order[index]!.group ? { group: order[index]!.group } : {}),
      ...(index > 0 ? { prev: { label: order[index - 1]!.title, href: order[index - 1]!.url } } : {}),
      ...(index >= 0 && index < order.length - 1
        ? { next: { label: order[index + 1]!.title, href: order[index + 1]!.url } }
        : {}),
      ...(await pageActionsFor(context, manifest, page)),
      ...(page.highlightPending ? { highlightPending: true } : {}),
    },
  };
}

const GUEST: Viewer = { user: null };

/**
 * The page actions `pageActions` asks for, as far as they can work for this page: chat assistants
 * fetch the Markdown URL themselves, so only a page a guest may read offers them; an editor
 * connects to the web MCP endpoint, so only a set whose endpoint is on offers that.
 */
async function pageActionsFor(
  context: ViewContext,
  manifest: NormalizedManifest,
  page: PageView,
): Promise<{ actions?: ReaderPageView['page']['actions'] }> {
  const wanted = new Set(manifest.pageActions);
  if (wanted.size === 0 || !page.markdownUrl) return {};
  const markdownUrl = context.origin + page.markdownUrl;
  const assistants = (['chatgpt', 'claude'] as const).filter((name) => wanted.has(name));
  const publicPage = assistants.length > 0 && (await context.set.canView(GUEST, page.ref).catch(() => false));
  const web = context.set.config.mcp.web;
  const mcp =
    wanted.has('editor') && web.enabled
      ? { name: context.set.key, url: context.origin + mcpEndpointPath(context.base, web.path) }
      : undefined;
  const actions = {
    markdownUrl,
    copy: wanted.has('copy'),
    markdown: wanted.has('markdown'),
    assistants: publicPage ? assistants : [],
    ...(mcp ? { mcp } : {}),
  };
  if (!actions.copy && !actions.markdown && actions.assistants.length === 0 && !mcp) return {};
  return { actions };
}

/**
 * What of a page's reader view depends on who reads it, as a short key: two viewers with the same
 * key are shown the same page, so a finished page can be kept per key rather than rendered for
 * every signed-in request. It names every answer {@link siteView} asks the set for the viewer: the
 * versions they may see, the pages they may see in the page's version and locale (the sidebar,
 * previous and next), and where the version and language switchers lead (the same page where they
 * may see it there). Keep the two in step: a viewer-dependent input siteView reads and this key
 * leaves out would hand one reader's page to another.
 */
export async function viewerClassOf(set: DocSet, viewer: Viewer, ref: PageRef): Promise<string> {
  const place = { version: ref.version, locale: ref.locale };
  const [versions, locales, pages] = await Promise.all([
    set.versions(viewer),
    set.locales(),
    set.visiblePages(place, viewer),
  ]);
  // The page itself, which the viewer is reading, needs no asking.
  const canView = (version: string, locale: string) =>
    version === ref.version && locale === ref.locale
      ? true
      : set.canView(viewer, { version, locale, path: ref.path }).catch(() => false);
  const [inVersions, inLocales] = await Promise.all([
    Promise.all(versions.map((version) => canView(version.id, ref.locale))),
    Promise.all(locales.map((locale) => canView(ref.version, locale.code))),
  ]);
  const flags = (answers: boolean[]) => answers.map((yes) => (yes ? '1' : '0')).join('');
  return `${versions.map((version) => version.id).join('\u0000')}\u0001${pagesKey(pages)}\u0001${flags(inVersions)}\u0001${flags(inLocales)}`;
}

/**
 * The pages a viewer may see, as a hash of their paths in order. A viewer who may see every page of
 * a place is handed the set's kept list itself (see the set's `visiblePages`), so the hash is made
 * once per list, not once per request.
 */
const pagesKeys = new WeakMap<readonly SourcePage[], string>();
function pagesKey(pages: readonly SourcePage[]): string {
  let key = pagesKeys.get(pages);
  if (key === undefined) {
    key = createHash('sha1')
      .update(JSON.stringify(pages.map((page) => page.path)))
      .digest('base64url');
    pagesKeys.set(pages, key);
  }
  return key;
}

/**
 * The view model of the 404 page, in the set's default version and locale. A reader the set
 * refuses altogether (a `gate` set whose `viewKit` says no) sees no version at all: the page keeps
 * the site's frame but lists no navigation and no versions, exactly as for a set with nothing in it.
 */
export async function readerNotFoundView(context: ViewContext, requestedPath: string): Promise<ReaderNotFoundView> {
  const versions = await context.set.versions(context.viewer);
  const locales = await context.set.locales();
  const layout = createUrlLayout(context.set.config.route.prefix, await context.set.manifest());
  // A reader lost inside a version or language stays in it: its switcher, sidebar and search.
  const asked = parseSetUrl(requestedPath, layout);
  const askedVersion = asked.kind === 'page' ? versions.find((candidate) => candidate.id === asked.version) : undefined;
  const askedLocale = asked.kind === 'page' ? locales.find((candidate) => candidate.code === asked.locale) : undefined;
  const locale = (askedLocale ?? locales.find((candidate) => candidate.default) ?? locales[0])?.code ?? 'en';
  const visible = askedVersion ?? versions.find((candidate) => candidate.default) ?? versions[0];
  if (!visible) {
    const site = await siteView(context, { version: layout.defaultVersion, locale, path: null }, null, false);
    return { ...site, requestedPath };
  }
  const site = await siteView(context, { version: visible.id, locale, path: null }, null);
  // The path as the set reads it (`eloquent-relationshipz`). A version the reader may not see is
  // read as part of the path, as a version that does not exist is: suggestions must not tell a
  // guest that `/docs/4.x` is a private version rather than nothing.
  const wanted =
    asked.kind === 'page' && askedVersion ? asked.path : requestedPath.slice(context.base.length).replace(/^\/+/, '');
  const pages = await context.set.visiblePages({ version: visible.id, locale }, context.viewer);
  const near = nearestPages(wanted, pages, 5);
  const suggestions = await Promise.all(
    near.map(async (page) => ({
      label: page.title,
      href: await context.set.pageUrl({ version: visible.id, locale, path: page.path }),
    })),
  );
  return { ...site, requestedPath, ...(suggestions.length > 0 ? { suggestions } : {}) };
}

/**
 * The view model of the server-rendered search page: the site's frame in the version and locale
 * searched, and the hits the reader may see (`set.search` already filters them for the viewer).
 */
export async function readerSearchView(
  context: ViewContext,
  place: { version: string; locale: string },
  query: string,
  results: ReaderSearchHit[],
): Promise<ReaderSearchPageView> {
  const site = await siteView(context, { ...place, path: null }, null);
  return { ...site, query, results, searchAction: `${context.base}/_kit/search` };
}

/**
 * The view model of a navigation page: the site's frame in the version and locale listed (no page
 * is current), the listing, and the links to its previous and next pages of entries.
 */
export async function readerNavPageView(
  context: ViewContext,
  place: { version: string; locale: string },
  listing: ReaderNavListing,
  pager: { previousUrl?: string; nextUrl?: string },
): Promise<ReaderNavPageView> {
  const site = await siteView(context, { ...place, path: null }, null);
  return { ...site, listing, ...pager };
}

/** `readable` false: the viewer may see no version, so no navigation, pages or versions are asked for. */
async function siteView(
  context: ViewContext,
  place: Place,
  page: SourcePage | null,
  readable = true,
): Promise<ReaderSiteView> {
  const { set, viewer, kit } = context;
  const manifest = await set.manifest();
  const [versions, locales, navigation, pages] = await Promise.all([
    readable ? set.versions(viewer) : [],
    set.locales(),
    readable ? set.navigation({ version: place.version, locale: place.locale }, viewer) : null,
    readable ? set.visiblePages({ version: place.version, locale: place.locale }, viewer) : [],
  ]);
  const locale = locales.find((candidate) => candidate.code === place.locale) ?? locales[0]!;
  const homeUrl = await set.pageUrl({ version: place.version, locale: place.locale, path: manifest.landing });

  const versionLinks = await Promise.all(
    versions.map(async (version) => ({
      id: version.id,
      label: version.label,
      status: version.status,
      default: version.default,
      url: await samePageUrl(
        set,
        viewer,
        version.id,
        place.locale,
        place.path,
        manifest.landing,
        defaultLocaleOf(manifest),
      ),
    })),
  );
  const localeLinks = await Promise.all(
    locales.map(async (entry) => ({
      code: entry.code,
      label: entry.label,
      dir: entry.dir,
      url: await samePageUrl(set, viewer, place.version, entry.code, place.path, manifest.landing),
    })),
  );

  const config = set.config;
  const driver = config.search.driver;
  const site: ReaderSiteView = {
    set: set.key,
    name: manifest.name,
    ...(manifest.description ? { description: manifest.description } : {}),
    ...(context.branding?.logo ? { logo: context.branding.logo } : {}),
    ...(context.branding?.favicon ? { favicon: context.branding.favicon } : {}),
    homeUrl,
    baseUrl: context.base,
    lang: locale.code,
    dir: locale.dir,
    ...interfaceStrings(manifest.strings, locale.code),
    navbar: {
      links: manifest.navbar.links.map((link) => ({ label: link.label, href: link.href })),
      ...(manifest.navbar.cta ? { cta: manifest.navbar.cta } : {}),
    },
    ...(manifest.repository?.url ? { repositoryUrl: manifest.repository.url } : {}),
    sidebar: navigation
      ? { ...(await keptSidebarFor(set, navigation.file, place, pages)), navUrl: navigationUrl(context.base, place) }
      : { groups: [] },
    footer: {
      links: manifest.footer.links,
      ...(manifest.footer.text ? { text: manifest.footer.text } : {}),
      credit: manifest.credit,
    },
    versions: versionLinks,
    currentVersion: place.version,
    locales: localeLinks,
    currentLocale: place.locale,
    inserts: await insertsFor(manifest, page),
    ask: config.ai.ask.enabled && context.askAvailable ? { endpoint: `${context.base}/_kit/ask` } : null,
    feedback: config.feedback.enabled
      ? { enabled: true, endpoint: `${context.base}/_kit/feedback` }
      : { enabled: false },
    search: {
      driver,
      serverSearchUrl: `${context.base}/_kit/search`,
      ...(driver === 'client'
        ? {
            clientIndexUrl: `${context.base}/_kit/search-index/${encodeURIComponent(place.version)}/${encodeURIComponent(place.locale)}.json`,
          }
        : {}),
    },
    analytics: analyticsForSet({
      source: set.source.kind,
      manifest: manifest.integrations.analytics ?? null,
      config: config.integrations.analytics ?? null,
    }),
    theme: manifest.theme,
    stylesheets: context.stylesheets,
    assets: { js: context.assets.js, css: context.assets.css, devServer: kit.config.ui.dev_server },
    ...(config.agents.llms_txt ? { llmsTxtUrl: `${homeUrl === '/' ? '' : homeUrl}/llms.txt` } : {}),
    freshDays: kit.config.ui.fresh_days,
  };
  return readable ? site : anonymousSite(site);
}

/** What a reader the set refuses altogether is shown in place of the set's name. */
export const REFUSED_SITE_NAME = 'Documentation';

/**
 * The frame of a page for a reader who may see no version of the set: nothing the manifest says
 * (name, description, logo, links, footer text, inserts, analytics, theme) that the reader could
 * not read anyway, so a gated set does not tell a refused reader whose docs it holds.
 */
function anonymousSite(site: ReaderSiteView): ReaderSiteView {
  const {
    description: _description,
    logo: _logo,
    favicon: _favicon,
    repositoryUrl: _repositoryUrl,
    inserts: _inserts,
    analytics: _analytics,
    stylesheets: _stylesheets,
    llmsTxtUrl: _llmsTxtUrl,
    ...rest
  } = site;
  return {
    ...rest,
    name: REFUSED_SITE_NAME,
    navbar: { links: [] },
    footer: { links: [], credit: site.footer.credit },
    theme: { radius: MANIFEST_DEFAULTS.theme.radius, mode: MANIFEST_DEFAULTS.theme.mode, fonts: {} },
    feedback: { enabled: false },
    search: null,
    ask: null,
  };
}

/**
 * The same page in another version or locale when the viewer may see it there, else that version's
 * landing page. Asks for that one page rather than listing the other version's pages, so the first
 * page a server renders does not read every page of every version.
 */
async function samePageUrl(
  set: DocSet,
  viewer: Viewer,
  version: string,
  locale: string,
  path: string | null,
  landing: string,
  defaultLocale: string = locale,
): Promise<string> {
  const opens = (inLocale: string, page: string) =>
    set.canView(viewer, { version, locale: inLocale, path: page }).catch(() => false);
  if (path !== null && (await opens(locale, path))) return set.pageUrl({ version, locale, path });
  if (locale === defaultLocale || (await opens(locale, landing)))
    return set.pageUrl({ version, locale, path: landing });
  // The version has no pages in this locale (its folder is missing): its default locale, same page
  // when it has one, rather than a link that answers 404.
  if (path !== null && (await opens(defaultLocale, path))) {
    return set.pageUrl({ version, locale: defaultLocale, path });
  }
  return set.pageUrl({ version, locale: defaultLocale, path: landing });
}

/**
 * Sidebars made, by the navigation and the page list they were made from. A viewer who may see
 * every page is handed the same navigation and list objects as every such viewer until the content
 * changes (see the set's `navigation` and `visiblePages`), so their sidebar is made once per change
 * instead of on every request; a viewer who sees less gets objects of their own, and a sidebar of
 * their own, dropped with them.
 */
const keptSidebars = new WeakMap<NavigationFile, WeakMap<readonly SourcePage[], Map<string, Promise<ReaderSidebar>>>>();

/** {@link sidebarFor}, kept by its inputs (the version, locale and, for tabs, the page decide the rest). */
function keptSidebarFor(
  set: DocSet,
  file: NavigationFile,
  place: Place,
  pages: readonly SourcePage[],
): Promise<ReaderSidebar> {
  let byPages = keptSidebars.get(file);
  if (!byPages) {
    byPages = new WeakMap();
    keptSidebars.set(file, byPages);
  }
  let byPlace = byPages.get(pages);
  if (!byPlace) {
    byPlace = new Map();
    byPages.set(pages, byPlace);
  }
  const places = byPlace;
  // A tabbed sidebar shows the tab of the page read: kept per page then.
  const key = `${place.version}\u0000${place.locale}\u0000${'tabs' in file ? (place.path ?? '') : ''}`;
  let sidebar = places.get(key);
  if (!sidebar) {
    sidebar = sidebarFor(set, file, place, new Map(pages.map((entry) => [entry.path, entry])));
    places.set(key, sidebar);
    sidebar.catch(() => places.delete(key));
  }
  return sidebar;
}

/** {@link flattenSidebar}, kept by the sidebar's groups (the same array while the sidebar is kept). */
const keptOrders = new WeakMap<ReaderSidebar['groups'], ReturnType<typeof flattenSidebar>>();
function keptOrderOf(groups: ReaderSidebar['groups']): ReturnType<typeof flattenSidebar> {
  let order = keptOrders.get(groups);
  if (!order) {
    order = flattenSidebar({ groups });
    keptOrders.set(groups, order);
  }
  return order;
}

async function sidebarFor(
  set: DocSet,
  file: NavigationFile,
  place: Place,
  pages: Map<string, SourcePage>,
): Promise<ReaderSidebar> {
  // Each group is keyed by where it sits in the file (`1.4`), as the navigation pages find it.
  const item = async (entry: NavEntry, id: string): Promise<ReaderNavItem | null> => {
    if (typeof entry === 'string' || 'path' in entry) {
      const path = typeof entry === 'string' ? entry : entry.path;
      const page = pages.get(path);
      if (!page) return null;
      const title = (typeof entry === 'string' ? undefined : entry.title) ?? page.title;
      const updatedAt = page.updatedAt ?? page.provenance?.date;
      return {
        kind: 'page',
        title,
        path,
        url: await set.pageUrl({ version: place.version, locale: place.locale, path }),
        ...(updatedAt ? { updatedAt } : {}),
      };
    }
    if ('href' in entry) return { kind: 'link', label: entry.label, href: entry.href };
    const items = await itemsOf(entry.pages, id);
    return items.length > 0 ? { kind: 'group', label: entry.label, items, id } : null;
  };
  const itemsOf = async (entries: NavEntry[], id: string) =>
    (await Promise.all(entries.map((entry, index) => item(entry, `${id}.${index}`)))).filter(
      (child): child is ReaderNavItem => child !== null,
    );
  const groupsOf = async (groups: NavGroup[], tab?: number) =>
    (
      await Promise.all(
        groups.map(async (group, index) => {
          const id = tab === undefined ? String(index) : `${tab}.${index}`;
          return { label: group.label, items: await itemsOf(group.pages, id), id };
        }),
      )
    ).filter((group) => group.items.length > 0);

  if ('groups' in file) return { groups: await groupsOf(file.groups) };
  const tabs = await Promise.all(
    file.tabs.map(async (tab, index) => ({ label: tab.label, groups: await groupsOf(tab.groups, index) })),
  );
  const visibleTabs = tabs.filter((tab) => tab.groups.length > 0);
  const active =
    visibleTabs.find(
      (tab) => place.path !== null && tab.groups.some((group) => containsPath(group.items, place.path!)),
    ) ?? visibleTabs[0];
  return {
    tabs: visibleTabs.map((tab) => ({
      label: tab.label,
      url: firstPageUrl(tab.groups) ?? '#',
      active: tab === active,
    })),
    groups: active?.groups ?? [],
  };
}

function containsPath(items: ReaderNavItem[], path: string): boolean {
  return items.some((entry) =>
    entry.kind === 'page' ? entry.path === path : entry.kind === 'group' ? containsPath(entry.items, path) : false,
  );
}

function firstPageUrl(groups: Array<{ items: ReaderNavItem[] }>): string | null {
  for (const group of groups) {
    for (const entry of group.items) {
      if (entry.kind === 'page') return entry.url;
      if (entry.kind === 'group') {
        const nested = firstPageUrl([entry]);
        if (nested) return nested;
      }
    }
  }
  return null;
}

/**
 * Sidebar pages in reading order, with their top-level group, for previous/next links: from the
 * whole navigation the viewer may see, never from the bounded sidebar a page shows.
 */
function flattenSidebar(sidebar: ReaderSidebar): Array<{ path: string; title: string; url: string; group: string }> {
  const out: Array<{ path: string; title: string; url: string; group: string }> = [];
  // A page listed twice counts once, at its first place: a set, not a scan of `out` per page.
  const seen = new Set<string>();
  const walk = (items: ReaderNavItem[], group: string) => {
    for (const entry of items) {
      if (entry.kind === 'page' && !seen.has(entry.path)) {
        seen.add(entry.path);
        out.push({ path: entry.path, title: entry.title, url: entry.url, group });
      } else if (entry.kind === 'group') walk(entry.items, group);
    }
  };
  for (const group of sidebar.groups) walk(group.items, group.label);
  return out;
}

async function insertsFor(
  manifest: NormalizedManifest,
  page: SourcePage | null,
): Promise<Partial<Record<InsertPoint, string>>> {
  const out: Partial<Record<InsertPoint, string>> = {};
  for (const point of INSERT_POINTS) {
    if (!manifest.inserts[point]?.length) continue;
    const { html } = await renderInsert(point, {
      inserts: manifest.inserts,
      ...(page ? { frontmatter: page.frontmatter, pagePath: page.path } : {}),
    });
    if (html) out[point] = html;
  }
  return out;
}

export type { ReaderLink };

/**
 * The interface strings of a page in `lang`: Kit's translation for the language, then what the
 * set writes for that locale in `kit.json` (`strings`), which wins string by string. Strings
 * neither gives stay English (the layout marks them as English on a page in another language).
 */
function interfaceStrings(
  written: Record<string, Record<string, string>> | undefined,
  lang: string,
): Pick<ReaderSiteView, 'strings' | 'stringsLang'> {
  const translation = readerTranslation(lang);
  const own = written?.[lang] ?? {};
  if (!translation && Object.keys(own).length === 0) return {};
  return {
    strings: { ...translation?.strings, ...(own as Partial<ReaderStrings>) },
    stringsLang: lang,
  };
}

/** The locale served without a locale segment: the one marked `default`, else the first. */
function defaultLocaleOf(manifest: { locales: ReadonlyArray<{ code: string; default?: boolean }> }): string {
  return (manifest.locales.find((entry) => entry.default) ?? manifest.locales[0])?.code ?? 'en';
}
