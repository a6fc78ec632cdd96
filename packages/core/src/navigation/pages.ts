import type { NavEntry, NavGroup, NavigationFile } from '../model/types.js';

/** One page of a navigation, in reading order, with where it sits. */
export interface NavigationPage {
  path: string;
  /** Title given in the navigation file, if any (else the page's own title applies). */
  title?: string;
  /** Label of the top-level group holding the page. */
  group: string;
  /** Label of the tab, in a tabbed file. */
  tab?: string;
  /** Labels from the top-level group down to the nested group holding the page. */
  labels: string[];
}

/** The groups of a navigation file with the tab each belongs to (none in an untabbed file). */
export function navigationGroups(nav: NavigationFile): Array<{ group: NavGroup; tab?: string }> {
  if ('tabs' in nav) return nav.tabs.flatMap((tab) => tab.groups.map((group) => ({ group, tab: tab.label })));
  return nav.groups.map((group) => ({ group }));
}

/**
 * Every page of a navigation in reading order, flattened: tabs, then groups, then entries, nested
 * groups in place. External links are not pages and are left out; a page listed twice appears
 * once, where it is first listed.
 *
 * @example
 * navigationPages({ groups: [{ label: 'Start', pages: ['index', { path: 'install', title: 'Install' }] }] })
 * // [{ path: 'index', group: 'Start', labels: ['Start'] },
 * //  { path: 'install', title: 'Install', group: 'Start', labels: ['Start'] }]
 */
export function navigationPages(nav: NavigationFile): NavigationPage[] {
  const pages: NavigationPage[] = [];
  const seen = new Set<string>();
  const walk = (entries: NavEntry[], labels: string[], tab: string | undefined) => {
    for (const entry of entries) {
      if (typeof entry === 'string' || 'path' in entry) {
        const path = typeof entry === 'string' ? entry : entry.path;
        if (seen.has(path)) continue;
        seen.add(path);
        const title = typeof entry === 'string' ? undefined : entry.title;
        pages.push({
          path,
          ...(title !== undefined ? { title } : {}),
          group: labels[0]!,
          ...(tab !== undefined ? { tab } : {}),
          labels,
        });
      } else if ('pages' in entry) {
        walk(entry.pages, [...labels, entry.label], tab);
      }
    }
  };
  for (const { group, tab } of navigationGroups(nav)) walk(group.pages, [group.label], tab);
  return pages;
}
