import { escapeHtml, safeHref } from './html.js';
import { icon } from './icons.js';
import { isFresh, type LayoutContext, ui } from './layout-context.js';
import type { ReaderNavExternal, ReaderNavItem, ReaderNavPage } from './types.js';

/** Whether the page at `activeUrl` is among `items`, at any depth. */
export function containsActive(items: ReaderNavItem[], activeUrl: string | null): boolean {
  if (activeUrl === null) return false;
  return items.some((item) =>
    item.kind === 'page'
      ? item.url === activeUrl
      : item.kind === 'group'
        ? containsActive(item.items, activeUrl)
        : false,
  );
}

/** An external link of the sidebar, as a list item; '' when its target is unsafe. */
export function navExternal(item: ReaderNavExternal): string {
  const href = safeHref(item.href);
  if (!href) return '';
  return `<li><a class="kit-nav-link kit-nav-external" href="${escapeHtml(href)}" rel="noopener noreferrer">${escapeHtml(item.label)}${icon('external', { size: 12 })}</a></li>`;
}

/** A page of the sidebar, as a list item, marked current when it is the page at `activeUrl`. */
export function navPage(ctx: LayoutContext, item: ReaderNavPage, activeUrl: string | null): string {
  const href = safeHref(item.url);
  if (!href) return '';
  const active = item.url === activeUrl ? ' aria-current="page"' : '';
  const updated = item.updatedAt && ctx.dots ? ` data-updated="${escapeHtml(item.updatedAt)}"` : '';
  const fresh = isFresh(ctx, item.updatedAt)
    ? `<span class="kit-fresh-dot" data-kit-fresh title="${escapeHtml(ctx.t.newPage)}"><span class="kit-sr-only">${ui(ctx, 'newPage', escapeHtml(`(${ctx.t.newPage})`))}</span></span>`
    : '';
  return `<li><a class="kit-nav-link" href="${escapeHtml(href)}" data-path="${escapeHtml(item.path)}"${updated}${active}><span>${escapeHtml(item.title)}</span>${fresh}</a></li>`;
}

/** A collapsible group around its list's HTML; `attrs` go on the `<details>`. */
export function navGroup(label: string, open: boolean, listHtml: string, attrs = ''): string {
  return (
    `<li><details class="kit-nav-group"${attrs}${open ? ' open' : ''}><summary>${icon('chevron', { size: 14, flip: true })}<span>${escapeHtml(label)}</span></summary>` +
    `<ul>${listHtml}</ul></details></li>`
  );
}

/** The navigation page of a group (HTML) at an offset: where a "more" link leads without the script. */
export function navListingHref(navUrl: string, group: string | null, offset: number): string {
  const query = new URLSearchParams();
  if (group !== null) query.set('group', group);
  if (offset > 0) query.set('offset', String(offset));
  const text = query.toString();
  return text ? `${navUrl}?${text}` : navUrl;
}

/**
 * The link to `count` entries of group `group` a trimmed sidebar leaves out, from `offset`. It
 * leads to the group's navigation page; the script loads the entries in its place instead.
 */
export function navMore(ctx: LayoutContext, navUrl: string, group: string, offset: number, count: number): string {
  const href = navListingHref(navUrl, group, offset);
  return (
    `<li class="kit-nav-more"><a href="${escapeHtml(href)}" data-kit-nav-more="${escapeHtml(group)}" data-offset="${offset}" data-end="${offset + count}">` +
    `${ui(ctx, 'navMore', escapeHtml(ctx.t.navMore.replace('{count}', String(count))))}</a></li>`
  );
}

/** A list of the sidebar shown whole: every entry, the groups on the current page's path open. */
export function navItems(ctx: LayoutContext, items: ReaderNavItem[], activeUrl: string | null): string {
  return items
    .map((item) => {
      if (item.kind === 'link') return navExternal(item);
      if (item.kind === 'group')
        return navGroup(item.label, containsActive(item.items, activeUrl), navItems(ctx, item.items, activeUrl));
      return navPage(ctx, item, activeUrl);
    })
    .join('');
}
