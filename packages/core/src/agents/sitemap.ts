import { isRequestError } from '../errors/kit-error.js';
import type { VersionInfo } from '../model/types.js';
import type { DocSet, Viewer } from '../ports/docset.js';
import { pageUrl, type UrlLayout } from '../urls/set-urls.js';
import { type AgentFile, cleanOrigin, layoutOf, setFilePath } from './scope.js';

/** Most `<url>` entries one sitemap file may hold (sitemaps.org). */
export const SITEMAP_MAX_URLS = 50_000;

const GUEST: Viewer = { user: null };

function xml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** A W3C datetime for `lastmod`, or undefined when the date is unknown or unreadable. */
function lastmod(date: string | undefined): string | undefined {
  if (!date) return undefined;
  const time = Date.parse(date);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

interface SitemapEntry {
  loc: string;
  lastmod?: string;
  alternates: Array<{ hreflang: string; href: string }>;
}

/** Which sitemap file to build, for {@link buildSitemapFile}. */
export interface SitemapFileOptions {
  origin: string;
  /** `sitemap.xml` or `sitemap-<n>.xml`. */
  name: string;
  /** Most URLs per file, at most (and by default) {@link SITEMAP_MAX_URLS}. */
  maxUrls?: number;
}

/**
 * Builds `sitemap.xml` for a set (sitemaps.org 0.9): every page a guest may see, in every version
 * and locale a guest may see, with `lastmod` when the source knows the date and
 * `<xhtml:link rel="alternate" hreflang>` links to the same page in the other locales (plus
 * `x-default`, the default locale). Always built for a guest, whoever asks, so private versions and
 * pages never appear. Over {@link SITEMAP_MAX_URLS} entries, `sitemap.xml` becomes a sitemap index of
 * `sitemap-1.xml`, `sitemap-2.xml`, ... Returns no files when a guest may see no page.
 *
 * @example
 * const [sitemap] = await buildSitemap(docs, { origin: 'https://example.com' });
 * sitemap.path; // '/docs/sitemap.xml'
 */
export async function buildSitemap(set: DocSet, options: { origin: string; maxUrls?: number }): Promise<AgentFile[]> {
  const main = await buildSitemapFile(set, { ...options, name: 'sitemap.xml' });
  if (!main) return [];
  const files = [main];
  for (let part = 1; main.text.includes('<sitemapindex'); part++) {
    const file = await buildSitemapFile(set, { ...options, name: `sitemap-${part}.xml` });
    if (!file) break;
    files.push(file);
  }
  return files;
}

/**
 * One file of {@link buildSitemap}, byte for byte, built alone: `sitemap.xml` (the URLs, or the
 * index when there are too many for one file) or the part `sitemap-<n>.xml`. A part holds only its
 * own entries (at most `maxUrls`); the index only counts them. Null when there is no such file.
 *
 * @example
 * const part = await buildSitemapFile(docs, { origin: 'https://example.com', name: 'sitemap-2.xml' });
 */
export async function buildSitemapFile(set: DocSet, options: SitemapFileOptions): Promise<AgentFile | null> {
  const origin = cleanOrigin(options.origin);
  const maxUrls = Math.max(1, Math.min(options.maxUrls ?? SITEMAP_MAX_URLS, SITEMAP_MAX_URLS));
  const { layout } = await layoutOf(set);
  const mainPath = setFilePath(layout, 'sitemap.xml');
  const numbered = /^sitemap-([1-9][0-9]*)\.xml$/.exec(options.name);
  if (options.name !== 'sitemap.xml' && !numbered) return null;
  if (!(await set.canView(GUEST, {}))) return null;
  const versions = await set.versions(GUEST);
  const walker = { set, layout, origin, versions };
  if (!numbered) {
    // Counted first, so an index builds no entry.
    const { total } = await walkEntries(walker, { start: 0, end: 0 }, false);
    if (total === 0) return null;
    if (total <= maxUrls) {
      const { entries } = await walkEntries(walker, { start: 0, end: maxUrls }, false);
      return { path: mainPath, text: urlset(entries) };
    }
    const parts = Math.ceil(total / maxUrls);
    const index = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      ...Array.from(
        { length: parts },
        (_, n) =>
          `  <sitemap>\n    <loc>${xml(origin + setFilePath(layout, `sitemap-${n + 1}.xml`))}</loc>\n  </sitemap>`,
      ),
      '</sitemapindex>',
      '',
    ].join('\n');
    return { path: mainPath, text: index };
  }
  const part = Number(numbered[1]);
  const range = { start: (part - 1) * maxUrls, end: part * maxUrls };
  const { entries, total } = await walkEntries(walker, range, true);
  // Up to maxUrls URLs are in sitemap.xml itself, with no numbered parts.
  if (total <= maxUrls || entries.length === 0) return null;
  return { path: setFilePath(layout, options.name), text: urlset(entries) };
}

