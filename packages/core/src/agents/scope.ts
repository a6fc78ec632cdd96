import { KitError } from '../errors/kit-error.js';
import type { LocaleInfo, NormalizedManifest, SourcePage, VersionInfo } from '../model/types.js';
import type { DocSet, PageListing, Viewer } from '../ports/docset.js';
import { createUrlLayout, markdownUrl, pageUrl, rootUrl, type UrlLayout } from '../urls/set-urls.js';

/** Which version and locale an agent file covers; each defaults to the set's default. */
export interface AgentFileScope {
  version?: string;
  locale?: string;
}

/** Options every agent-file builder takes. */
export interface AgentFileOptions extends AgentFileScope {
  /** Absolute origin for every URL in the file, e.g. `https://example.com` (the request's, or the set's). */
  origin: string;
}

/** One file of an agent-file bundle. */
export interface AgentFile {
  /** URL path the file is served at, e.g. `/docs/12.x/llms/the-basics.txt`. */
  path: string;
  text: string;
}

/** A page as agent files list it. */
export interface AgentPageEntry {
  path: string;
  title: string;
  description: string | null;
  /** Absolute site URL. */
  url: string;
  /** Absolute Markdown twin URL. */
  markdownUrl: string;
}

/** A navigation group of visible pages; every page is in exactly one group. */
export interface AgentPageGroup {
  label: string;
  tab?: string;
  pages: AgentPageEntry[];
}

/** Label of the group that collects visible pages the navigation does not list. */
export const UNLISTED_GROUP_LABEL = 'Other pages';

/** Everything a builder needs about one version and locale, as one viewer sees it. */
export interface AgentScope {
  set: DocSet;
  viewer: Viewer;
  origin: string;
  manifest: NormalizedManifest;
  layout: UrlLayout;
  version: VersionInfo;
  locale: LocaleInfo;
  /** Versions the viewer may see. */
  versions: VersionInfo[];
  locales: LocaleInfo[];
  /** True when this is the default version and locale (the root `llms.txt`). */
  isDefault: boolean;
}

/** Removes a trailing slash so `origin + path` is a well-formed URL. */
export function cleanOrigin(origin: string): string {
  return origin.trim().replace(/\/+$/, '');
}

/** The URL layout of a set (prefix and manifest), as the set's own URLs use it. */
export async function layoutOf(set: DocSet): Promise<{ manifest: NormalizedManifest; layout: UrlLayout }> {
  const manifest = await set.manifest();
  return { manifest, layout: createUrlLayout(set.config.route.prefix, manifest) };
}

/**
 * The URL path of an agent file of one version and locale: the scope's root plus `name`.
 *
 * @example
 * agentFilePath(layout, { version: '12.x', locale: 'ar' }, 'llms.txt'); // '/docs/12.x/ar/llms.txt'
 * agentFilePath(layout, { version: '13.x', locale: 'en' }, 'llms.txt'); // '/docs/llms.txt' (defaults)
 */
export function agentFilePath(layout: UrlLayout, scope: { version: string; locale: string }, name: string): string {
  const root = rootUrl(layout, scope);
  return `${root === '/' ? '' : root}/${name}`;
}

/** The URL path of a set-level agent file (`skill.md`, `sitemap.xml`, `skills/<name>.md`). */
export function setFilePath(layout: UrlLayout, name: string): string {
  return `${layout.prefix}/${name}`;
}

/**
 * Resolves the version and locale an agent file covers for a viewer. A version the viewer may not
 * see answers `version.not_found`, exactly as a version that does not exist.
 */
export async function resolveAgentScope(set: DocSet, viewer: Viewer, options: AgentFileOptions): Promise<AgentScope> {
  const { manifest, layout } = await layoutOf(set);
  const versions = await set.versions(viewer);
  const versionId = options.version?.trim() || layout.defaultVersion;
  const version = versions.find((candidate) => candidate.id === versionId);
  if (!version) {
    throw new KitError('version.not_found', `No version "${versionId}" in the "${set.key}" docs for you.`, {
      details: { version: versionId },
    });
  }
  const localeCode = options.locale?.trim() || layout.defaultLocale;
  const locale = layout.locales.find((candidate) => candidate.code === localeCode);
  if (!locale) {
    throw new KitError(
      'locale.not_found',
      `No locale "${localeCode}" in the "${set.key}" docs. Use one of: ${layout.locales.map((item) => item.code).join(', ')}.`,
      { details: { locale: localeCode } },
    );
  }
  return {
    set,
    viewer,
    origin: cleanOrigin(options.origin),
    manifest,
    layout,
    version,
    locale,
    versions,
    locales: layout.locales,
    isDefault: version.id === layout.defaultVersion && locale.code === layout.defaultLocale,
  };
}

