/**
 * The sidebar of a large navigation, bounded: whatever the number of pages, a page carries at most
 * a window of entries per list, so its HTML does not grow with the set. A reader reaches the rest
 * through "more" links and collapsed groups, which lead to the group's navigation page without the
 * script and load the entries in place with it.
 */
import { escapeHtml } from './html.js';
import { groupLabel, type LayoutContext, ui } from './layout-context.js';
import {
  containsActive,
  navExternal,
  navGroup,
  navItems,
  navListingHref,
  navMore,
  navPage,
} from './layout-nav-items.js';
import type { ReaderNavItem, ReaderSidebar } from './types.js';

/**
 * A sidebar with at most this many entries (pages, links and groups, at every depth) is shown
 * whole, as it always was; a larger one (with a `navUrl` to link the rest) is bounded.
 */
export const SIDEBAR_FULL_ENTRIES = 300;

/**
 * In a bounded sidebar, each list (the top-level groups, and the entries of each open group) shows
 * at most this many entries: the ones around the current page's branch, or the first ones.
 */
export const SIDEBAR_WINDOW = 40;

/** Entries at every depth, counting no further than `limit`. */
function countEntries(items: ReaderNavItem[], limit: number): number {
  let count = 0;
  for (const item of items) {
    count += 1;
    if (item.kind === 'group') count += countEntries(item.items, limit - count);
    if (count > limit) break;
  }
  return count;
}

/** Whether the sidebar is bounded rather than shown whole: over its bounds, with a place to list the rest. */
export function isBounded(sidebar: ReaderSidebar): boolean {
  if (!sidebar.navUrl) return false;
  let count = 0;
  for (const group of sidebar.groups) {
    count += 1 + countEntries(group.items, SIDEBAR_FULL_ENTRIES - count);
    if (count > SIDEBAR_FULL_ENTRIES) return true;
  }
  return false;
}

/** The window of a list of `length` entries around `index` (-1: none, the first entries). */
export function windowAround(length: number, index: number, size = SIDEBAR_WINDOW): { start: number; end: number } {
  if (length <= size) return { start: 0, end: length };
  const start = index < 0 ? 0 : Math.min(Math.max(index - Math.floor(size / 2), 0), length - size);
  return { start, end: start + size };
}

/** A list's window around the current page's branch, with a "more" link for what is before and after it. */
function boundedList(
  ctx: LayoutContext,
  navUrl: string,
  items: ReaderNavItem[],
  groupId: string,
  activeUrl: string | null,
): string {
  const { start, end } = windowAround(
    items.length,
    items.findIndex((item) => containsActive([item], activeUrl)),
  );
  let html = start > 0 ? navMore(ctx, navUrl, groupId, 0, start) : '';
  for (const item of items.slice(start, end)) {
    if (item.kind === 'page') html += navPage(ctx, item, activeUrl);
    else if (item.kind === 'link') html += navExternal(item);
    // A group without a key cannot be linked: shown whole, as an unbounded sidebar shows it.
    else if (item.id === undefined)
      html += navGroup(item.label, containsActive(item.items, activeUrl), navItems(ctx, item.items, activeUrl));
    else if (containsActive(item.items, activeUrl))
      html += navGroup(item.label, true, boundedList(ctx, navUrl, item.items, item.id, activeUrl));
    else html += collapsedGroup(ctx, navUrl, item.label, item.id, item.items.length);
  }
  if (end < items.length) html += navMore(ctx, navUrl, groupId, end, items.length - end);
  return html;
}

/** A group that holds not the current page: closed, its entries left out, a link to them inside. */
function collapsedGroup(ctx: LayoutContext, navUrl: string, label: string, id: string, count: number): string {
  return navGroup(label, false, navMore(ctx, navUrl, id, 0, count), ` data-kit-nav-group="${escapeHtml(id)}"`);
}

/** A link to the top-level groups the window leaves out: their listing, which names them all. */
function sectionsMore(ctx: LayoutContext, navUrl: string, offset: number, count: number): string {
  const href = navListingHref(navUrl, null, offset);
  return `<p class="kit-nav-more"><a href="${escapeHtml(href)}">${ui(ctx, 'navMore', escapeHtml(ctx.t.navMore.replace('{count}', String(count))))}</a></p>`;
}

/**
 * Which top-level groups of the window show their first entries: the one that holds the current
 * page always (along its branch), then the others nearest to it while the whole stays within
 * {@link SIDEBAR_FULL_ENTRIES}; the rest are collapsed to a "more" link.
 */
function shownSections(groups: ReaderSidebar['groups'], start: number, end: number, active: number): Set<number> {
  const shown = new Set<number>();
  let budget = SIDEBAR_FULL_ENTRIES - (end - start);
  if (active >= 0) {
    shown.add(active);
    budget -= SIDEBAR_WINDOW * 2;
  }
  const byDistance = [...Array(end - start).keys()]
    .map((offset) => start + offset)
    .filter((index) => index !== active)
    .sort((a, b) => Math.abs(a - active) - Math.abs(b - active) || a - b);
  for (const index of byDistance) {
    const cost = Math.min(groups[index]!.items.length, SIDEBAR_WINDOW);
    if (cost > budget) continue;
    budget -= cost;
    shown.add(index);
  }
  return shown;
}

/**
 * The top-level groups of a bounded sidebar: a window of them around the one that holds the
 * current page, that one open along the path to the page, the nearest others with their first
 * entries (nested groups collapsed) while they fit, the rest with their entries left out.
 *
 * @example
 * isBounded(view.sidebar) ? boundedSections(ctx, page.url) : ...
 */
export function boundedSections(ctx: LayoutContext, activeUrl: string | null): string {
  const { view } = ctx;
  const navUrl = view.sidebar.navUrl!;
  const groups = view.sidebar.groups;
  const active = groups.findIndex((group) => containsActive(group.items, activeUrl));
  const { start, end } = windowAround(groups.length, active);
  const shown = shownSections(groups, start, end, active);
  let html = start > 0 ? sectionsMore(ctx, navUrl, 0, start) : '';
  groups.slice(start, end).forEach((group, offset) => {
    const index = start + offset;
    const list =
      group.id === undefined
        ? navItems(ctx, group.items, activeUrl)
        : shown.has(index)
          ? boundedList(ctx, navUrl, group.items, group.id, activeUrl)
          : navMore(ctx, navUrl, group.id, 0, group.items.length);
    html +=
      `<section class="kit-nav-section" aria-labelledby="kit-nav-${index}"><h2 class="kit-nav-title" id="kit-nav-${index}">${groupLabel(view, group.label)}</h2>` +
      `<ul>${list}</ul></section>`;
  });
  if (end < groups.length) html += sectionsMore(ctx, navUrl, end, groups.length - end);
  return html;
}
