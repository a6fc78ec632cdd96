import { navListingRequestUrl } from '../src/reader/client-logic.js';
import type { ReaderNavListing, ReaderNavListingItem } from '../src/reader/types.js';

/** The navigation page of a group (HTML), as the server links it. */
function listingHref(navUrl: string, group: string, offset: number): string {
  const query = new URLSearchParams({ group });
  if (offset > 0) query.set('offset', String(offset));
  return `${navUrl}?${query}`;
}

function moreItem(navUrl: string, text: string, group: string, offset: number, end: number): HTMLLIElement {
  const item = document.createElement('li');
  item.className = 'kit-nav-more';
  const link = document.createElement('a');
  link.href = listingHref(navUrl, group, offset);
  link.dataset.kitNavMore = group;
  link.dataset.offset = String(offset);
  link.dataset.end = String(end);
  link.textContent = text.replace('{count}', String(end - offset));
  item.append(link);
  return item;
}

/** One loaded entry as the sidebar writes it: a page, an external link, or a collapsed group. */
function entryElement(nav: HTMLElement, navUrl: string, entry: ReaderNavListingItem): HTMLLIElement | null {
  const item = document.createElement('li');
  if (entry.kind === 'group') {
    const details = document.createElement('details');
    details.className = 'kit-nav-group';
    details.dataset.kitNavGroup = entry.id;
    const summary = document.createElement('summary');
    const chevron = nav.querySelector('.kit-nav-group > summary > svg');
    if (chevron) summary.append(chevron.cloneNode(true));
    const label = document.createElement('span');
    label.textContent = entry.label;
    summary.append(label);
    const list = document.createElement('ul');
    list.append(moreItem(navUrl, nav.dataset.kitNavMoreText ?? '{count}', entry.id, 0, entry.count));
    details.append(summary, list);
    item.append(details);
    return item;
  }
  const href = entry.kind === 'page' ? entry.url : entry.href;
  // The server leaves unsafe links out of the navigation; a script URL is refused here all the same.
  if (/^\s*(javascript|data|vbscript):/i.test(href)) return null;
  const link = document.createElement('a');
  link.className = entry.kind === 'page' ? 'kit-nav-link' : 'kit-nav-link kit-nav-external';
  link.href = href;
  if (entry.kind === 'page') {
    link.dataset.path = entry.path;
    if (link.pathname === location.pathname) link.setAttribute('aria-current', 'page');
    const title = document.createElement('span');
    title.textContent = entry.title;
    link.append(title);
  } else {
    link.rel = 'noopener noreferrer';
    link.textContent = entry.label;
  }
  item.append(link);
  return item;
}

/**
 * Loads the entries behind a "more" link in its place, a page at a time: the link stays for what
 * is left. When loading fails the reader follows the link to the group's navigation page.
 */
async function loadMore(nav: HTMLElement, link: HTMLAnchorElement): Promise<void> {
  if (link.getAttribute('aria-busy') === 'true') return;
  const navUrl = nav.dataset.kitNav!;
  const group = link.dataset.kitNavMore!;
  const offset = Number(link.dataset.offset);
  const end = Number(link.dataset.end);
  link.setAttribute('aria-busy', 'true');
  try {
    const response = await fetch(navListingRequestUrl(navUrl, group, offset, end), {
      headers: { accept: 'application/json' },
      credentials: 'same-origin',
    });
    if (!response.ok) throw new Error(`The navigation answered ${response.status}.`);
    const listing = (await response.json()) as ReaderNavListing;
    const holder = link.parentElement!;
    for (const entry of listing.items) {
      const element = entryElement(nav, navUrl, entry);
      if (element) holder.before(element);
    }
    const reached = Math.min(end, offset + listing.items.length);
    if (listing.items.length === 0 || reached >= end) {
      holder.remove();
      return;
    }
    holder.replaceWith(moreItem(navUrl, nav.dataset.kitNavMoreText ?? '{count}', group, reached, end));
  } catch (error) {
    console.error('[kit]', error);
    location.href = link.href;
  } finally {
    link.removeAttribute('aria-busy');
  }
}

/**
 * A bounded sidebar (`data-kit-nav` on the navigation) loads what it leaves out on demand: a "more"
 * link loads its entries in place, and opening a collapsed group loads its first entries. Without
 * the script both are links to the group's navigation page.
 */
export function initNavLoading(): void {
  const nav = document.querySelector<HTMLElement>('.kit-nav[data-kit-nav]');
  if (!nav) return;
  nav.addEventListener('click', (event) => {
    const link = (event.target as Element).closest<HTMLAnchorElement>('a[data-kit-nav-more]');
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    // The drawer closes on a followed link; this one stays on the page.
    event.stopPropagation();
    void loadMore(nav, link);
  });
  // `toggle` does not bubble: listen while it travels down instead.
  nav.addEventListener(
    'toggle',
    (event) => {
      const details = event.target as HTMLDetailsElement;
      if (!details.open || !details.matches('[data-kit-nav-group]')) return;
      const list = details.querySelector(':scope > ul');
      const link = list?.querySelector<HTMLAnchorElement>(':scope > .kit-nav-more > a[data-kit-nav-more]');
      if (link && list?.children.length === 1) void loadMore(nav, link);
    },
    true,
  );
}
