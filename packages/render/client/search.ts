import type { ReaderClientConfig } from '../src/reader/client-config.js';
import {
  type ClientIndexQuery,
  type ClientSearchHit,
  chooseSearchBackend,
  escapeHtml,
  highlightSnippet,
  isSafeUrl,
} from '../src/reader/client-logic.js';
import { setUiText } from './ui-text.js';

const LIMIT = 10;

/** True when a key press happened inside something the reader types into. */
function isTyping(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  if (!element) return false;
  return element.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(element.tagName);
}

export function initSearch(
  config: ReaderClientConfig,
  queryClientIndex: ClientIndexQuery | undefined,
  prepareClientIndex?: (serialized: string) => void,
): void {
  const dialog = document.getElementById('kit-search') as HTMLDialogElement | null;
  const input = document.getElementById('kit-search-input') as HTMLInputElement | null;
  const list = document.getElementById('kit-search-results') as HTMLUListElement | null;
  const status = dialog?.querySelector<HTMLElement>('.kit-search-status');
  if (!dialog || !input || !list || !status) return;
  const backend = chooseSearchBackend(config, queryClientIndex, undefined, prepareClientIndex);
  let opener: HTMLElement | null = null;
  let sequence = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let selected = -1;
  /** The query whose results the list shows. */
  let shownQuery: string | null = null;

  const options = () => [...list.querySelectorAll<HTMLAnchorElement>('[role="option"]')];
  const select = (index: number) => {
    const items = options();
    selected = items.length ? (index + items.length) % items.length : -1;
    for (const [i, item] of items.entries()) item.setAttribute('aria-selected', String(i === selected));
    const current = items[selected];
    if (current) {
      input.setAttribute('aria-activedescendant', current.id);
      current.scrollIntoView({ block: 'nearest' });
    } else input.removeAttribute('aria-activedescendant');
  };

  const render = (found: ClientSearchHit[], query: string) => {
    const hits = found.filter((hit) => typeof hit.url === 'string' && isSafeUrl(hit.url));
    // Results of the same query again (search reopened, a late answer): the reader's choice stays.
    const kept = query === shownQuery ? options()[selected]?.getAttribute('href') : undefined;
    shownQuery = query;
    list.innerHTML = hits
      .map((hit, i) => {
        const heading = hit.heading ? ` <span class="kit-search-hit-heading">› ${escapeHtml(hit.heading)}</span>` : '';
        const text = hit.snippet || hit.description || '';
        // The link is the option: an option's content is presentational, so a link inside one
        // would be a control nested in a control. Focus stays in the field (aria-activedescendant).
        return (
          `<li role="none"><a role="option" id="kit-search-option-${i}" aria-selected="false" href="${escapeHtml(hit.url)}" tabindex="-1">` +
          `<span class="kit-search-hit-title">${escapeHtml(hit.title)}${heading}</span>` +
          (text ? `<span class="kit-search-hit-snippet">${highlightSnippet(text, query)}</span>` : '') +
          `</a></li>`
        );
      })
      .join('');
    input.setAttribute('aria-expanded', String(hits.length > 0));
    if (hits.length) status.textContent = '';
    else setUiText(status, config, 'searchNoResults');
    const keptAt = hits.findIndex((hit) => hit.url === kept);
    select(hits.length ? Math.max(0, keptAt) : -1);
  };

  const run = async (query: string) => {
    const mine = ++sequence;
    if (!query.trim()) {
      shownQuery = null;
      list.innerHTML = '';
      status.textContent = '';
      input.setAttribute('aria-expanded', 'false');
      return;
    }
    if (!backend) {
      setUiText(status, config, 'searchUnavailable');
      return;
    }
    if (list.childElementCount) status.textContent = '';
    else setUiText(status, config, 'searchLoading');
    try {
      const hits = await backend(query.trim(), LIMIT);
      if (mine === sequence) render(hits, query);
    } catch {
      if (mine === sequence) {
        list.innerHTML = '';
        setUiText(status, config, 'searchUnavailable');
      }
    }
  };

  const open = (query?: string) => {
    if (dialog.open) return;
    opener = document.activeElement as HTMLElement | null;
    dialog.showModal();
    backend?.prepare?.();
    if (query !== undefined) input.value = query;
    input.focus();
    input.select();
    // Reopened on its last results: the first is chosen again, and the refreshed results keep
    // whatever the reader chooses meanwhile.
    select(options().length ? 0 : -1);
    if (input.value) void run(input.value);
  };

  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(input.value), 120);
  });
  input.addEventListener('keydown', (event) => {
    // A search field eats the first Escape to clear itself; readers expect it to close the dialog.
    if (event.key === 'Escape') {
      event.preventDefault();
      dialog.close();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      select(selected + (event.key === 'ArrowDown' ? 1 : -1));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const link = options()[selected];
      if (link) window.location.assign(link.href);
    }
  });
  list.addEventListener('mousemove', (event) => {
    const option = (event.target as Element).closest('[role="option"]');
    if (option) select(options().indexOf(option as HTMLAnchorElement));
  });
  dialog.addEventListener('close', () => {
    // The close event comes a task after the dialog closes: a reader quick to reopen it (Escape
    // then `/`) is typing in it again, and the focus must stay there.
    if (dialog.open) return;
    if (opener?.isConnected) opener.focus();
    // Opened from the page itself (`/` with nothing focused, so no opener can take the focus): the
    // search field would keep it inside the closed dialog, and the next `/` would be typed there.
    if (dialog.contains(document.activeElement)) (document.activeElement as HTMLElement).blur();
  });
  // A click on the backdrop lands on the dialog element itself.
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dialog.close();
  });
  dialog.querySelector('[data-kit-search-close]')?.addEventListener('click', () => dialog.close());
  // Ask AI's panel is its own chunk, fetched on this first use, so pages never carry it.
  const askButton = dialog.querySelector<HTMLButtonElement>('[data-kit-ask-open]');
  if (askButton && config.ask) {
    askButton.addEventListener('click', () => {
      import('./ask.js').then(
        ({ openAsk }) => openAsk(dialog, config, input.value),
        () => setUiText(status, config, 'searchUnavailable'),
      );
    });
  }
  for (const button of document.querySelectorAll('[data-kit-search-open]')) {
    button.addEventListener('click', () => open());
  }
  for (const form of document.querySelectorAll<HTMLFormElement>('[data-kit-search-form]')) {
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      open(new FormData(form).get('q')?.toString() ?? '');
    });
  }
  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || dialog.open) return;
    const shortcut = (event.key === 'k' || event.key === 'K') && (event.metaKey || event.ctrlKey);
    if (
      shortcut ||
      (event.key === '/' && !event.metaKey && !event.ctrlKey && !event.altKey && !isTyping(event.target))
    ) {
      event.preventDefault();
      open();
    }
  });
}
