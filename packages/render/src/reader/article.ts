import { escapeHtml } from './html.js';
import { DEFAULT_READER_STRINGS_LANG, inLanguage } from './strings.js';

const NAMED_REFERENCES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Decodes one character reference, or returns it as written when it names nothing valid. */
function decodeReference(whole: string, body: string): string {
  if (body.startsWith('#')) {
    const code = /^#x/i.test(body) ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
    const valid = Number.isInteger(code) && code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
    return valid ? String.fromCodePoint(code) : whole;
  }
  return NAMED_REFERENCES[body.toLowerCase()] ?? whole;
}

/**
 * Plain text of a heading's HTML. Both the named references `escapeHtml` writes and the numeric
 * ones the Markdown renderer writes (`&#x26;`, `&#x3C;`) are decoded, so the label is escaped once.
 */
function stripTags(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]+);/g, decodeReference)
    .trim();
}

/**
 * A code block readers can scroll with the keyboard: highlighted blocks come with `tabindex="0"`,
 * plain ones (no language, unknown language, raw HTML) get it here.
 */
function focusablePre(pre: string): string {
  return pre.replace(/^<pre(?=[\s>])([^>]*)>/i, (open, attrs: string) =>
    /\stabindex\s*=/i.test(attrs) ? open : `<pre${attrs} tabindex="0">`,
  );
}

/**
 * Wraps each table in a focusable scrolling frame. The frame is a region named by the table's
 * caption or else the heading before it (numbered when several tables share it), so a screen
 * reader's landmark list tells them apart; with neither it stays an unnamed, focusable frame.
 */
function frameTables(html: string): string {
  let heading = '';
  const used = new Map<string, number>();
  return html.replace(
    /<h([1-6])(?:\s[^>]*)?>([\s\S]*?)<\/h\1>|<table[\s>][\s\S]*?<\/table>/gi,
    (whole, _level: string | undefined, inner: string | undefined) => {
      if (inner !== undefined) {
        heading = stripTags(inner);
        return whole;
      }
      const caption = /<caption[^>]*>([\s\S]*?)<\/caption>/i.exec(whole);
      const base = (caption ? stripTags(caption[1]!) : '') || heading;
      if (!base) return `<div class="kit-table-wrap" tabindex="0">${whole}</div>`;
      const count = (used.get(base) ?? 0) + 1;
      used.set(base, count);
      const name = count > 1 ? `${base} (${count})` : base;
      return `<div class="kit-table-wrap" role="region" aria-label="${escapeHtml(name)}" tabindex="0">${whole}</div>`;
    },
  );
}

/**
 * Readies rendered article HTML for the reader layout: tables get a scrolling frame (a focusable
 * region named after the table, so keyboard readers can scroll a wide table), code blocks a
 * frame the copy button sits in (the renderer's own, or a new one for a `<pre>` of raw HTML) and a tab stop, and headings with an id an anchor link (unless they link to
 * themselves already). With `englishIsForeign` (a page not in English) callout titles are marked as
 * English. Raw HTML inside code is escaped by the pipeline, so matching tags is safe.
 *
 * @example
 * enhanceArticleHtml('<h2 id="setup">Setup</h2>');
 * // '<h2 id="setup">Setup<a class="kit-anchor" href="#setup" aria-label="Link to “Setup”"></a></h2>'
 *
 * The anchor's `#` is drawn by the stylesheet, not written as text: the heading's text is then the
 * same in the HTML and in the agent Markdown twin, for readers that copy it and for checkers that
 * compare both (afdocs `markdown-content-parity`).
 */
export function enhanceArticleHtml(
  html: string,
  anchorLabel = 'Link to “{heading}”',
  options: {
    englishIsForeign?: boolean;
    /** The title HTML of a callout by its English title ("Note", "Warning"); undefined keeps it. */
    calloutTitle?: (english: string) => string | undefined;
  } = {},
): string {
  const framed = frameTables(html);
  // Callout titles come out of the renderer in English. A translated title replaces them; one left
  // English gets, on a page in another language, the same isolating span as the English interface
  // strings, so "Note" keeps its shape in RTL.
  const titled =
    options.calloutTitle || options.englishIsForeign
      ? framed.replace(/<p class="callout-title">([^<]*)<\/p>/g, (_whole, english: string) => {
          const translated = options.calloutTitle?.(english);
          if (translated !== undefined) return `<p class="callout-title">${translated}</p>`;
          return `<p class="callout-title">${options.englishIsForeign ? inLanguage(DEFAULT_READER_STRINGS_LANG, english) : english}</p>`;
        })
      : framed;
  return titled
    .replace(
      // Code blocks the renderer framed already (with their language label) keep their frame.
      /<div class="kit-code">((?:<span class="kit-code-lang">[^<]*<\/span>)?)(<pre[\s>][\s\S]*?<\/pre>)<\/div>|<pre[\s>][\s\S]*?<\/pre>/gi,
      (whole, label: string | undefined, pre: string | undefined) =>
        `<div class="kit-code">${label ?? ''}${focusablePre(pre ?? whole)}</div>`,
    )
    .replace(
      /<h([2-6])(\s[^>]*?\bid="([^"]+)"[^>]*)>([\s\S]*?)<\/h\1>/gi,
      (whole, level: string, attrs: string, id: string, inner: string) => {
        if (inner.includes(`href="#${id}"`)) return whole;
        const label = escapeHtml(anchorLabel.replace('{heading}', stripTags(inner)));
        return `<h${level}${attrs}>${inner}<a class="kit-anchor" href="#${id}" aria-label="${label}"></a></h${level}>`;
      },
    );
}
