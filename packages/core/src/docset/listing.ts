import { KitError } from '../errors/kit-error.js';
import type { NavEntry, NavGroup, NavigationFile, SourcePage, VersionInfo } from '../model/types.js';
import { navigationPages } from '../navigation/pages.js';
import type { NavigationView, PageListing, Viewer } from '../ports/docset.js';
import type { Content, NavigationState } from './content.js';
import type { Scopes } from './scope.js';
import { pageTarget, pageVisibility, type ViewerAccess } from './viewer-access.js';

/** The pages of a scope as a viewer may see them: in navigation order, grouped, or as navigation. */
export interface Listing {
  /** Pages of a scope the viewer may see, navigation order first, then the rest by path. */
  visibleInOrder(viewer: Viewer, version: VersionInfo, locale: string): Promise<SourcePage[]>;
  listPages(input: { version?: string; locale?: string; group?: string }, viewer: Viewer): Promise<PageListing>;
  navigation(input: { version?: string; locale?: string }, viewer: Viewer): Promise<NavigationView>;
}

/** The listing part of a doc set. */
export function createListing(options: {
  set: string;
  content: Content;
  access: ViewerAccess;
  scopes: Scopes;
}): Listing {
  const { set, content, access, scopes } = options;
  const orders = new WeakMap<SourcePage[], { navigation: NavigationState; ordered: SourcePage[] }>();
  const privateInList = new WeakMap<SourcePage[], boolean>();
  const wholeNavigations = new WeakMap<SourcePage[], { state: NavigationState; navigation: NavigationView }>();

  /**
   * A scope's pages in navigation order, then the rest by path. Kept with the listing and the
   * navigation it was made from (both cached while watching), so a signed-in reader's sidebar does
   * not walk the navigation again.
   */
  function pagesInOrder(pages: SourcePage[], navigation: NavigationState): SourcePage[] {
    const known = orders.get(pages);
    if (known?.navigation === navigation) return known.ordered;
    const ordered = orderByNavigation(pages, navigation.file);
    orders.set(pages, { navigation, ordered });
    return ordered;
  }

  /** The navigation as a viewer who may see every listed page sees it, kept per listing and navigation. */
  function wholeNavigation(pages: SourcePage[], state: NavigationState): NavigationView {
    const known = wholeNavigations.get(pages);
    if (known?.state === state) return known.navigation;
    const paths = new Set(pages.map((page) => page.path));
    const navigation = { file: filterNavigation(state.file, (path) => paths.has(path)), derived: state.derived };
    wholeNavigations.set(pages, { state, navigation });
    return navigation;
  }

  /** Whether a list of pages holds a private one, found once per list. */
  function hasPrivatePage(pages: SourcePage[]): boolean {
    let found = privateInList.get(pages);
    if (found === undefined) {
      found = pages.some((page) => pageVisibility(page) === 'private');
      privateInList.set(pages, found);
    }
    return found;
  }

  async function visibleInOrder(viewer: Viewer, version: VersionInfo, locale: string): Promise<SourcePage[]> {
    const [pages, navigation] = await Promise.all([
      content.listAll(version.id, locale),
      content.navigation(version.id, locale),
    ]);
    const ordered = pagesInOrder(pages, navigation);
    if (ordered.length > 0 && !hasPrivatePage(ordered)) {
      // Without a private page, every page is decided as the first is: synchronously, when no
      // gate needs asking, for the whole list (a signed-in reader's sidebar on every request).
      const decision = access.settled(viewer, pageTarget(version, locale, ordered[0]!));
      if (decision) return decision.allowed ? ordered : [];
    }
    const visible: SourcePage[] = [];
    for (const page of ordered) {
      // Most pages need no gate: deciding those synchronously spares a promise per page of the sidebar.
      const target = pageTarget(version, locale, page);
      const decided = access.decide(viewer, target);
      const decision = decided instanceof Promise ? await decided : decided;
      if (decision.allowed) visible.push(page);
    }
    // A viewer who may see every page gets the ordered list itself: the same list for all of them,
    // which lets a caller keep what it derives from the list by the list (the reader's viewer class).
    return visible.length === ordered.length ? ordered : visible;
  }

  return {
    visibleInOrder,
    async listPages(input, viewer) {
      const scope = await scopes.scopeFor(input, viewer, 'current');
      const version = scope.version.id;
      const locale = scope.locale.code;
      const [navigation, pages] = await Promise.all([
        content.navigation(version, locale),
        content.listAll(version, locale),
      ]);
      const allowed = (page: SourcePage) => access.allowed(viewer, pageTarget(scope.version, locale, page));
      const groups = await groupPages(navigation.file, pages, allowed);
      return { set, version, locale, groups: pickGroup(groups, input.group, version, locale) };
    },
    async navigation(input, viewer) {
      const scope = await scopes.scopeFor(input, viewer);
      const [state, pages] = await Promise.all([
        content.navigation(scope.version.id, scope.locale.code),
        content.listAll(scope.version.id, scope.locale.code),
      ]);
      const visible = await visibleInOrder(viewer, scope.version, scope.locale.code);
      // A viewer who may see every page gets the navigation kept with the listing: the same object
      // for all of them, made once per listing, which a caller may key what it derives by.
      if (visible === pagesInOrder(pages, state)) return wholeNavigation(pages, state);
      const paths = new Set(visible.map((page) => page.path));
      return { file: filterNavigation(state.file, (path) => paths.has(path)), derived: state.derived };
    },
  };
}

