/**
 * The one link policy of every page Kit serves: manifest links (navbar, footer, repository), the
 * links written in pages, in the reader's HTML and in the agent Markdown twin alike. Anything that
 * is not a URL of an allowed scheme or a path on the site (a `javascript:` or `data:` URL, a
 * protocol-relative `//host`) is left out.
 */

// The URL parser browsers use removes ASCII tabs and line breaks anywhere and strips leading and
// trailing control characters and spaces, so `java\tscript:` is still a script URL. Check what
// the browser would see.
function browserView(href: string): string {
  return href.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
}

const schemePattern = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/** Schemes a page may link to; any other scheme (`javascript:`, `data:`, `vbscript:`, ...) is refused. */
export const LINK_SCHEMES: ReadonlySet<string> = new Set(['http', 'https', 'mailto', 'tel', 'irc', 'ircs', 'xmpp']);

/** Which link forms a manifest key accepts. */
export type LinkPolicy = 'page-link' | 'web-url';

/**
 * True for a link written `//host/...` (or `/\host`, `\\host`, which browsers read the same way):
 * it leaves the site for whatever host it names, so no page may carry it.
 */
export function isProtocolRelative(href: string): boolean {
  return /^[/\\]{2}/.test(browserView(href).trim());
}

/**
 * True when `href` may be written into a page: a URL of one of {@link LINK_SCHEMES} (`https:`,
 * `mailto:`, ...) or a path on the site (`/docs/x`, `guide`, `#anchor`, `?q=1`). A control
 * character or space inside what would be the scheme refuses the link. With `web-url` only
 * absolute http(s) URLs pass (repository links).
 *
 * @example
 * isSafeLink('https://github.com/acme/kit') // true
 * isSafeLink('/docs/3.x/install')           // true
 * isSafeLink('javascript:alert(1)')         // false
 * isSafeLink('//evil.example')              // false: protocol-relative, not a site path
 */
export function isSafeLink(href: string, policy: LinkPolicy = 'page-link'): boolean {
  if (typeof href !== 'string') return false;
  const seen = browserView(href).trim();
  if (seen === '') return false;
  const scheme = schemePattern.exec(seen)?.[1]?.toLowerCase();
  if (scheme === 'http' || scheme === 'https') return /^https?:\/\/[^/\\?#\s]+/i.test(seen);
  if (policy === 'web-url') return false;
  if (scheme === 'mailto') return seen.length > 'mailto:'.length;
  if (scheme !== undefined) return LINK_SCHEMES.has(scheme);
  // `java script:` or `java\u0000script:`: not a scheme to the URL parser, but no page needs one.
  const colon = seen.indexOf(':');
  const delimiter = seen.search(/[/?#]/);
  if (
    colon !== -1 &&
    (delimiter === -1 || colon < delimiter) &&
    /[\u0000-\u0020\u007f-\u009f]/.test(seen.slice(0, colon))
  ) {
    return false;
  }
  return !isProtocolRelative(seen);
}
