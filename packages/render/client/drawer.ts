const OPEN_CLASS = 'kit-drawer-open';

/** The phone drawer: the menu button slides the sidebar in; Escape, the backdrop or a link close it. */
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
  const open = () => {
    root.classList.add(OPEN_CLASS);
    button.setAttribute('aria-expanded', 'true');
    if (backdrop) backdrop.hidden = false;
    const target =
      sidebar.querySelector<HTMLElement>('[aria-current="page"]') ??
      sidebar.querySelector<HTMLElement>('a, summary, button');
    target?.focus({ preventScroll: true });
    sidebar.querySelector('[aria-current="page"]')?.scrollIntoView({ block: 'center' });
  };

  button.addEventListener('click', () => (isOpen() ? close(true) : open()));
  backdrop?.addEventListener('click', () => close(true));
  sidebar.querySelector('[data-kit-menu-close]')?.addEventListener('click', () => close(true));
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && isOpen()) close(true);
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
