import { escapeHtml } from './html.js';

function stripTags(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(
      /&(amp|lt|gt|quot|#39);/g,
      (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name]!,
    )
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
