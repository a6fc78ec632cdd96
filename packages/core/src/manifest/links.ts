/**
 * Link safety for manifest links. Navbar, footer and repository links end up in `href`
 * attributes on every page, so anything that is not an http(s) or mailto URL or a path on the
 * site (a `javascript:` or `data:` URL, a protocol-relative `//host`) is left out.
 */

// The URL parser browsers use removes ASCII tabs and line breaks anywhere and strips leading and
// trailing control characters and spaces, so `java\tscript:` is still a script URL. Check what
// the browser would see.
function browserView(href: string): string {
  return href.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
}

const schemePattern = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/** Which link forms a manifest key accepts. */
export type LinkPolicy = 'page-link' | 'web-url';

/**
 * True when `href` may be written into a page: an `http`/`https`/`mailto` URL or a path on the
 * site (`/docs/x`, `guide`, `#anchor`, `?q=1`). With `web-url` only absolute http(s) URLs pass
 * (repository links).
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
  if (scheme !== undefined) return false;
  // Browsers read `\` as `/`, so `/\host` and `\\host` are protocol-relative too.
  return !/^[/\\]{2}/.test(seen);
}
