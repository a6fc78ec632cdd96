import type { ReaderClientConfig } from '../src/reader/client-config.js';
import { feedbackPayload } from '../src/reader/client-logic.js';
import { setUiText } from './ui-text.js';

/**
 * "Was this page helpful?": a yes/no choice opens an optional comment box; sending posts JSON to
 * the endpoint and thanks the reader. A failed post keeps the form so nothing typed is lost.
 */
export function initFeedback(config: ReaderClientConfig): void {
  const widget = document.querySelector<HTMLElement>('[data-kit-feedback]');
  const endpoint = config.feedbackEndpoint;
  if (!widget || !endpoint || !config.path) return;
  const form = widget.querySelector<HTMLFormElement>('.kit-feedback-form');
  const status = widget.querySelector<HTMLElement>('.kit-feedback-status');
  const choices = [...widget.querySelectorAll<HTMLButtonElement>('[data-helpful]')];
  const textarea = form?.querySelector('textarea');
  if (!form || !status || !textarea) return;
  let helpful: boolean | null = null;

  for (const button of choices) {
    button.addEventListener('click', () => {
      helpful = button.dataset.helpful === 'true';
      for (const other of choices) other.setAttribute('aria-pressed', String(other === button));
      form.hidden = false;
      textarea.focus();
    });
  }
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (helpful === null) return;
    const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    if (submit) submit.disabled = true;
    status.textContent = '';
    try {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(feedbackPayload(config, helpful, textarea.value)),
      });
      if (!response.ok) throw new Error(`feedback answered ${response.status}`);
      form.hidden = true;
      for (const button of choices) button.disabled = true;
      setUiText(status, config, 'thanks');
      // The form that held focus is gone: without this, focus falls back to <body>.
      status.focus();
    } catch {
      setUiText(status, config, 'feedbackFailed');
    } finally {
      if (submit) submit.disabled = false;
    }
  });
}
