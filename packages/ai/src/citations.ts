import type { UrlMatch } from '@kit/core';
import type { ReadPage } from './tools.js';
import { readPageKey } from './tools.js';

/** A page an answer cites that the assistant read: a link the reader may follow. */
export interface Citation {
  title: string;
  /** Site URL of the page, with `#anchor` when the answer cites one section of it. */
  url: string;
  /** The link exactly as the answer wrote it, so a reader UI can match it. */
  href: string;
}

/** An answer's links sorted into citations of pages read and everything else. */
export interface CheckedCitations {
  citations: Citation[];
  /** Links the answer wrote that lead to no page read for it (the UI shows them as plain text). */
  unverified: string[];
}

/** How links are followed: the set's own URL rules, for the asking reader. */
export interface CitationScope {
  /** The set's `resolveUrl` with the asking reader as viewer: a page, a redirect, or nothing. */
  resolve(pathname: string): Promise<UrlMatch> | UrlMatch;
  /** The site's origin, so absolute links to it are followed too. */
  origin?: string;
}

const LINK = /\[([^\]\n]{1,300})\]\(\s*<?([^()\s<>]{1,2000})>?(?:\s+"[^"]*")?\s*\)/g;
/** Redirects followed from one link before it counts as leading nowhere. */
const MAX_REDIRECTS = 5;

/**
 * Checks every Markdown link of an answer against the pages the assistant read for it. A link is
 * followed as the site follows it (`scope.resolve`: the set's URL rules, redirects included), so
 * every URL of a page read cites it: its canonical URL, its `.md` twin, the landing page by its
 * path or by the version root, the default version with or without its segment, an old URL a
 * redirect moves. Its `#anchor` is kept when the page has that anchor. Any other link is
 * unverified: the assistant may not cite what it did not read.
 *
 * @example
 * await checkCitations('See [Setup](/docs/install#configure).', read, { resolve: (path) => set.resolveUrl(path, viewer) });
 * // { citations: [{ title: 'Install', url: '/docs#configure', href: '/docs/install#configure' }], unverified: [] }
 */
export async function checkCitations(
  answer: string,
  read: ReadonlyMap<string, ReadPage>,
  scope: CitationScope,
): Promise<CheckedCitations> {
  const origins = new Set<string>();
  if (scope.origin) origins.add(originOf(scope.origin));
  // A set with an origin gives its pages absolute URLs: links on that origin are the site's too.
  for (const page of read.values()) if (/^https?:\/\//i.test(page.url)) origins.add(originOf(page.url));
  const citations: Citation[] = [];
  const unverified: string[] = [];
  const seen = new Set<string>();
  const found = new Map<string, Promise<{ page: ReadPage; anchor: string } | undefined>>();
  for (const match of answer.matchAll(LINK)) {
    const href = match[2]!;
    if (seen.has(href)) continue;
    seen.add(href);
    const local = siteRelative(href, origins);
    if (local === null) {
      unverified.push(href);
      continue;
    }
    let lookup = found.get(local.path);
    if (!lookup) {
      lookup = pageAt(local.path, read, scope, origins);
      found.set(local.path, lookup);
    }
    const target = await lookup;
    if (!target) {
      unverified.push(href);
      continue;
    }
    const anchor = local.anchor || target.anchor;
    const url = anchor && target.page.anchors.includes(anchor) ? `${target.page.url}#${anchor}` : target.page.url;
    citations.push({ title: target.page.title, url, href });
  }
  return { citations, unverified };
}

/** The page read that a site path leads to (following redirects), with a redirect's own anchor. */
async function pageAt(
  path: string,
  read: ReadonlyMap<string, ReadPage>,
  scope: CitationScope,
  origins: ReadonlySet<string>,
): Promise<{ page: ReadPage; anchor: string } | undefined> {
  let pathname = path;
  let anchor = '';
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    let match: UrlMatch;
    try {
      match = await scope.resolve(pathname);
    } catch {
      // A set that cannot answer now (its database restarting) confirms no citation.
      return undefined;
    }
    if (match.kind === 'page') {
      const page = read.get(readPageKey(match.ref));
      return page ? { page, anchor } : undefined;
    }
    if (match.kind !== 'redirect') return undefined;
    const next = siteRelative(match.location, origins);
    if (next === null) return undefined;
    pathname = next.path;
    anchor ||= next.anchor;
  }
  return undefined;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** The site path and decoded `#anchor` a link names, or null for a link off this site. */
function siteRelative(href: string, origins: ReadonlySet<string>): { path: string; anchor: string } | null {
  let local: string;
  if (href.startsWith('/') && !href.startsWith('//')) local = href;
  else if (/^https?:\/\//i.test(href)) {
    try {
      const url = new URL(href);
      if (!origins.has(url.origin)) return null;
      local = `${url.pathname}${url.search}${url.hash}`;
    } catch {
      return null;
    }
  } else return null;
  const hash = local.indexOf('#');
  const beforeHash = hash === -1 ? local : local.slice(0, hash);
  const query = beforeHash.indexOf('?');
  return {
    path: query === -1 ? beforeHash : beforeHash.slice(0, query),
    anchor: hash === -1 ? '' : decodeAnchor(local.slice(hash + 1)),
  };
}

function decodeAnchor(anchor: string): string {
  try {
    return decodeURIComponent(anchor);
  } catch {
    return anchor;
  }
}
