import { escapeHtml } from './html.js';

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
 * Readies rendered article HTML for the reader layout: tables get a scrolling frame (a focusable,
 * labelled region, so keyboard readers can scroll a wide table), code blocks a
 * frame the copy button sits in, and headings with an id an anchor link (unless they link to
 * themselves already). Raw HTML inside code is escaped by the pipeline, so matching tags is safe.
 *
 * @example
 * enhanceArticleHtml('<h2 id="setup">Setup</h2>');
 * // '<h2 id="setup">Setup<a class="kit-anchor" href="#setup" aria-label="Link to “Setup”">#</a></h2>'
 */
export function enhanceArticleHtml(html: string, anchorLabel = 'Link to “{heading}”'): string {
  return html
    .replace(
      /<table[\s>][\s\S]*?<\/table>/gi,
      (table) => `<div class="kit-table-wrap" role="region" aria-label="Table" tabindex="0">${table}</div>`,
    )
    .replace(/<pre[\s>][\s\S]*?<\/pre>/gi, (pre) => `<div class="kit-code">${pre}</div>`)
    .replace(
      /<h([2-6])(\s[^>]*?\bid="([^"]+)"[^>]*)>([\s\S]*?)<\/h\1>/gi,
      (whole, level: string, attrs: string, id: string, inner: string) => {
        if (inner.includes(`href="#${id}"`)) return whole;
        const label = escapeHtml(anchorLabel.replace('{heading}', stripTags(inner)));
        return `<h${level}${attrs}>${inner}<a class="kit-anchor" href="#${id}" aria-label="${label}">#</a></h${level}>`;
      },
    );
}
