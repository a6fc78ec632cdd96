import { type DocSet, isRequestError } from '@kit/core';
import { renderSearchPage } from '@kit/render';
import type { ReaderAssets } from '@kit/render/assets';
import type { Context, Hono } from 'hono';
import { sendCached } from '../http-cache.js';
import type { KitEnv } from '../middleware.js';
import type { KitAppOptions } from '../options.js';
import { readerSearchView } from '../reader-view.js';
import { isPrivateFor, viewerFor } from '../request/caller.js';
import { PAGE_VARY, wantsHtml } from '../request/negotiation.js';
import type { SetFileUrls } from '../static-files.js';
import type { SetGuards } from './guards.js';
import { notFound, viewContext } from './reader-context.js';

/** What the search routes of a set need. */
export interface SearchRouteParts {
  set: DocSet;
  options: KitAppOptions;
  assets: Promise<ReaderAssets>;
  fileUrls: () => Promise<SetFileUrls>;
  guards: SetGuards;
}

/**
 * `GET /_kit/search` (JSON, or the results page for a browser) and `GET /_kit/search-index/...`,
 * the index the reader's client-side search loads.
 */
export function searchRoutes(app: Hono<KitEnv>, parts: SearchRouteParts): void {
  const { set, guards } = parts;
  app.get('/_kit/search', guards.page, guards.signIn, async (c) => {
    const limit = c.req.query('limit');
    const sections = c.req.query('sections');
    // A browser (a form sent without the script, the header's search link) gets the results page.
    const page = wantsHtml(c.req.header('accept'));
    try {
      if (page) return await searchPage(c, parts);
      const result = await set.search(
        {
          query: c.req.query('q') ?? '',
          ...(c.req.query('version') ? { version: c.req.query('version')! } : {}),
          ...(c.req.query('locale') ? { locale: c.req.query('locale')! } : {}),
          ...(limit !== undefined ? { limit: Number(limit) } : {}),
          ...(sections !== undefined ? { sections: Number(sections) } : {}),
        },
        viewerFor(c),
        'http',
      );
      return sendCached(c, JSON.stringify(result), {
        contentType: 'application/json; charset=utf-8',
        isPrivate: isPrivateFor(set, c),
        // Browsers get the results page at this URL: a cache must not hand them this JSON.
        headers: { Vary: PAGE_VARY },
      });
    } catch (error) {
      if (isRequestError(error))
        return c.json({ error: error.code, message: error.message }, error.code.endsWith('not_found') ? 404 : 400);
      throw error;
    }
  });

  app.get('/_kit/search-index/:version/:file', guards.page, guards.signIn, async (c) => {
    const locale = c.req.param('file')!.replace(/\.json$/, '');
    const index = await set
      .clientSearchIndex({ version: c.req.param('version')!, locale }, viewerFor(c))
      .catch((error: unknown) => (isRequestError(error) ? null : Promise.reject(error)));
    if (!index) return c.notFound();
    return sendCached(c, index.body, { contentType: index.contentType, isPrivate: isPrivateFor(set, c) });
  });
}

/**
 * The server-rendered search page: the query searched in the version and locale the form sent
 * (else the set's defaults), for this viewer, as `set.search` filters it. An empty query shows the
 * form alone. Private to a viewer who may see private pages, like the JSON answer.
 */
async function searchPage(c: Context, { set, options, assets, fileUrls }: SearchRouteParts): Promise<Response> {
  const built = await assets;
  const files = await fileUrls();
  const query = (c.req.query('q') ?? '').slice(0, 500);
  const version = c.req.query('version') || undefined;
  const locales = await set.locales();
  const locale =
    locales.find((candidate) => candidate.code === c.req.query('locale'))?.code ??
    (locales.find((candidate) => candidate.default) ?? locales[0])?.code ??
    'en';
  const result = query.trim()
    ? await set.search({ query, ...(version ? { version } : {}), locale, limit: 20, sections: 3 }, viewerFor(c), 'http')
    : null;
  const versions = await set.versions(viewerFor(c));
  const shownVersion =
    result?.version ??
    versions.find((candidate) => candidate.id === version)?.id ??
    (versions.find((candidate) => candidate.default) ?? versions[0])?.id;
  if (!shownVersion) return notFound(c, set, options, built);
  const context = await viewContext(c, set, options, built, files);
  const view = await readerSearchView(
    context,
    { version: shownVersion, locale },
    query,
    // Each page once, its best section first and its other matching sections under it.
    (result?.results ?? []).flatMap((hit) => [
      { title: hit.title, url: hit.url, heading: hit.heading, snippet: hit.snippet },
      ...(hit.sections ?? []).map((section) => ({
        title: hit.title,
        url: section.url,
        heading: section.heading,
        snippet: section.snippet,
      })),
    ]),
  );
  return c.body(renderSearchPage(view), 200, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': isPrivateFor(set, c) ? 'private, no-cache' : 'no-cache',
    Vary: PAGE_VARY,
  });
}
