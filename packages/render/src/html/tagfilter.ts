// The GFM tagfilter list, matched in any case, closing or not, followed by whitespace, `/`, `>` or
// the end of the string (`<SCRIPT`, `</style >`, `<iframe/src=...>`).
const FILTERED = /<(?=\/?(?:title|textarea|style|xmp|iframe|noembed|noframes|script|plaintext)(?:[\t\n\f\r />]|$))/gi;

/**
 * Disarms the tags GitHub's tagfilter disarms by escaping their `<`: they then show as text.
 *
 * @example
 * filterTags('<ScRiPt>alert(1)</script>'); // '&lt;ScRiPt>alert(1)&lt;/script>'
 */
export function filterTags(html: string): string {
  return html.replace(FILTERED, '&lt;');
}
