import { escapeHtml, safeHref } from './html.js';
import { icon } from './icons.js';
import { groupLabel, type LayoutContext, layoutContext, link, ui } from './layout-context.js';
import { navExternal, navPage } from './layout-nav-items.js';
import { shell } from './layout-shell.js';
import type { ReaderNavListingItem, ReaderNavPageView } from './types.js';

function listingItem(ctx: LayoutContext, item: ReaderNavListingItem): string {
  if (item.kind === 'page') return navPage(ctx, item, null);
  if (item.kind === 'link') return navExternal(item);
  const href = safeHref(item.url);
  if (!href) return '';
  return `<li><a class="kit-nav-link kit-nav-listing-group" href="${escapeHtml(href)}"><span>${escapeHtml(item.label)}</span><span class="kit-nav-count">${item.count}</span></a></li>`;
}

/**
 * The navigation page of one group: the entries a bounded sidebar leaves out, listed a page at a
 * time in the site's frame, so a reader without the script reaches every page. Nested groups are
 * links to their own listing; the trail above links the groups around it.
 *
 * @example
 * return c.html(renderNavPage({ ...site, listing, nextUrl: '/docs/_kit/nav/3.x/en?group=2&offset=100' }));
 */
export function renderNavPage(view: ReaderNavPageView): string {
  const ctx = layoutContext(view);
  const { t } = ctx;
  const { listing } = view;
  const title = listing.group ? groupLabel(view, listing.group.label) : ui(ctx, 'navigation');
  // The first step, the top of the navigation, has no label of its own: the page names it.
  const trail = listing.trail
    .map((step) => link({ label: step.label || t.navigation, href: step.href }))
    .filter(Boolean)
    .map((a) => `<li>${a}</li>`)
    .join('');
  const previous = view.previousUrl ? safeHref(view.previousUrl) : null;
  const next = view.nextUrl ? safeHref(view.nextUrl) : null;
  const pager =
    previous || next
      ? `<nav class="kit-pager" aria-label="${escapeHtml(`${t.previous} / ${t.next}`)}">` +
        (previous
          ? `<a class="kit-pager-prev" href="${escapeHtml(previous)}" rel="prev"><span class="kit-pager-dir">${icon('arrowLeft', { size: 14, flip: true })}${ui(ctx, 'previous')}</span></a>`
          : '<span></span>') +
        (next
          ? `<a class="kit-pager-next" href="${escapeHtml(next)}" rel="next"><span class="kit-pager-dir">${ui(ctx, 'next')}${icon('arrowRight', { size: 14, flip: true })}</span></a>`
          : '') +
        `</nav>`
      : '';
  const main =
    `<main class="kit-main" id="kit-content" tabindex="-1"><div class="kit-nav-page">` +
    (trail ? `<ol class="kit-nav-trail-list">${trail}</ol>` : '') +
    `<h1>${title}</h1>` +
    `<ul class="kit-nav-listing">${listing.items.map((item) => listingItem(ctx, item)).join('')}</ul>` +
    pager +
    `</div></main>`;
  const plainTitle = listing.group ? listing.group.label : t.navigation;
  return shell(ctx, {
    title: `${plainTitle} · ${view.name}`,
    headExtra: { noindex: true },
    activeUrl: null,
    main,
    page: { path: null, updatedAt: null },
  });
}
