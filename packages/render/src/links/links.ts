import { isSafeLink, type RenderContext } from '@kit/core';
import { canonicalPageLink, looksLikeFile, rebaseLink, resolveFilePath } from '@kit/core/internal';

const VERSION_PLACEHOLDER = /\{\{\s*version\s*\}\}/g;
const SCHEME = /^[A-Za-z][A-Za-z\d+.-]*:/;

/** Replaces `{{version}}` (spaces allowed inside the braces) with the reader's version segment. */
export function replaceVersion(text: string, versionSegment: string): string {
  return text.includes('{{') ? text.replace(VERSION_PLACEHOLDER, versionSegment) : text;
}

/**
 * True for a URL a page may link to, by the one link policy of `@kit/core` (`isSafeLink`): a path
 * on the site (no scheme, no protocol-relative `//host`) or a URL of http, https, mailto, tel,
 * irc, ircs or xmpp. An empty URL links nowhere and passes. The HTML and the agent Markdown twin
 * both drop what this refuses.
 */
export function isSafeUrl(url: string): boolean {
  return url.trim() === '' || isSafeLink(url);
}

/**
 * Resolves `target` (a relative page path, maybe with `./`, `../` and `.md`) against the page's
 * folder. The target is a URL, so it is percent-decoded first: `getting%20started.md` names the
 * page `getting started`, whose URL then encodes it once (`getting%20started`), not twice.
 *
 * @example
 * resolvePagePath('guides/intro', '../getting%20started.md'); // 'getting started'
 */
export function resolvePagePath(fromPage: string, target: string): string {
  const base = fromPage.split('/').slice(0, -1);
  const decoded = safeDecode(target);
  const segments = decoded.startsWith('/') ? [] : base;
  for (const part of decoded.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') segments.pop();
    else segments.push(part);
  }
  const joined = segments.join('/').replace(/\.md$/i, '');
  if (joined === '' || joined === 'index') return 'index';
  return joined.replace(/\/index$/, '');
}

/** `decodeURIComponent`, or the text as written when it is not valid percent-encoding (`100%.md`). */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export interface ResolvedLink {
  /** What the reader's HTML links to. */
  site: string;
  /** What the agent Markdown links to (absolute). */
  agent: string;
  /** True when the link points at another page of the same set (relative, `.md`, or under `route.link_prefix`). */
  internal: boolean;
}

function splitSuffix(url: string): { path: string; suffix: string } {
  const cut = url.search(/[?#]/);
  return cut === -1 ? { path: url, suffix: '' } : { path: url.slice(0, cut), suffix: url.slice(cut) };
}

function pageUrlOf(context: RenderContext, path: string): string {
  return context.pageUrl(path === 'index' ? '' : path);
}

/**
 * Where a link in a page points, for readers and for agents. `{{version}}` becomes the reader's
 * version; a relative path or a `.md` file becomes the site URL of that page in the same version and
 * locale, a relative path to a file (`./img/flow.png`) the URL the file is served at beside them; a site
 * path under the set's `route.link_prefix` is served under its own prefix; agents get absolute URLs on
 * `context.origin`. What the link policy refuses (javascript:, data:, a protocol-relative `//host`, ...)
 * becomes an empty link in both.
 */
export function resolveLink(url: string, pagePath: string, context: RenderContext): ResolvedLink {
  const written = replaceVersion(url, context.versionSegment);
  if (!isSafeUrl(written)) return { site: '', agent: '', internal: false };
  if (SCHEME.test(written)) return { site: written, agent: written, internal: false };
  if (written.startsWith('#')) {
    return { site: written, agent: `${context.origin}${pageUrlOf(context, pagePath)}${written}`, internal: true };
  }
  if (written.startsWith('/')) {
    const rebased = rebaseLink(written, context.linkBase);
    // One page, one URL: `/docs/{{version}}/queues` on the default version is `/docs/queues`, as the
    // navigation, the sitemap and llms.txt write it.
    const layout = context.pageUrlInput?.layout;
    const site = layout ? canonicalPageLink(rebased, layout) : rebased;
    return { site, agent: `${context.origin}${site}`, internal: site !== written };
  }
  const { path, suffix } = splitSuffix(written);
  if (path === '') return { site: written, agent: written, internal: false };
  if (context.fileUrl && looksLikeFile(path)) {
    // A file beside the pages: its absolute URL, so it resolves the same from `/docs/guides` and `/docs/guides/x`.
    const file = resolveFilePath(pagePath, path);
    if (file !== null) {
      const site = `${context.fileUrl(file)}${suffix}`;
      return { site, agent: `${context.origin}${site}`, internal: true };
    }
  }
  const site = `${pageUrlOf(context, resolvePagePath(pagePath, path))}${suffix}`;
  return { site, agent: `${context.origin}${site}`, internal: true };
}
