/**
 * The entries of one navigation group, a page at a time: what a bounded sidebar leaves out, for the
 * navigation pages and their JSON (`routes/nav.ts`). Built from the navigation as the viewer sees
 * it, with the same rules as the sidebar, so a reader is listed exactly what their sidebar would
 * hold and a hidden page answers as if it did not exist.
 */
import { type DocSet, KitError, type NavEntry, type NavigationFile, type SourcePage, type Viewer } from '@kit/core';
import { navListingHref, type ReaderLink, type ReaderNavListing, type ReaderNavListingItem } from '@kit/render';

/** Entries one listing holds at most, whatever it is asked for. */
export const NAV_LISTING_PAGE = 100;

/** The navigation pages of a version and locale, e.g. `/docs/_kit/nav/3.x/en` (`.json` for the JSON). */
export function navigationUrl(base: string, place: { version: string; locale: string }): string {
  return `${base}/_kit/nav/${encodeURIComponent(place.version)}/${encodeURIComponent(place.locale)}`;
}

type Visible = (path: string) => boolean;

/** What a reader sees of an entry, as the sidebar decides it: a page they may see, a link, a group with something in it. */
function shown(entry: NavEntry, visible: Visible): boolean {
  if (typeof entry === 'string') return visible(entry);
  if ('path' in entry) return visible(entry.path);
  if ('href' in entry) return true;
  return entry.pages.some((child) => shown(child, visible));
}

/**
 * The top of the navigation as a group: its groups, or its tabs (each a group of groups). Group
 * `1.4` is the fifth entry of the second of these, the key the sidebar gives it.
 */
function rootEntries(file: NavigationFile): NavEntry[] {
  return 'tabs' in file ? file.tabs.map((tab) => ({ label: tab.label, pages: tab.groups })) : file.groups;
}

/** The group at `id` and the groups around it, or null when there is none the viewer may see. */
function findGroup(
  file: NavigationFile,
  id: string,
  visible: Visible,
): { label: string; pages: NavEntry[]; trail: Array<{ id: string; label: string }> } | null {
  if (!/^\d{1,6}(\.\d{1,6}){0,31}$/.test(id)) return null;
  let entries = rootEntries(file);
  const trail: Array<{ id: string; label: string }> = [];
  let found: { label: string; pages: NavEntry[] } | null = null;
  const steps = id.split('.').map(Number);
  for (const [depth, index] of steps.entries()) {
    const entry = entries[index];
    if (!entry || typeof entry === 'string' || !('pages' in entry) || !shown(entry, visible)) return null;
    if (found) trail.push({ id: steps.slice(0, depth).join('.'), label: found.label });
    found = entry;
    entries = entry.pages;
  }
  return found ? { ...found, trail } : null;
}

/** What a listing is asked for. */
export interface ListingRequest {
  version: string;
  locale: string;
  /** The group's key; absent: the top of the navigation. */
  group?: string;
  offset?: number;
  limit?: number;
}

/**
 * One page of a group's entries as `viewer` sees them. Throws `navigation.group_not_found` (and the set's
 * own errors for an unknown version or locale) when there is no such group for this viewer.
 *
 * @example
 * const listing = await navListing(set, viewer, '/docs', { version: '3.x', locale: 'en', group: '1' });
 */
export async function navListing(
  set: DocSet,
  viewer: Viewer,
  base: string,
  request: ListingRequest,
): Promise<ReaderNavListing> {
  const place = { version: request.version, locale: request.locale };
  const [navigation, pages] = await Promise.all([set.navigation(place, viewer), set.visiblePages(place, viewer)]);
  const byPath = new Map<string, SourcePage>(pages.map((page) => [page.path, page]));
  const visible: Visible = (path) => byPath.has(path);
  const navUrl = navigationUrl(base, place);
  const group = request.group === undefined ? null : findGroup(navigation.file, request.group, visible);
  if (request.group !== undefined && !group) {
    throw new KitError(
      'navigation.group_not_found',
      `No navigation group \`${request.group}\` in version ${request.version} (${request.locale}). Group keys come from the sidebar's links; open the sidebar again to get current ones.`,
    );
  }
  const entries = (group ? group.pages : rootEntries(navigation.file))
    .map((entry, index) => ({ entry, index }))
    .filter(({ entry }) => shown(entry, visible));
  const offset = Math.max(0, Math.floor(request.offset ?? 0));
  const limit = Math.min(NAV_LISTING_PAGE, Math.max(1, Math.floor(request.limit ?? NAV_LISTING_PAGE)));
  const slice = entries.slice(offset, offset + limit);
  const idOf = (index: number) => (request.group === undefined ? String(index) : `${request.group}.${index}`);
  const items = await Promise.all(
    slice.map(async ({ entry, index }): Promise<ReaderNavListingItem> => {
      if (typeof entry === 'string' || 'path' in entry) {
        const path = typeof entry === 'string' ? entry : entry.path;
        const page = byPath.get(path)!;
        const updatedAt = page.updatedAt ?? page.provenance?.date;
        return {
          kind: 'page',
          title: (typeof entry === 'string' ? undefined : entry.title) ?? page.title,
          path,
          url: await set.pageUrl({ ...place, path }),
          ...(updatedAt ? { updatedAt } : {}),
        };
      }
      if ('href' in entry) return { kind: 'link', label: entry.label, href: entry.href };
      const id = idOf(index);
      const count = entry.pages.filter((child) => shown(child, visible)).length;
      return { kind: 'group', id, label: entry.label, count, url: navListingHref(navUrl, id, 0) };
    }),
  );
  const trail: ReaderLink[] = group
    ? [
        { label: '', href: navListingHref(navUrl, null, 0) },
        ...group.trail.map((step) => ({ label: step.label, href: navListingHref(navUrl, step.id, 0) })),
      ]
    : [];
  return {
    group: group && request.group !== undefined ? { id: request.group, label: group.label } : null,
    trail,
    items,
    offset,
    total: entries.length,
    next: offset + limit < entries.length ? offset + limit : null,
  };
}
