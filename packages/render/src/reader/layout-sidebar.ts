import { escapeHtml, safeHref } from './html.js';
import { icon } from './icons.js';
import { groupLabel, insert, isFresh, type LayoutContext, link, ui } from './layout-context.js';
import { brand, localeSwitcher, versionSwitcher } from './layout-header.js';
import type { ReaderNavItem } from './types.js';

function containsActive(items: ReaderNavItem[], activeUrl: string | null): boolean {
  return items.some((item) =>
    item.kind === 'page'
      ? item.url === activeUrl
      : item.kind === 'group'
        ? containsActive(item.items, activeUrl)
        : false,
  );
}

function navItems(ctx: LayoutContext, items: ReaderNavItem[], activeUrl: string | null): string {
  return items
    .map((item) => {
      if (item.kind === 'link') {
        const href = safeHref(item.href);
        if (!href) return '';
        return `<li><a class="kit-nav-link kit-nav-external" href="${escapeHtml(href)}" rel="noopener noreferrer">${escapeHtml(item.label)}${icon('external', { size: 12 })}</a></li>`;
      }
      if (item.kind === 'group') {
        const open = containsActive(item.items, activeUrl) ? ' open' : '';
        return (
          `<li><details class="kit-nav-group"${open}><summary>${icon('chevron', { size: 14, flip: true })}<span>${escapeHtml(item.label)}</span></summary>` +
          `<ul>${navItems(ctx, item.items, activeUrl)}</ul></details></li>`
        );
      }
      const href = safeHref(item.url);
      if (!href) return '';
      const active = item.url === activeUrl ? ' aria-current="page"' : '';
      const updated = item.updatedAt && ctx.dots ? ` data-updated="${escapeHtml(item.updatedAt)}"` : '';
      const fresh = isFresh(ctx, item.updatedAt)
        ? `<span class="kit-fresh-dot" data-kit-fresh title="${escapeHtml(ctx.t.newPage)}"><span class="kit-sr-only">${ui(ctx, 'newPage', escapeHtml(`(${ctx.t.newPage})`))}</span></span>`
        : '';
      return `<li><a class="kit-nav-link" href="${escapeHtml(href)}" data-path="${escapeHtml(item.path)}"${updated}${active}><span>${escapeHtml(item.title)}</span>${fresh}</a></li>`;
    })
    .join('');
}

/** The sidebar navigation, which is also the drawer on narrow screens. */
export function sidebar(ctx: LayoutContext, activeUrl: string | null): string {
  const { view, t } = ctx;
  const tabs = view.sidebar.tabs?.length
    ? `<ul class="kit-nav-tabs">${view.sidebar.tabs
        .map((tab) => {
          const current = tab.active ? ' aria-current="true"' : '';
          return `<li>${link({ label: tab.label, href: tab.url }, current)}</li>`;
        })
        .join('')}</ul>`
    : '';
  const groups = view.sidebar.groups
    .map(
      (group, index) =>
        `<section class="kit-nav-section" aria-labelledby="kit-nav-${index}"><h2 class="kit-nav-title" id="kit-nav-${index}">${groupLabel(view, group.label)}</h2>` +
        `<ul>${navItems(ctx, group.items, activeUrl)}</ul></section>`,
    )
    .join('');
  const switchers = versionSwitcher(ctx, 'drawer') + localeSwitcher(ctx, 'drawer');
  // Phones have no room for the call to action in the header: it leads the drawer instead.
  const cta = view.navbar.cta ? link(view.navbar.cta, ' class="kit-cta kit-drawer-cta"') : '';
  const navbarLinks = view.navbar.links
    .filter((item) => item.href !== view.repositoryUrl)
    .map((item) => link(item))
    .filter(Boolean)
    .map((a) => `<li>${a}</li>`)
    .join('');
  return (
    `<div class="kit-backdrop" data-kit-backdrop hidden></div>` +
    `<aside class="kit-sidebar" id="kit-sidebar" aria-label="${escapeHtml(t.navigation)}">` +
    `<div class="kit-drawer-head">${brand(view)}<button type="button" class="kit-icon-button" data-kit-menu-close aria-label="${escapeHtml(t.close)}">${icon('close')}</button></div>` +
    `<div class="kit-sidebar-inner">` +
    (switchers || navbarLinks || cta
      ? `<div class="kit-drawer-extra">${cta}${switchers ? `<div class="kit-drawer-switchers">${switchers}</div>` : ''}${navbarLinks ? `<ul class="kit-drawer-links">${navbarLinks}</ul>` : ''}</div>`
      : '') +
    insert(view, 'sidebar.before', 'kit-sidebar-before') +
    `<nav class="kit-nav" aria-label="${escapeHtml(t.navigation)}">${tabs}${groups}</nav>` +
    insert(view, 'sidebar.after', 'kit-sidebar-after') +
    `</div></aside>`
  );
}

/** The last update of the page at `url`, from the sidebar items. */
export function findUpdatedAt(items: ReaderNavItem[], url: string): string | undefined {
  for (const item of items) {
    if (item.kind === 'page' && item.url === url) return item.updatedAt;
    if (item.kind === 'group') {
      const found = findUpdatedAt(item.items, url);
      if (found) return found;
    }
  }
  return undefined;
}
