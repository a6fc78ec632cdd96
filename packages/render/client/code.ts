import type { ReaderClientConfig } from '../src/reader/client-config.js';
import { setUiText } from './ui-text.js';

/** Puts text on the clipboard: the Clipboard API, else the old selection-based copy. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard API refused (insecure origin, permissions): the old selection-based copy still works.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

const COPY_ICON =
  '<svg width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><rect x="9" y="9" width="12" height="12" rx="2"/><path d="M5 15V5a2 2 0 0 1 2-2h10"/></svg>';
const CHECK_ICON =
  '<svg width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.5" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M20 6 9 17l-5-5"/></svg>';

/** A copy button on every code block of the article. */
export function initCodeCopy(config: ReaderClientConfig): void {
  for (const pre of document.querySelectorAll<HTMLPreElement>('.kit-prose pre')) {
    let frame = pre.parentElement;
    if (!frame?.classList.contains('kit-code')) {
      frame = document.createElement('div');
      frame.className = 'kit-code';
      pre.replaceWith(frame);
      frame.append(pre);
    }
    if (frame.querySelector(':scope > .kit-copy')) continue;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'kit-copy';
    button.setAttribute('aria-label', config.strings.copy);
    button.innerHTML = COPY_ICON;
    let reset: ReturnType<typeof setTimeout> | undefined;
    button.addEventListener('click', async () => {
      // The block now in the frame: a highlighted one may have replaced the plain one (highlight-swap.ts).
      const block = frame.querySelector('pre') ?? pre;
      const code = block.querySelector('code') ?? block;
      if (!(await copyText(code.textContent ?? ''))) return;
      button.dataset.copied = '';
      button.innerHTML = `${CHECK_ICON}<span></span>`;
      setUiText(button.querySelector('span')!, config, 'copied');
      button.setAttribute('aria-label', config.strings.copied);
      clearTimeout(reset);
      reset = setTimeout(() => {
        delete button.dataset.copied;
        button.innerHTML = COPY_ICON;
        button.setAttribute('aria-label', config.strings.copy);
      }, 2000);
    });
    frame.append(button);
  }
}
