/**
 * Scroll-spy: the table-of-contents entry of the section being read gets `aria-current="true"`.
 * The current section is the last heading whose top has passed just under the sticky header.
 */
export function initTocSpy(): void {
  const links = [...document.querySelectorAll<HTMLAnchorElement>('[data-kit-toc] a[data-kit-toc-link]')];
  if (!links.length) return;
  const targets = links
    .map((link) => {
      const id = decodeURIComponent(link.hash.slice(1));
      return { link, heading: document.getElementById(id) };
    })
    .filter((entry): entry is { link: HTMLAnchorElement; heading: HTMLElement } => entry.heading !== null);
  if (!targets.length) return;
  let active: HTMLAnchorElement | null = null;
  let scheduled = false;

  const update = () => {
    scheduled = false;
    const header = document.querySelector('.kit-header')?.getBoundingClientRect().height ?? 60;
    const line = header + 24;
    let current = targets[0]!.link;
    for (const { link, heading } of targets) {
      if (heading.getBoundingClientRect().top <= line) current = link;
      else break;
    }
    // At the very bottom the last sections can never reach the line: mark the last one.
    if (window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2) {
      current = targets[targets.length - 1]!.link;
    }
    if (current === active) return;
    active?.removeAttribute('aria-current');
    current.setAttribute('aria-current', 'true');
    active = current;
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(update);
  };
  window.addEventListener('scroll', schedule, { passive: true });
  window.addEventListener('resize', schedule, { passive: true });
  update();
}