/** What {@link walkEntries} walks: the versions a guest may see, in order. */
interface EntryWalk {
  set: DocSet;
  layout: UrlLayout;
  origin: string;
  versions: VersionInfo[];
}

/**
 * The sitemap's entries `[start, end)` in order (versions, then locales, then pages), counting
 * the rest without building them; one version's page lists are held at a time. With `stopPast`,
 * the walk ends after the version that passes `end`, so `total` is then only known to be larger.
 */
async function walkEntries(
  walk: EntryWalk,
  range: { start: number; end: number },
  stopPast: boolean,
): Promise<{ entries: SitemapEntry[]; total: number }> {
  const entries: SitemapEntry[] = [];
  let index = 0;
  for (const version of walk.versions) {
    const byLocale = await localePages(walk, version.id);
    for (const [code, pages] of byLocale) {
      if (index + pages.size <= range.start || index >= range.end) {
        index += pages.size;
        continue;
      }
      for (const [path, updated] of pages) {
        if (index >= range.start && index < range.end) {
          entries.push(entryOf(walk, byLocale, { version: version.id, locale: code, path }, updated));
        }
        index += 1;
      }
    }
    if (stopPast && index > range.end) break;
  }
  return { entries, total: index };
}

/** The pages (path to date) of each locale of a version that a guest may see. */
async function localePages(walk: EntryWalk, version: string): Promise<Map<string, Map<string, string | undefined>>> {
  const byLocale = new Map<string, Map<string, string | undefined>>();
  for (const locale of walk.layout.locales) {
    let pages: Awaited<ReturnType<DocSet['visiblePages']>>;
    try {
      pages = await walk.set.visiblePages({ version, locale: locale.code }, GUEST);
    } catch (error) {
      // A locale the guest cannot see has no URLs; a source that cannot read its pages fails the sitemap.
      if (!isRequestError(error)) throw error;
      continue;
    }
    byLocale.set(locale.code, new Map(pages.map((page) => [page.path, page.updatedAt])));
  }
  return byLocale;
}

/** One `<url>`: the page in its locale, with alternates when other locales have it too. */
function entryOf(
  walk: EntryWalk,
  byLocale: Map<string, Map<string, string | undefined>>,
  page: { version: string; locale: string; path: string },
  updated: string | undefined,
): SitemapEntry {
  const { layout, origin } = walk;
  const urlOf = (locale: string) => origin + pageUrl(layout, { version: page.version, locale, path: page.path });
  const present = layout.locales.filter((locale) => byLocale.get(locale.code)?.has(page.path));
  const alternates =
    present.length > 1
      ? [
          ...present.map((locale) => ({ hreflang: locale.code, href: urlOf(locale.code) })),
          ...(byLocale.get(layout.defaultLocale)?.has(page.path)
            ? [{ hreflang: 'x-default', href: urlOf(layout.defaultLocale) }]
            : []),
        ]
      : [];
  const modified = lastmod(updated);
  return { loc: urlOf(page.locale), ...(modified ? { lastmod: modified } : {}), alternates };
}

function urlset(entries: SitemapEntry[]): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
  ];
  for (const entry of entries) {
    lines.push('  <url>', `    <loc>${xml(entry.loc)}</loc>`);
    if (entry.lastmod) lines.push(`    <lastmod>${entry.lastmod}</lastmod>`);
    for (const alternate of entry.alternates) {
      lines.push(
        `    <xhtml:link rel="alternate" hreflang="${xml(alternate.hreflang)}" href="${xml(alternate.href)}"/>`,
      );
    }
    lines.push('  </url>');
  }
  lines.push('</urlset>', '');
  return lines.join('\n');
}
