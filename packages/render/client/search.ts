import type { ReaderClientConfig } from '../src/reader/client-config.js';
import { type ClientIndexQuery, chooseSearchBackend } from '../src/reader/client-logic.js';
import { createSearchResults, type SearchResults } from './search-results.js';
import { setUiText } from './ui-text.js';

const LIMIT = 10;

/** True when a key press happened inside something the reader types into. */
function isTyping(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  if (!element) return false;
  return element.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(element.tagName);
}

/**
 * Wires the search dialog: opening it (buttons, search forms, `/`, Ctrl or Cmd+K), searching as
 * the reader types, choosing a result with the arrow keys, and closing it where it was opened.
 */
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
  const results = createSearchResults(config, input, list, status);
  let opener: HTMLElement | null = null;
  let sequence = 0;

  const run = async (query: string) => {
    const mine = ++sequence;
    if (!query.trim()) {
      results.clear();
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
      if (mine === sequence) results.show(hits, query);
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
    results.select(results.options().length ? 0 : -1);
    if (input.value) void run(input.value);
  };

  wireField(dialog, input, list, results, run);
  wireDialog(dialog, () => opener);
  wireAsk(dialog, config, input, status);
  wireOpeners(dialog, open);
}

/** Searching as the reader types, and the keys that choose and follow a result. */
function wireField(
  dialog: HTMLDialogElement,
  input: HTMLInputElement,
  list: HTMLUListElement,
  results: SearchResults,
  run: (query: string) => Promise<void>,
): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
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
      results.select(results.selected() + (event.key === 'ArrowDown' ? 1 : -1));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const link = results.options()[results.selected()];
      if (link) window.location.assign(link.href);
    }
  });
  list.addEventListener('mousemove', (event) => {
    const option = (event.target as Element).closest('[role="option"]');
    if (option) results.select(results.options().indexOf(option as HTMLAnchorElement));
  });
}

/** Closing the dialog: by its button or backdrop, giving the focus back to what opened it. */
function wireDialog(dialog: HTMLDialogElement, opener: () => HTMLElement | null): void {
  dialog.addEventListener('close', () => {
    // The close event comes a task after the dialog closes: a reader quick to reopen it (Escape
    // then `/`) is typing in it again, and the focus must stay there.
    if (dialog.open) return;
    const from = opener();
    if (from?.isConnected) from.focus();
    // Opened from the page itself (`/` with nothing focused, so no opener can take the focus): the
    // search field would keep it inside the closed dialog, and the next `/` would be typed there.
    if (dialog.contains(document.activeElement)) (document.activeElement as HTMLElement).blur();
  });
  // A click on the backdrop lands on the dialog element itself.
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dialog.close();
  });
  dialog.querySelector('[data-kit-search-close]')?.addEventListener('click', () => dialog.close());
}

/** Ask AI's panel is its own chunk, fetched on this first use, so pages never carry it. */
function wireAsk(
  dialog: HTMLDialogElement,
  config: ReaderClientConfig,
  input: HTMLInputElement,
  status: HTMLElement,
): void {
  const askButton = dialog.querySelector<HTMLButtonElement>('[data-kit-ask-open]');
  if (!askButton || !config.ask) return;
  askButton.addEventListener('click', () => {
    import('./ask.js').then(
      ({ openAsk }) => openAsk(dialog, config, input.value),
      () => setUiText(status, config, 'searchUnavailable'),
    );
  });
}

/** What opens the dialog: search buttons, search forms (with their query), `/` and Ctrl or Cmd+K. */
function wireOpeners(dialog: HTMLDialogElement, open: (query?: string) => void): void {
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
