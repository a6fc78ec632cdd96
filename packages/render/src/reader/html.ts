import { isSafeLink } from '@kit/core';

/**
 * Small HTML-string helpers for the reader layout. Every value that reaches markup goes through
 * one of these, so a title, label or URL from a manifest can never break out of its place.
 */

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => TEXT_ESCAPES[char]!);
}

/**
 * A link target that is safe to put in `href`: http(s), mailto, a path on the site, a fragment or
 * a relative path. Anything else (`javascript:`, `data:`, ...) becomes null and the link is left out.
 */
export function safeHref(href: string | undefined | null): string | null {
  if (!href) return null;
  const trimmed = href.trim();
  // Control characters anywhere are how `java\nscript:` slips through; the policy is core's.
  if (/[\u0000-\u001f\u007f]/.test(trimmed) || !isSafeLink(trimmed)) return null;
  return trimmed;
}

/** True for an absolute http(s) URL pointing away from the site, which opens with `rel="noopener"`. */
export function isExternal(href: string): boolean {
  return /^https?:\/\//i.test(href);
}

/** Serializes data for a `<script type="application/json">` block without allowing `</script>`. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** ` nonce="..."` for inline scripts when the host sends a Content-Security-Policy nonce. */
export function nonceAttr(nonce: string | undefined): string {
  return nonce ? ` nonce="${escapeHtml(nonce)}"` : '';
}
