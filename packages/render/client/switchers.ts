/**
 * Version and language switchers are `<details>` menus of links, so they navigate without
 * JavaScript. The script adds what a menu should do: one open at a time, close on Escape or an
 * outside click, and arrow keys between the entries.
 */
export function initSwitchers(): void {
  const switchers = [...document.querySelectorAll<HTMLDetailsElement>('[data-kit-switcher]')];
  if (!switchers.length) return;
  for (const switcher of switchers) {
    switcher.addEventListener('toggle', () => {
      if (!switcher.open) return;
      for (const other of switchers) if (other !== switcher) other.open = false;
    });
    switcher.addEventListener('keydown', (event) => {
      const links = [...switcher.querySelectorAll<HTMLAnchorElement>('.kit-switcher-menu a')];
      const index = links.indexOf(document.activeElement as HTMLAnchorElement);
      if (event.key === 'Escape' && switcher.open) {
        event.stopPropagation();
        switcher.open = false;
        switcher.querySelector('summary')?.focus();
      } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        if (!switcher.open) switcher.open = true;
        const step = event.key === 'ArrowDown' ? 1 : -1;
        const next = index < 0 ? (step > 0 ? 0 : links.length - 1) : (index + step + links.length) % links.length;
        links[next]?.focus();
      }
    });
  }
  document.addEventListener('click', (event) => {
    for (const switcher of switchers) {
      if (switcher.open && !switcher.contains(event.target as Node)) switcher.open = false;
    }
  });
}
