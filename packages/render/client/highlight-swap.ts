/**
 * The first view of a page whose code grammars were still loading on the server shows its code
 * plain (marked `data-kit-highlight-pending`), so the page is not held up for seconds. The server
 * loads the grammars in the background; this asks for the page again a moment later and swaps the
 * highlighted code blocks in place, without a reload. Nothing else on the page changes: a block is
 * replaced only when the new one holds the same code, so a page edited in between is left alone.
 */

/** Waits between attempts, in milliseconds: the server starts loading a quarter second after the page. */
const RETRY_DELAYS = [400, 800, 1500, 3000, 5000];

/** Starts the swap when the open page's code was sent plain. */
export function initHighlightSwap(): void {
  const prose = document.querySelector<HTMLElement>('.kit-prose[data-kit-highlight-pending]');
  if (!prose) return;
  const url = location.href.replace(/#.*$/, '');
  let attempt = 0;
  const next = () => {
    const delay = RETRY_DELAYS[attempt++];
    if (delay === undefined) return;
    setTimeout(() => {
      swapHighlighted(prose, url).then(
        (done) => {
          if (!done) next();
        },
        () => next(),
      );
    }, delay);
  };
  next();
}

/** Fetches the page once; true when it came back highlighted (and its blocks were swapped in). */
async function swapHighlighted(prose: HTMLElement, url: string): Promise<boolean> {
  const response = await fetch(url, {
    headers: { Accept: 'text/html' },
    cache: 'no-store',
    credentials: 'same-origin',
  });
  if (!response.ok) return true; // the page is gone or moved: nothing to swap, no point asking again
  const fresh = new DOMParser().parseFromString(await response.text(), 'text/html').querySelector('.kit-prose');
  if (!fresh) return true;
  if (fresh.hasAttribute('data-kit-highlight-pending')) return false;
  const before = [...prose.querySelectorAll<HTMLPreElement>('pre')];
  const after = [...fresh.querySelectorAll<HTMLPreElement>('pre')];
  if (before.length === after.length) {
    before.forEach((old, index) => {
      const highlighted = after[index]!;
      if (highlighted.textContent?.replace(/\n$/, '') !== old.textContent?.replace(/\n$/, '')) return;
      // The reader may be scrolling the block sideways or have it focused: both carry over.
      const focused = old.contains(document.activeElement);
      const scrollLeft = old.scrollLeft;
      const placed = document.importNode(highlighted, true);
      old.replaceWith(placed);
      placed.scrollLeft = scrollLeft;
      if (focused) placed.focus({ preventScroll: true });
    });
  }
  prose.removeAttribute('data-kit-highlight-pending');
  return true;
}