/**
 * The visible pages of a scope grouped as the navigation shows them. A page listed in several
 * groups stays in the first; visible pages the navigation leaves out go to a last group
 * ({@link UNLISTED_GROUP_LABEL}), so every page the viewer may see is listed exactly once.
 */
export async function pageGroups(scope: AgentScope): Promise<AgentPageGroup[]> {
  return (await pageGroupsWithSources(scope)).groups;
}

/**
 * {@link pageGroups} with each listed page's source by path (its content hash and body), read from
 * the same listing, for builders that key what they keep on a page's text.
 */
export async function pageGroupsWithSources(scope: AgentScope): Promise<ScopePages> {
  const input = { version: scope.version.id, locale: scope.locale.code };
  const visible = await scope.set.visiblePages(input, scope.viewer);
  const kept = groupsByList.get(visible);
  if (kept && kept.manifest === scope.manifest && kept.origin === scope.origin) return kept.pages;
  const pages = groupVisiblePages(scope, await scope.set.listPages(input, scope.viewer), visible);
  groupsByList.set(visible, { manifest: scope.manifest, origin: scope.origin, pages });
  return pages;
}

/** The groups of a scope and each listed page's source by path. */
export interface ScopePages {
  groups: AgentPageGroup[];
  sources: Map<string, SourcePage>;
}

/**
 * The groups made from a visible-page list, kept by that list: a set that lets a viewer see every
 * page answers the same list object until its pages or navigation change (the listing is then made
 * anew), and the groups follow from that list, the navigation and the manifest (the URL layout) alone. A viewer who
 * sees only some pages gets a new list each time, so nothing is reused for them. At 100,000 pages
 * this spares each agent file about half a second of listing.
 */
const groupsByList = new WeakMap<SourcePage[], { manifest: NormalizedManifest; origin: string; pages: ScopePages }>();

function groupVisiblePages(scope: AgentScope, listing: PageListing, visible: SourcePage[]): ScopePages {
  const byPath = new Map(visible.map((page) => [page.path, page]));
  const placed = new Set<string>();
  const entry = (path: string, title: string, description: string | null): AgentPageEntry => {
    const target = { version: scope.version.id, locale: scope.locale.code, path };
    return {
      path,
      title,
      description,
      url: scope.origin + pageUrl(scope.layout, target),
      markdownUrl: scope.origin + markdownUrl(scope.layout, target),
    };
  };
  const groups: AgentPageGroup[] = [];
  for (const group of listing.groups) {
    const pages: AgentPageEntry[] = [];
    for (const page of group.pages) {
      if (placed.has(page.path) || !byPath.has(page.path)) continue;
      placed.add(page.path);
      pages.push(entry(page.path, page.title, page.description));
    }
    if (pages.length > 0)
      groups.push({ label: group.label, ...(group.tab !== undefined ? { tab: group.tab } : {}), pages });
  }
  const rest = visible.filter((page) => !placed.has(page.path));
  if (rest.length > 0) {
    groups.push({
      label: UNLISTED_GROUP_LABEL,
      pages: rest.map((page) => entry(page.path, page.title, page.description ?? null)),
    });
  }
  return { groups, sources: byPath };
}

/** A group's heading: its label, after its tab's label on a tabbed navigation. */
export function groupHeading(group: AgentPageGroup): string {
  return group.tab ? `${group.tab} / ${group.label}` : group.label;
}

/** The summary agent files open with: `agents.llmsTxt.description`, else `description`. */
export function summaryOf(manifest: NormalizedManifest): string | undefined {
  const text = manifest.agents.llmsTxt.description?.trim() || manifest.description?.trim();
  return text ? text.replace(/\s+/g, ' ') : undefined;
}

/** `agents.llmsTxt.instructions`, trimmed, or undefined. */
export function instructionsOf(manifest: NormalizedManifest): string | undefined {
  return manifest.agents.llmsTxt.instructions?.trim() || undefined;
}

/** The sentence a deprecated or archived version's files carry, or undefined. */
export function statusNote(scope: AgentScope, defaultLink: string): string | undefined {
  const { version } = scope;
  if (version.status !== 'deprecated' && version.status !== 'archived') return undefined;
  const what = version.status === 'deprecated' ? 'deprecated' : 'archived and no longer updated';
  const current = scope.layout.defaultVersion;
  return `**Version ${version.label} is ${what}.** Prefer the current version (${current}) unless you work on a project pinned to ${version.label}: ${defaultLink}`;
}

/** A short, single-line form of a page description for list items. */
export function oneLine(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}
