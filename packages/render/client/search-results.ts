import type { ReaderClientConfig } from '../src/reader/client-config.js';
import { type ClientSearchHit, escapeHtml, highlightSnippet, isSafeUrl } from '../src/reader/client-logic.js';
import { setUiText } from './ui-text.js';

/** The search dialog's list of results, and which one the reader has chosen. */
export interface SearchResults {
  /** The result links, in order. */
  options(): HTMLAnchorElement[];
  /** The index of the chosen result; -1 for none. */
  selected(): number;
  /** Chooses the result at `index`, wrapping around the ends; -1 chooses none. */
  select(index: number): void;
  /** Shows the results of `query`, keeping the reader's choice when the query is the one shown. */
  show(found: ClientSearchHit[], query: string): void;
  /** Empties the list for an empty query. */
  clear(): void;
}

/** The results list of the search dialog: `list` holds the options, `input` points at the chosen one. */
export function createSearchResults(
  config: ReaderClientConfig,
  input: HTMLInputElement,
  list: HTMLUListElement,
  status: HTMLElement,
): SearchResults {
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

  const show = (found: ClientSearchHit[], query: string) => {
    const hits = found.filter((hit) => typeof hit.url === 'string' && isSafeUrl(hit.url));
    // Results of the same query again (search reopened, a late answer): the reader's choice stays.
    const kept = query === shownQuery ? options()[selected]?.getAttribute('href') : undefined;
    shownQuery = query;
    list.innerHTML = hits.map((hit, i) => resultHtml(hit, i, query)).join('');
    input.setAttribute('aria-expanded', String(hits.length > 0));
    if (hits.length) status.textContent = '';
    else setUiText(status, config, 'searchNoResults');
    const keptAt = hits.findIndex((hit) => hit.url === kept);
    select(hits.length ? Math.max(0, keptAt) : -1);
  };

  const clear = () => {
    shownQuery = null;
    list.innerHTML = '';
    status.textContent = '';
    input.setAttribute('aria-expanded', 'false');
  };

  return { options, selected: () => selected, select, show, clear };
}

function resultHtml(hit: ClientSearchHit, i: number, query: string): string {
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
}
