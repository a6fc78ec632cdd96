export { sectionsFromMarkdown, extractSection } from './sections/sections.js';
export { createRenderer, pageTooComplex } from './render/renderer.js';
export type {
  KitRenderer,
  RenderExecutor,
  RendererOptions,
  RenderFreshOptions,
  RenderOutcome,
} from './render/renderer.js';
export {
  createComponentRegistry,
  registerComponent,
  defaultComponents,
  parseProps,
  escapeHtml,
} from './components/registry.js';
export type {
  ComponentContext,
  ComponentDefinition,
  ComponentProps,
  ComponentRegistry,
} from './components/registry.js';
export { renderInsert, insertDisabled, INSERT_POINTS } from './components/inserts.js';
export type { InsertOptions } from './components/inserts.js';
export { checkSnippetPath, parseSnippetDirective, selectSnippet, snippetRefused } from './snippets/policy.js';
export type { SnippetDirective, SnippetReader } from './snippets/policy.js';
export { filterTags } from './html/tagfilter.js';
export { isSafeUrl, resolveLink, replaceVersion } from './links/links.js';
export { renderNotFoundPage, renderReaderPage, renderSearchPage } from './reader/layout.js';
export { renderNavPage } from './reader/layout-nav-page.js';
export { SIDEBAR_FULL_ENTRIES, SIDEBAR_WINDOW } from './reader/layout-sidebar-bounded.js';
export { analyticsScripts, analyticsForSet } from './reader/analytics.js';
export type { AnalyticsInput, AnalyticsOptions } from './reader/analytics.js';
export { themeCss, colorModeScript } from './reader/theme.js';
export { enhanceArticleHtml } from './reader/article.js';
export { DEFAULT_READER_STRINGS } from './reader/strings.js';
export {
  READER_TRANSLATION_LANGUAGES,
  readerTranslation,
  TRANSLATED_READER_STRINGS,
} from './reader/translations/index.js';
export type {
  ReaderPageView,
  ReaderNotFoundView,
  ReaderPageActions,
  ReaderSearchHit,
  ReaderSearchPageView,
  ReaderSiteView,
  ReaderLink,
  ReaderNavItem,
  ReaderNavPage,
  ReaderNavGroup,
  ReaderNavExternal,
  ReaderNavTab,
  ReaderNavListing,
  ReaderNavListingItem,
  ReaderNavListingGroup,
  ReaderNavPageView,
  ReaderSidebar,
  ReaderVersion,
  ReaderLocale,
  ReaderTheme,
  ReaderSearch,
  ReaderProvenance,
  ReaderAssetUrls,
  ReaderStrings,
} from './reader/types.js';
export type { ReaderClientConfig } from './reader/client-config.js';
export type { ClientIndexQuery, ClientSearchHit } from './reader/client-logic.js';
