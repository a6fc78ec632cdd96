import { isRequestError } from '../errors/kit-error.js';
import type { DocSet, Viewer } from '../ports/docset.js';
import { pageUrl } from '../urls/set-urls.js';
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
  const origin = cleanOrigin(options.origin);
  const maxUrls = Math.max(1, Math.min(options.maxUrls ?? SITEMAP_MAX_URLS, SITEMAP_MAX_URLS));
  const { layout } = await layoutOf(set);
  if (!(await set.canView(GUEST, {}))) return [];
  const versions = await set.versions(GUEST);
  const entries: SitemapEntry[] = [];
  for (const version of versions) {
    const byLocale = new Map<string, Map<string, string | undefined>>();
    for (const locale of layout.locales) {
      let pages: Awaited<ReturnType<DocSet['visiblePages']>>;
      try {
        pages = await set.visiblePages({ version: version.id, locale: locale.code }, GUEST);
      } catch (error) {
        // A locale the guest cannot see has no URLs; a source that cannot read its pages fails the sitemap.
        if (!isRequestError(error)) throw error;
        continue;
      }
      byLocale.set(locale.code, new Map(pages.map((page) => [page.path, page.updatedAt])));
    }
    for (const [code, pages] of byLocale) {
      for (const [path, updated] of pages) {
        const urlOf = (locale: string) => origin + pageUrl(layout, { version: version.id, locale, path });
        const present = layout.locales.filter((locale) => byLocale.get(locale.code)?.has(path));
        const alternates =
          present.length > 1
            ? [
                ...present.map((locale) => ({ hreflang: locale.code, href: urlOf(locale.code) })),
                ...(byLocale.get(layout.defaultLocale)?.has(path)
                  ? [{ hreflang: 'x-default', href: urlOf(layout.defaultLocale) }]
                  : []),
              ]
            : [];
        const modified = lastmod(updated);
        entries.push({ loc: urlOf(code), ...(modified ? { lastmod: modified } : {}), alternates });
      }
    }
  }
  if (entries.length === 0) return [];
  const mainPath = setFilePath(layout, 'sitemap.xml');
  if (entries.length <= maxUrls) return [{ path: mainPath, text: urlset(entries) }];
  const files: AgentFile[] = [];
  for (let start = 0; start < entries.length; start += maxUrls) {
    files.push({
      path: setFilePath(layout, `sitemap-${files.length + 1}.xml`),
      text: urlset(entries.slice(start, start + maxUrls)),
    });
  }
  const index = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...files.map((file) => `  <sitemap>\n    <loc>${xml(origin + file.path)}</loc>\n  </sitemap>`),
    '</sitemapindex>',
    '',
  ].join('\n');
  return [{ path: mainPath, text: index }, ...files];
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
