// The GFM tagfilter list, matched in any case, closing or not, followed by whitespace, `/`, `>` or
// the end of the string (`<SCRIPT`, `</style >`, `<iframe/src=...>`).
const FILTERED_NAMES = 'title|textarea|style|xmp|iframe|noembed|noframes|script|plaintext';
const FILTERED = new RegExp(`<(?=\\/?(?:${FILTERED_NAMES})(?:[\\t\\n\\f\\r />]|$))`, 'gi');
const FILTERED_TAG = new RegExp(`<(\\/?)(${FILTERED_NAMES})(?=[\\t\\n\\f\\r />]|$)`, 'gi');
// The rest of a tag after its name: attributes (quoted values may hold `>`) up to its `>`.
const TAG_REST = /(?:"[^"]*"|'[^']*'|[^'">])*(?:>|$)/y;

/**
 * Disarms the tags GitHub's tagfilter disarms by escaping their `<`: they then show as text.
 * Used for component HTML, which a registered component wrote and readers should see whole.
 *
 * @example
 * filterTags('<ScRiPt>alert(1)</script>'); // '&lt;ScRiPt>alert(1)&lt;/script>'
 */
export function filterTags(html: string): string {
  return html.replace(FILTERED, '&lt;');
}

/** Raw HTML with the filtered elements taken out, and the tag names that were. */
export interface DroppedElements {
  html: string;
  /** Lower-case names of the filtered elements removed, in order (empty: nothing was). */
  dropped: string[];
}

/**
 * Takes the elements GitHub's tagfilter names (`<style>`, `<script>`, `<iframe>`, `<title>`, ...) out
 * of a page's raw HTML with everything they hold, so readers never see their markup or CSS as text
 * (escaping them, as `filterTags` does, would print a `<style>` block's rules on the page). A tag
 * whose element is not closed in the same block goes alone, as does a stray closing tag, so the
 * HTML around it keeps its shape.
 *
 * @example
 * dropFilteredElements('<p>a</p><style>p { color: red }</style>').html; // '<p>a</p>'
 */
export function dropFilteredElements(html: string): DroppedElements {
  const dropped: string[] = [];
  let out = '';
  let from = 0;
  FILTERED_TAG.lastIndex = 0;
  for (let match = FILTERED_TAG.exec(html); match; match = FILTERED_TAG.exec(html)) {
    const start = match.index;
    const closing = match[1] === '/';
    const name = (match[2] as string).toLowerCase();
    TAG_REST.lastIndex = start + match[0].length;
    TAG_REST.exec(html);
    let end = TAG_REST.lastIndex;
    if (!closing) {
      const close = new RegExp(`</${name}(?=[\\t\\n\\f\\r />]|$)[^>]*(?:>|$)`, 'gi');
      close.lastIndex = end;
      const found = name === 'plaintext' ? null : close.exec(html);
      if (found) end = found.index + found[0].length;
    }
    out += html.slice(from, start);
    dropped.push(name);
    from = end;
    FILTERED_TAG.lastIndex = end;
  }
  if (dropped.length === 0) return { html, dropped };
  return { html: out + html.slice(from), dropped };
}
