import type { ReaderClientConfig } from '../src/reader/client-config.js';

type TextKey = keyof ReaderClientConfig['strings'];

/**
 * Writes an interface string into an element: as plain text, or, when the string is in another
 * language than the page (the server lists those in `stringLanguages`), inside a span carrying its
 * `lang` and `dir`, isolated from the page's direction like the strings the server writes.
 */
export function setUiText(element: HTMLElement, config: ReaderClientConfig, key: TextKey): void {
  const language = config.stringLanguages?.[key];
  if (!language) {
    element.textContent = config.strings[key];
    return;
  }
  const span = document.createElement('span');
  span.lang = language.lang;
  span.dir = language.dir;
  span.textContent = config.strings[key];
  element.replaceChildren(span);
}
