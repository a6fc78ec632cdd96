import type { ReadPage } from './tools.js';

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
  /** Links the answer wrote that point at no page read for it (the UI shows them as plain text). */
  unverified: string[];
}

const LINK = /\[([^\]\n]{1,300})\]\(\s*<?([^()\s<>]{1,2000})>?(?:\s+"[^"]*")?\s*\)/g;

/**
 * Checks every Markdown link of an answer against the pages the assistant read for it. A link to a
 * page read (by its URL or `.md` URL, absolute on `origin` or site-relative) is a citation; its
 * `#anchor` is kept when the page has that anchor. Any other link is unverified: the assistant may
 * not cite what it did not read.
 *
 * @example
 * checkCitations('See [Retrying](/docs/queues#retrying-jobs).', read, 'https://acme.test');
 * // { citations: [{ title: 'Queues', url: '/docs/queues#retrying-jobs', href: '/docs/queues#retrying-jobs' }], unverified: [] }
 */
export function checkCitations(answer: string, read: Map<string, ReadPage>, origin?: string): CheckedCitations {
  const byUrl = new Map<string, ReadPage>();
  for (const page of read.values()) {
    byUrl.set(page.url, page);
    byUrl.set(page.markdownUrl, page);
  }
  const citations: Citation[] = [];
  const unverified: string[] = [];
  const seen = new Set<string>();
  for (const match of answer.matchAll(LINK)) {
    const href = match[2]!;
    const local = siteRelative(href, origin);
    const hash = local?.indexOf('#') ?? -1;
    const path = local === null ? null : hash === -1 ? local : local.slice(0, hash);
    const anchor = local !== null && hash !== -1 ? decodeAnchor(local.slice(hash + 1)) : '';
    const page = path === null ? undefined : (byUrl.get(path) ?? byUrl.get(path.replace(/\/$/, '')));
    if (!page) {
      if (!unverified.includes(href)) unverified.push(href);
      continue;
    }
    const url = anchor && page.anchors.includes(anchor) ? `${page.url}#${anchor}` : page.url;
    if (seen.has(href)) continue;
    seen.add(href);
    citations.push({ title: page.title, url, href });
  }
  return { citations, unverified };
}

function decodeAnchor(anchor: string): string {
  try {
    return decodeURIComponent(anchor);
  } catch {
    return anchor;
  }
}

/** The site path (with `#fragment`) a link names, or null for a link off this site. */
function siteRelative(href: string, origin: string | undefined): string | null {
  if (href.startsWith('/') && !href.startsWith('//')) return href;
  if (!/^https?:\/\//i.test(href)) return null;
  try {
    const url = new URL(href);
    if (!origin || url.origin !== new URL(origin).origin) return null;
    return `${url.pathname}${url.hash}`;
  } catch {
    return null;
  }
}
