import { escapeHtml } from './html.js';
import { icon } from './icons.js';
import { groupLabel, insert, type LayoutContext, link } from './layout-context.js';
import { brand, localeSwitcher, versionSwitcher } from './layout-header.js';
import { navItems } from './layout-nav-items.js';
import { boundedSections, isBounded } from './layout-sidebar-bounded.js';
import type { ReaderNavItem } from './types.js';

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
  const bounded = isBounded(view.sidebar);
  const groups = bounded
    ? boundedSections(ctx, activeUrl)
    : view.sidebar.groups
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
    `<nav class="kit-nav" aria-label="${escapeHtml(t.navigation)}"${bounded ? ` data-kit-nav="${escapeHtml(view.sidebar.navUrl!)}" data-kit-nav-more-text="${escapeHtml(t.navMore)}"` : ''}>${tabs}${groups}</nav>` +
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
