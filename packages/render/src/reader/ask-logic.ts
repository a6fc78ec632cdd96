/**
 * The pure parts of the Ask AI chat panel (a chunk of the reader script loaded on first use):
 * reading the server-sent event stream and writing an answer's Markdown as safe HTML. Kept free
 * of the DOM so they are tested in Node.
 */

// Its own escaping (the same as client-logic's): importing that module would pull it out of the
// page script into a chunk shared with this one, which the page would then load up front.
function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** One event of the answer stream (`AskEvent` of `@kit/ai`), as the panel reads it. */
export interface AskStreamEvent {
  type: string;
  delta?: string;
  name?: string;
  input?: Record<string, unknown>;
  code?: string;
  message?: string;
  supported?: boolean;
  citations?: Array<{ title: string; url: string; href: string }>;
  unverified?: string[];
}

/**
 * Splits what arrived of a `text/event-stream` body into complete events and the unfinished rest,
 * which is kept for the next read.
 *
 * @example
 * readEvents('data: {"type":"text","delta":"Hi"}\n\ndata: {"ty'); // { events: [{ type: 'text', delta: 'Hi' }], rest: 'data: {"ty' }
 */
export function readEvents(buffer: string): { events: AskStreamEvent[]; rest: string } {
  const blocks = buffer.replace(/\r\n/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  const events: AskStreamEvent[] = [];
  for (const block of blocks) {
    const data = block
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    if (!data) continue;
    try {
      events.push(JSON.parse(data) as AskStreamEvent);
    } catch {
      // A malformed event is skipped; the next one may still be read.
    }
  }
  return { events, rest };
}

const LINK = /\[([^\]\n]{1,300})\]\(\s*<?([^()\s<>]{1,2000})>?(?:\s+"[^"]*")?\s*\)/g;

/**
 * An answer's Markdown as HTML: paragraphs, lists, headings as bold lines, `code`, fenced code,
 * **bold** and links. Everything is escaped first. A link becomes `<a>` only when its target is
 * among `links` (the citations the server checked against the pages it read); while the answer is
 * still streaming (`links` null) and for any other target, only its label shows.
 *
 * @example
 * answerHtml('See [Queues](/docs/queues).', new Map([['/docs/queues', '/docs/queues']]));
 * // '<p>See <a href="/docs/queues">Queues</a>.</p>'
 */
export function answerHtml(markdown: string, links: ReadonlyMap<string, string> | null): string {
  const out: string[] = [];
  const lines = markdown.replace(/\r\n/g, '\n').split('\n');
  let paragraph: string[] = [];
  let list: { ordered: boolean; items: string[] } | null = null;
  let fence: string[] | null = null;
  const flushParagraph = () => {
    if (paragraph.length) out.push(`<p>${paragraph.map((line) => inline(line, links)).join('<br>')}</p>`);
    paragraph = [];
  };
  const flushList = () => {
    if (!list) return;
    const tag = list.ordered ? 'ol' : 'ul';
    out.push(`<${tag}>${list.items.map((item) => `<li>${inline(item, links)}</li>`).join('')}</${tag}>`);
    list = null;
  };
  for (const line of lines) {
    if (fence) {
      if (/^\s*```/.test(line)) {
        out.push(`<pre><code>${escapeHtml(fence.join('\n'))}</code></pre>`);
        fence = null;
      } else fence.push(line);
      continue;
    }
    if (/^\s*```/.test(line)) {
      flushParagraph();
      flushList();
      fence = [];
      continue;
    }
    const item = /^\s*(?:([-*+])|(\d+)[.)])\s+(.*)$/.exec(line);
    if (item) {
      flushParagraph();
      const ordered = item[2] !== undefined;
      if (list && list.ordered !== ordered) flushList();
      list ??= { ordered, items: [] };
      list.items.push(item[3]!);
      continue;
    }
    if (line.trim() === '') {
      flushParagraph();
      flushList();
      continue;
    }
    flushList();
    const heading = /^\s*#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      flushParagraph();
      out.push(`<p><strong>${inline(heading[1]!, links)}</strong></p>`);
      continue;
    }
    paragraph.push(line);
  }
  // A fence still open is the streaming answer's current code block.
  if (fence) out.push(`<pre><code>${escapeHtml(fence.join('\n'))}</code></pre>`);
  flushParagraph();
  flushList();
  return out.join('');
}

function inline(text: string, links: ReadonlyMap<string, string> | null): string {
  // Code spans first, so nothing inside them is read as a link or emphasis.
  return text
    .split(/(`[^`]+`)/)
    .map((part) => {
      if (/^`[^`]+`$/.test(part)) return `<code>${escapeHtml(part.slice(1, -1))}</code>`;
      let html = '';
      let last = 0;
      for (const match of part.matchAll(LINK)) {
        html += emphasis(part.slice(last, match.index));
        const target = links?.get(match[2]!);
        html += target
          ? `<a href="${escapeHtml(target)}">${emphasis(match[1]!)}</a>`
          : `<span class="kit-ask-unlinked">${emphasis(match[1]!)}</span>`;
        last = match.index! + match[0].length;
      }
      return html + emphasis(part.slice(last));
    })
    .join('');
}

function emphasis(text: string): string {
  return escapeHtml(text).replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
}
