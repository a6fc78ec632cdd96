import type { AccessMode } from '../config/types.js';
import { KitError } from '../errors/kit-error.js';
import type { KitEventMap } from '../events/types.js';
import type { VersionInfo } from '../model/types.js';
import type { DocSet, KitEvents, Viewer } from '../ports/docset.js';
import type { SearchDriver, SearchHit, SearchResult, SearchScope } from '../ports/search-driver.js';
import type { Scopes } from './scope.js';
import type { IndexState, SearchIndexes } from './search-index.js';
import { MAX_SEARCH_LIMIT, normalizeSearchLimit, normalizeSearchSections } from './search-limit.js';
import type { ViewerAccess } from './viewer-access.js';

const SEARCH_QUERY_LIMIT = 1000;

/** `search_docs` and the browser search index, for one set: each viewer gets only pages they may open. */
export function createSearchDocs(options: {
  set: string;
  mode: AccessMode;
  origin: string;
  events: KitEvents;
  search: SearchDriver;
  scopes: Scopes;
  indexes: SearchIndexes;
  access: ViewerAccess;
}): Pick<DocSet, 'search' | 'clientSearchIndex'> {
  const { set, origin, search, scopes, indexes, access } = options;

  /** Whether gates may refuse single pages of an index's audience, so its hits are checked per viewer. */
  const gatesSinglePages = (scope: SearchScope) => options.mode === 'gate' || scope.audience === 'private';

  /** Whether a viewer may open one page of a search index (by the visibility it was indexed with). */
  const indexedPageAllowed = async (
    viewer: Viewer,
    version: VersionInfo,
    locale: string,
    path: string,
    state: IndexState,
  ) => access.allowed(viewer, { version, locale, page: path, pageVisibility: state.visibility.get(path) ?? 'private' });

  return {
    async search(input, viewer, from): Promise<SearchResult> {
      const query = checkQuery(input.query);
      const limit = normalizeSearchLimit(input.limit);
      const sections = normalizeSearchSections(input.sections);
      const { scope, searchScope } = await scopes.searchScopeFor(input, viewer);
      const version = scope.version;
      const locale = scope.locale.code;
      const state = await indexes.indexFor(searchScope, version, scope.layout);
      // Gates may refuse single pages; ask the driver for more (up to its maximum) and drop those.
      const perPage = gatesSinglePages(searchScope);
      const hits =
        query === ''
          ? []
          : await search.search(searchScope, query, {
              limit: perPage ? Math.min(limit * 3, MAX_SEARCH_LIMIT) : limit,
              sections,
            });
      const results = [];
      const allowedPaths = new Map<string, boolean>();
      for (const hit of hits) {
        if (results.length >= limit) break;
        if (perPage) {
          let allowed = allowedPaths.get(hit.path);
          if (allowed === undefined) {
            allowed = await indexedPageAllowed(viewer, version, locale, hit.path, state);
            allowedPaths.set(hit.path, allowed);
          }
          if (!allowed) continue;
        }
        results.push(withOrigin(origin, hit, sections));
      }
      options.events.emit('SearchPerformed', {
        set,
        version: version.id,
        locale,
        query,
        results: results.length,
        source: from,
      } satisfies KitEventMap['SearchPerformed']);
      return { set, version: version.id, query, results };
    },

    async clientSearchIndex(input, viewer) {
      if (!search.clientIndex) return null;
      const { scope, searchScope } = await scopes.searchScopeFor(input, viewer);
      const state = await indexes.indexFor(searchScope, scope.version, scope.layout);
      // One index serves every viewer of an audience. A viewer a gate refuses any of its pages gets
      // none rather than one holding pages they may not open; the reader then searches through the
      // server, which drops refused pages per viewer.
      if (gatesSinglePages(searchScope)) {
        for (const path of state.visibility.keys()) {
          if (!(await indexedPageAllowed(viewer, scope.version, scope.locale.code, path, state))) return null;
        }
      }
      return search.clientIndex(searchScope);
    },
  };
}

/** The query, trimmed; refuses one that is not text or is too long. */
function checkQuery(raw: unknown): string {
  if (typeof raw !== 'string') {
    throw new KitError('search.invalid_query', 'search_docs needs a query: the words to look for.');
  }
  const query = raw.trim();
  if (query.length > SEARCH_QUERY_LIMIT) {
    throw new KitError(
      'search.invalid_query',
      `The query is ${query.length} characters long; keep it under ${SEARCH_QUERY_LIMIT}. Search for the key words only.`,
    );
  }
  return query;
}

/**
 * A hit with absolute URLs when the set has an origin. Every result lists its page's other matching
 * sections, none when the driver found one a page.
 */
function withOrigin(origin: string, hit: SearchHit, sections: number): SearchHit {
  return {
    ...hit,
    url: absolute(origin, hit.url),
    markdown_url: absolute(origin, hit.markdown_url),
    sections: (hit.sections ?? [])
      .slice(0, sections - 1)
      .map((section) => ({ ...section, url: absolute(origin, section.url) })),
  };
}

function absolute(origin: string, url: string): string {
  return origin !== '' && url.startsWith('/') ? origin + url : url;
}
