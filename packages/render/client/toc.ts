import { activeTocIndex, revealScrollTop, tocActivationLine } from '../src/reader/client-logic.js';

/**
 * Scroll-spy: the table-of-contents entry of the section being read gets `aria-current="true"`.
 * The current section is the last heading whose top has reached the line a `#heading` jump puts it
 * on (the page's scroll padding), so the entry jumped to is the one highlighted. In a table of
 * contents taller than its box, the box scrolls to keep the highlighted entry visible.
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

  const reveal = (link: HTMLAnchorElement) => {
    const box = link.closest<HTMLElement>('.kit-toc-inner');
    if (!box || box.scrollHeight <= box.clientHeight) return;
    const boxTop = box.getBoundingClientRect().top;
    const rect = link.getBoundingClientRect();
    const top = revealScrollTop(
      { top: rect.top - boxTop + box.scrollTop, bottom: rect.bottom - boxTop + box.scrollTop },
      { scrollTop: box.scrollTop, height: box.clientHeight },
    );
    // Setting scrollTop moves only the box; scrollIntoView would also scroll the page.
    if (top !== null) box.scrollTop = top;
  };

  const update = () => {
    scheduled = false;
    const header = document.querySelector('.kit-header')?.getBoundingClientRect().height ?? 60;
    const padding = Number.parseFloat(getComputedStyle(document.documentElement).scrollPaddingBlockStart);
    const atBottom = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
    const index = activeTocIndex(
      targets.map(({ heading }) => heading.getBoundingClientRect().top),
      tocActivationLine(padding, header),
      atBottom,
    );
    const current = targets[index]!.link;
    if (current === active) return;
    active?.removeAttribute('aria-current');
    current.setAttribute('aria-current', 'true');
    active = current;
    reveal(current);
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
