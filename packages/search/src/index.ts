// The limit and query rules belong to core; re-exported so drivers written against @kit/search find them here.
export {
  assertSearchQuery,
  DEFAULT_SEARCH_LIMIT,
  MAX_SEARCH_LIMIT,
  MAX_SEARCH_SECTIONS,
  normalizeSearchLimit,
  normalizeSearchSections,
} from '@kit/core/internal';
export type { ClientIndexReport, ClientSearchDriver, ClientSearchOptions } from './drivers/client.js';
export { createClientSearch, DEFAULT_BUDGET_KB, gzipSize, SERVER_SEARCH_FORMAT } from './drivers/client.js';
export type { SearchIndexCache, StoredIndex } from './drivers/index-cache.js';
export type { SearchDriverFactory, SearchDriverOptions } from './drivers/registry.js';
export { registerSearchDriver, resolveSearchDriver, searchDriverNames } from './drivers/registry.js';
export { assertSearchScope, scopeKey } from './drivers/scope.js';
export type { SearchIndexReport } from './drivers/scope-indexes.js';
export type { IndexablePage } from './drivers/sections.js';
export { toSearchSections } from './drivers/sections.js';
export type { IndexBuilder, ServerSearchOptions } from './drivers/server.js';
export { createServerSearch, WORKER_BUILD_FROM_SECTIONS } from './drivers/server.js';
export type { RankingParams } from './engine/rank.js';
export { DEFAULT_RANKING } from './engine/rank.js';
export { makeSnippet, SNIPPET_LENGTH } from './engine/snippet.js';
export type { QueryWord, Token } from './text/analyze.js';
export { analyzeQuery, tokenize } from './text/analyze.js';
