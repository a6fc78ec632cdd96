import type { ReaderClientConfig } from '../src/reader/client-config.js';
import { copyText } from './code.js';
import { setUiText } from './ui-text.js';

/** The page's Markdown twin as text; asked for once per page and kept. */
function markdownOf(url: string): () => Promise<string> {
  let text: Promise<string> | undefined;
  return () => {
    text ??= fetch(url, { headers: { accept: 'text/markdown' }, credentials: 'same-origin' }).then((response) => {
      if (!response.ok) throw new Error(`${url} answered ${response.status}`);
      return response.text();
    });
    text.catch(() => {
      text = undefined;
    });
    return text;
  };
}

/**
 * Copies the Markdown twin. The clipboard write starts inside the click, with the text still on its
 * way (a `ClipboardItem` holding a promise), because a browser refuses a write that comes after the
 * click's moment has passed; browsers without that take the text once it is here.
 */
async function copyMarkdown(load: () => Promise<string>): Promise<boolean> {
  if (typeof ClipboardItem !== 'undefined' && navigator.clipboard?.write) {
    try {
      const blob = load().then((text) => new Blob([text], { type: 'text/plain' }));
      await navigator.clipboard.write([new ClipboardItem({ 'text/plain': blob })]);
      return true;
    } catch {
      // Refused, or the promise form is not supported: fall through.
    }
  }
  try {
    return await copyText(await load());
  } catch {
    return false;
  }
}

/** Shows a short status in the button, read out by screen readers, then puts its label back. */
function flash(button: HTMLButtonElement, config: ReaderClientConfig, key: 'copied' | 'copyFailed'): void {
  const label = button.querySelector<HTMLElement>('span');
  if (!label) return;
  const original = label.cloneNode(true) as HTMLElement;
  setUiText(label, config, key);
  button.dataset.copied = key;
  // The button's own text changing is not announced: a status region says it.
  const status = document.querySelector<HTMLElement>('[data-kit-actions-status]');
  if (status) setUiText(status, config, key);
  setTimeout(() => {
    label.replaceWith(original);
    delete button.dataset.copied;
    if (status) status.textContent = '';
  }, 2000);
}

/**
 * The page actions menu: "Copy page" puts the page's Markdown on the clipboard, and the Claude Code
 * entry copies its install command. Both are buttons the server leaves hidden, since they need
 * this script; the menu's links work without it.
 */
export function initPageActions(config: ReaderClientConfig): void {
  const copyPage = document.querySelector<HTMLButtonElement>('[data-kit-copy-page]');
  if (copyPage) {
    const load = markdownOf(copyPage.dataset.kitCopyPage!);
    copyPage.hidden = false;
    // Start the download when the reader heads for the button, so the copy is instant.
    copyPage.addEventListener('pointerenter', () => void load().catch(() => undefined), { once: true });
    copyPage.addEventListener('focus', () => void load().catch(() => undefined), { once: true });
    copyPage.addEventListener('click', async () => {
      flash(copyPage, config, (await copyMarkdown(load)) ? 'copied' : 'copyFailed');
    });
  }
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-kit-copy-text]')) {
    button.hidden = false;
    button.addEventListener('click', async () => {
      flash(button, config, (await copyText(button.dataset.kitCopyText!)) ? 'copied' : 'copyFailed');
    });
  }
}
