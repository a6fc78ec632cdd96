import type { NavEntry, NavGroup } from '../model/types.js';
import { normalizeNavPath } from './parse.js';

/** Label of the group holding the pages at the root of a version (derived navigation only). */
export const DERIVED_ROOT_GROUP_LABEL = 'Overview';

interface FolderNode {
  pages: Array<{ name: string; path: string; title: string }>;
  folders: Map<string, FolderNode>;
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function byName(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** `getting-started` → `Getting Started`, `api_reference` → `Api Reference`. */
export function labelFromFolder(name: string): string {
  return name
    .split(/[-_\s]+/)
    .filter((word) => word !== '')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

function entriesOf(node: FolderNode): NavEntry[] {
  const pages = [...node.pages].sort((a, b) => {
    if (a.name === 'index' || b.name === 'index') return a.name === 'index' ? -1 : 1;
    return byName(a.name, b.name);
  });
  const entries: NavEntry[] = pages.map((page) =>
    page.title.trim() ? { path: page.path, title: page.title.trim() } : page.path,
  );
  for (const name of [...node.folders.keys()].sort(byName)) {
    entries.push({ label: labelFromFolder(name), pages: entriesOf(node.folders.get(name)!) });
  }
  return entries;
}

/**
 * Navigation for a version without a `navigation.json`, derived from its folders. Pages at the
 * version root form a first group labelled "Overview"; each top-level folder becomes a group
 * labelled from its name (`getting-started` → "Getting Started"), deeper folders nested groups
 * after the folder's own pages. Inside a folder `index` comes first, then pages by file name
 * (numeric-aware: `2-setup` before `10-deploy`), then subfolders by name. The same pages always
 * give the same navigation, whatever order they come in.
 *
 * @example
 * deriveNavigation([{ path: 'index', title: 'Home' }, { path: 'guides/intro', title: 'Intro' }])
 * // { groups: [{ label: 'Overview', pages: [{ path: 'index', title: 'Home' }] },
 * //            { label: 'Guides', pages: [{ path: 'guides/intro', title: 'Intro' }] }] }
 */
export function deriveNavigation(pages: ReadonlyArray<{ path: string; title: string }>): { groups: NavGroup[] } {
  const root: FolderNode = { pages: [], folders: new Map() };
  const seen = new Set<string>();
  for (const page of pages) {
    const path = normalizeNavPath(page.path);
    if (path === undefined || seen.has(path)) continue;
    seen.add(path);
    const segments = path.split('/');
    const name = segments.pop()!;
    let node = root;
    for (const folder of segments) {
      let child = node.folders.get(folder);
      if (!child) {
        child = { pages: [], folders: new Map() };
        node.folders.set(folder, child);
      }
      node = child;
    }
    node.pages.push({ name, path, title: typeof page.title === 'string' ? page.title : '' });
  }
  const groups: NavGroup[] = [];
  if (root.pages.length > 0) {
    groups.push({ label: DERIVED_ROOT_GROUP_LABEL, pages: entriesOf({ pages: root.pages, folders: new Map() }) });
  }
  for (const name of [...root.folders.keys()].sort(byName)) {
    groups.push({ label: labelFromFolder(name), pages: entriesOf(root.folders.get(name)!) });
  }
  return { groups };
}
