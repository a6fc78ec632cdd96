const OPEN_CLASS = 'kit-drawer-open';
const FOCUSABLE = 'a[href], button:not([disabled]), summary, input:not([disabled]), select, textarea, [tabindex]';

/** The drawer's controls a Tab can reach: focusable, not taken out of the order, and rendered. */
function focusables(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (element) => element.tabIndex >= 0 && element.getClientRects().length > 0,
  );
}

/**
 * The phone drawer: the menu button slides the sidebar in and focuses the current page's link;
 * Tab stays inside the open drawer; Escape, the close button, the backdrop or a link close it, and
 * closing by Escape, button or backdrop returns focus to the menu button.
 */
export function initDrawer(): void {
  const button = document.querySelector<HTMLButtonElement>('[data-kit-menu]');
  const sidebar = document.getElementById('kit-sidebar');
  const backdrop = document.querySelector<HTMLElement>('[data-kit-backdrop]');
  if (!button || !sidebar) return;
  const root = document.documentElement;
  const isOpen = () => root.classList.contains(OPEN_CLASS);

  const close = (returnFocus: boolean) => {
    if (!isOpen()) return;
    root.classList.remove(OPEN_CLASS);
    button.setAttribute('aria-expanded', 'false');
    if (backdrop) backdrop.hidden = true;
    if (returnFocus) button.focus();
  };
  const focusStart = (): boolean => {
    const target = sidebar.querySelector<HTMLElement>('[aria-current="page"]') ?? focusables(sidebar)[0];
    target?.focus({ preventScroll: true });
    return target !== undefined && document.activeElement === target;
  };
  const open = () => {
    root.classList.add(OPEN_CLASS);
    button.setAttribute('aria-expanded', 'true');
    if (backdrop) backdrop.hidden = false;
    sidebar.querySelector('[aria-current="page"]')?.scrollIntoView({ block: 'center' });
    // A hidden element cannot take focus: the stylesheet makes the drawer visible at once, but a
    // site stylesheet may bring back a visibility transition, so try again once it has run.
    if (!focusStart()) {
      sidebar.addEventListener(
        'transitionend',
        () => {
          if (isOpen()) focusStart();
        },
        { once: true },
      );
    }
  };

  // The open drawer covers the page: Tab and Shift+Tab cycle through its controls only.
  const trapTab = (event: KeyboardEvent) => {
    const items = focusables(sidebar);
    if (!items.length) return;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    const inside = sidebar.contains(document.activeElement);
    if (event.shiftKey && (!inside || document.activeElement === first)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (!inside || document.activeElement === last)) {
      event.preventDefault();
      first.focus();
    }
  };

  button.addEventListener('click', () => (isOpen() ? close(true) : open()));
  backdrop?.addEventListener('click', () => close(true));
  sidebar.querySelector('[data-kit-menu-close]')?.addEventListener('click', () => close(true));
  document.addEventListener('keydown', (event) => {
    if (!isOpen()) return;
    if (event.key === 'Escape') close(true);
    else if (event.key === 'Tab') trapTab(event);
  });
  sidebar.addEventListener('click', (event) => {
    if ((event.target as Element).closest('a[href]')) close(false);
  });
  // Rotating a tablet to landscape leaves the drawer layout: drop the open state with it.
  const wide = matchMedia('(min-width: 861px)');
  wide.addEventListener('change', () => {
    if (wide.matches) close(false);
  });
}

/**
 * Scrolls the sidebar (never the page) so the current page's link is in view on load, as
 * Starlight, VitePress and Docusaurus do: on a long navigation it would otherwise sit below the
 * fold. Nothing moves when the link is already visible or the sidebar does not scroll.
 */
export function revealCurrentPage(): void {
  const sidebar = document.getElementById('kit-sidebar');
  const current = sidebar?.querySelector<HTMLElement>('.kit-nav [aria-current="page"]');
  if (!sidebar || !current || sidebar.scrollHeight <= sidebar.clientHeight) return;
  const box = sidebar.getBoundingClientRect();
  const link = current.getBoundingClientRect();
  if (link.height === 0 || (link.top >= box.top && link.bottom <= box.bottom)) return;
  sidebar.scrollTop += link.top - box.top - (box.height - link.height) / 3;
}