function orderByNavigation(pages: SourcePage[], navigation: NavigationFile): SourcePage[] {
  const byPath = new Map(pages.map((page) => [page.path, page]));
  const ordered: SourcePage[] = [];
  const placed = new Set<string>();
  for (const entry of navigationPages(navigation)) {
    const page = byPath.get(entry.path);
    if (page && !placed.has(page.path)) {
      ordered.push(page);
      placed.add(page.path);
    }
  }
  for (const page of pages) if (!placed.has(page.path)) ordered.push(page);
  return ordered;
}

/** The pages a viewer may see, in the navigation's groups (a page listed twice in a group once). */
async function groupPages(
  navigation: NavigationFile,
  pages: SourcePage[],
  allowed: (page: SourcePage) => boolean | Promise<boolean>,
): Promise<PageListing['groups']> {
  const byPath = new Map(pages.map((page) => [page.path, page]));
  const groups: PageListing['groups'] = [];
  // Each group by tab and label, found by key: a search of the list per page is quadratic at 100,000 pages.
  const groupByTab = new Map<string | undefined, Map<string, PageListing['groups'][number]>>();
  // Paths placed per tab and group.
  const placed = new Map<string, Map<string, Set<string>>>();
  for (const entry of navigationPages(navigation)) {
    const page = byPath.get(entry.path);
    let tab = placed.get(entry.tab ?? '');
    if (!tab) {
      tab = new Map();
      placed.set(entry.tab ?? '', tab);
    }
    let inGroup = tab.get(entry.group);
    if (!inGroup) {
      inGroup = new Set();
      tab.set(entry.group, inGroup);
    }
    if (!page || inGroup.has(page.path)) continue;
    if (!(await allowed(page))) continue;
    inGroup.add(page.path);
    let byLabel = groupByTab.get(entry.tab);
    if (!byLabel) {
      byLabel = new Map();
      groupByTab.set(entry.tab, byLabel);
    }
    let group = byLabel.get(entry.group);
    if (!group) {
      group = { label: entry.group, ...(entry.tab !== undefined ? { tab: entry.tab } : {}), pages: [] };
      groups.push(group);
      byLabel.set(entry.group, group);
    }
    group.pages.push({ title: entry.title ?? page.title, path: page.path, description: page.description ?? null });
  }
  return groups;
}

/** The group `list_pages` names (by label, trimmed, any case), or every group when it names none. */
function pickGroup(
  groups: PageListing['groups'],
  asked: string | undefined,
  version: string,
  locale: string,
): PageListing['groups'] {
  if (asked === undefined || asked.trim() === '') return groups;
  const wanted = asked.trim().toLowerCase();
  const shown = groups.filter((group) => group.label.trim().toLowerCase() === wanted);
  if (shown.length === 0) {
    const labels = [...new Set(groups.map((group) => group.label))];
    throw new KitError(
      'navigation.group_not_found',
      `No group "${asked}" in version ${version} (${locale}). Groups: ${labels.join('; ') || 'none'}. Omit group to list every page.`,
      { details: { group: asked, groups: labels } },
    );
  }
  return shown;
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
