/**
 * The Ask AI chat panel: a chunk of the reader script, fetched the first time a reader chooses
 * "Ask AI" in the search dialog. It posts the conversation to the set's `_kit/ask` endpoint and
 * shows the answer as it streams, then links the pages the answer cites.
 */
import { type AskStreamEvent, answerHtml, readEvents } from '../src/reader/ask-logic.js';
import type { AskStrings, ReaderClientConfig } from '../src/reader/client-config.js';

type Ask = NonNullable<ReaderClientConfig['ask']>;

interface Turn {
  role: 'user' | 'assistant';
  content: string;
}

let panel: AskPanel | null = null;

/**
 * Shows the chat panel in the search dialog (built on first use), with `question` in its field.
 *
 * @example
 * const { openAsk } = await import('./ask.js');
 * openAsk(dialog, config, input.value);
 */
export function openAsk(dialog: HTMLDialogElement, config: ReaderClientConfig, question: string): void {
  if (!config.ask) return;
  panel ??= new AskPanel(dialog, config, config.ask);
  panel.show(question);
}

class AskPanel {
  private readonly root: HTMLElement;
  private readonly log: HTMLOListElement;
  private readonly status: HTMLElement;
  private readonly field: HTMLTextAreaElement;
  private readonly send: HTMLButtonElement;
  private readonly stop: HTMLButtonElement;
  private readonly t: AskStrings;
  private history: Turn[] = [];
  private running: AbortController | null = null;

  constructor(
    private readonly dialog: HTMLDialogElement,
    private readonly config: ReaderClientConfig,
    private readonly ask: Ask,
  ) {
    this.t = ask.strings;
    const t = this.t;
    const root = document.createElement('section');
    root.className = 'kit-ask';
    root.setAttribute('aria-labelledby', 'kit-ask-title');
    if (ask.language) {
      root.lang = ask.language.lang;
      root.dir = ask.language.dir;
    }
    root.innerHTML =
      `<div class="kit-ask-head">` +
      `<button type="button" class="kit-ask-back" data-kit-ask-back></button>` +
      `<h2 id="kit-ask-title" class="kit-ask-title"></h2>` +
      `<button type="button" class="kit-ask-new" data-kit-ask-new></button>` +
      `</div>` +
      `<p class="kit-ask-notice"></p>` +
      `<ol class="kit-ask-log"></ol>` +
      `<p class="kit-ask-status" role="status" aria-live="polite"></p>` +
      `<form class="kit-ask-form">` +
      `<label for="kit-ask-input" class="kit-sr-only"></label>` +
      `<textarea id="kit-ask-input" rows="2" dir="auto" autocomplete="off"></textarea>` +
      `<button type="submit" class="kit-ask-send"></button>` +
      `<button type="button" class="kit-ask-stop" hidden></button>` +
      `</form>`;
    const part = <E extends HTMLElement>(selector: string) => root.querySelector<E>(selector)!;
    part('.kit-ask-back').textContent = t.askBack;
    part('.kit-ask-title').textContent = t.askAi;
    part('.kit-ask-new').textContent = t.askNew;
    part('.kit-ask-notice').textContent = t.askNotice;
    part('label').textContent = t.askPlaceholder;
    this.log = part('.kit-ask-log');
    this.log.setAttribute('aria-label', t.askAi);
    this.status = part('.kit-ask-status');
    this.field = part('textarea');
    this.field.placeholder = t.askPlaceholder;
    this.send = part('.kit-ask-send');
    this.send.textContent = t.askSend;
    this.stop = part('.kit-ask-stop');
    this.stop.textContent = t.askStop;
    this.root = root;
    dialog.querySelector('.kit-search-panel')!.append(root);

    part<HTMLFormElement>('form').addEventListener('submit', (event) => {
      event.preventDefault();
      void this.submit();
    });
    this.field.addEventListener('keydown', (event) => {
      // Enter asks; Shift+Enter starts a new line.
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        void this.submit();
      }
    });
    this.stop.addEventListener('click', () => this.running?.abort());
    part('.kit-ask-new').addEventListener('click', () => this.reset());
    part('.kit-ask-back').addEventListener('click', () => this.hide());
    dialog.addEventListener('close', () => this.hide(false));
  }

  show(question: string): void {
    this.dialog.classList.add('kit-asking');
    this.root.hidden = false;
    if (question.trim() && !this.running) this.field.value = question;
    this.field.focus();
  }

  private hide(focusSearch = true): void {
    this.dialog.classList.remove('kit-asking');
    this.root.hidden = true;
    if (focusSearch && this.dialog.open) this.dialog.querySelector<HTMLInputElement>('#kit-search-input')?.focus();
  }

  private reset(): void {
    this.running?.abort();
    this.history = [];
    this.log.replaceChildren();
    this.status.textContent = '';
    this.field.value = '';
    this.field.focus();
  }

  private async submit(): Promise<void> {
    const question = this.field.value.trim();
    if (!question || this.running) return;
    this.field.value = '';
    const asked = document.createElement('li');
    asked.className = 'kit-ask-question';
    asked.dir = 'auto';
    asked.textContent = question;
    const reply = document.createElement('li');
    reply.className = 'kit-ask-answer';
    const body = document.createElement('div');
    body.className = 'kit-ask-text';
    body.dir = 'auto';
    body.setAttribute('aria-busy', 'true');
    reply.append(body);
    this.log.append(asked, reply);
    reply.scrollIntoView({ block: 'nearest' });

    const controller = new AbortController();
    this.running = controller;
    this.busy(true);
    this.status.textContent = this.t.askWorking;
    let text = '';
    let finished: AskStreamEvent | null = null;
    let failure: string | null = null;
    let frame = 0;
    const paint = () => {
      frame = 0;
      body.innerHTML = answerHtml(text, null);
    };
    try {
      const response = await fetch(this.ask.endpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
        body: JSON.stringify({
          messages: [...this.history, { role: 'user', content: question }],
          version: this.config.version,
          locale: this.config.locale,
        }),
        signal: controller.signal,
      });
      if (!response.ok || !response.body) {
        const error = (await response.json().catch(() => null)) as { message?: string } | null;
        failure = error?.message ?? this.t.askFailed;
      } else {
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          const read = readEvents(buffer + value);
          buffer = read.rest;
          for (const event of read.events) {
            if (event.type === 'text' && event.delta) {
              text += event.delta;
              frame ||= requestAnimationFrame(paint);
            } else if (event.type === 'done') finished = event;
            else if (event.type === 'error') failure = event.message ?? this.t.askFailed;
          }
        }
      }
    } catch {
      if (!controller.signal.aborted) failure = this.t.askFailed;
    }
    if (frame) cancelAnimationFrame(frame);
    this.running = null;
    this.busy(false);
    body.removeAttribute('aria-busy');
    this.finish(reply, body, text, finished, failure);
    if (text) this.history.push({ role: 'user', content: question }, { role: 'assistant', content: text });
    this.field.focus();
  }

  private finish(
    reply: HTMLElement,
    body: HTMLElement,
    text: string,
    done: AskStreamEvent | null,
    failure: string | null,
  ): void {
    const citations = done?.citations ?? [];
    body.innerHTML = answerHtml(text, new Map(citations.map((citation) => [citation.href, citation.url])));
    if (citations.length) {
      const sources = document.createElement('nav');
      sources.className = 'kit-ask-sources';
      sources.setAttribute('aria-label', this.t.askSources);
      const heading = document.createElement('p');
      heading.textContent = this.t.askSources;
      const list = document.createElement('ul');
      const seen = new Set<string>();
      for (const citation of citations) {
        if (seen.has(citation.url)) continue;
        seen.add(citation.url);
        const item = document.createElement('li');
        const link = document.createElement('a');
        link.href = citation.url;
        link.textContent = citation.title;
        item.append(link);
        list.append(item);
      }
      sources.append(heading, list);
      reply.append(sources);
    }
    if (failure) {
      const alert = document.createElement('p');
      alert.className = 'kit-ask-error';
      alert.setAttribute('role', 'alert');
      alert.textContent = failure;
      reply.append(alert);
    } else if (done && !done.supported) {
      const notice = document.createElement('p');
      notice.className = 'kit-ask-unsupported';
      notice.textContent = this.t.askUnsupported;
      reply.append(notice);
    }
    if (text) {
      const copy = document.createElement('button');
      copy.type = 'button';
      copy.className = 'kit-ask-copy';
      copy.textContent = this.t.askCopy;
      copy.addEventListener('click', () => {
        void navigator.clipboard?.writeText(text).then(() => {
          copy.textContent = this.t.copied;
          setTimeout(() => {
            copy.textContent = this.t.askCopy;
          }, 2000);
        });
      });
      reply.append(copy);
    }
    this.status.textContent = failure ? '' : done ? this.t.askDone : '';
  }

  private busy(running: boolean): void {
    this.send.hidden = running;
    this.stop.hidden = !running;
    if (running) this.stop.focus({ preventScroll: true });
  }
}
