export type { InsertOptions } from './components/inserts.js';
export { INSERT_POINTS, insertDisabled, renderInsert } from './components/inserts.js';
export type {
  ComponentContext,
  ComponentDefinition,
  ComponentProps,
  ComponentRegistry,
} from './components/registry.js';
export {
  createComponentRegistry,
  defaultComponents,
  escapeHtml,
  parseProps,
  registerComponent,
} from './components/registry.js';
export { filterTags } from './html/tagfilter.js';
export { isSafeUrl, replaceVersion, resolveLink } from './links/links.js';
export type { AnalyticsInput, AnalyticsOptions } from './reader/analytics.js';
export { analyticsForSet, analyticsScripts } from './reader/analytics.js';
export { enhanceArticleHtml } from './reader/article.js';
export type { ReaderClientConfig } from './reader/client-config.js';
export type { ClientIndexQuery, ClientSearchHit } from './reader/client-logic.js';
export { renderNotFoundPage, renderReaderPage, renderSearchPage } from './reader/layout.js';
export { navListingHref } from './reader/layout-nav-items.js';
export { renderNavPage } from './reader/layout-nav-page.js';
export { SIDEBAR_FULL_ENTRIES, SIDEBAR_WINDOW } from './reader/layout-sidebar-bounded.js';
export { DEFAULT_READER_STRINGS } from './reader/strings.js';
export { colorModeScript, themeCss } from './reader/theme.js';
export {
  READER_TRANSLATION_LANGUAGES,
  readerTranslation,
  TRANSLATED_READER_STRINGS,
} from './reader/translations/index.js';
export type {
  ReaderAssetUrls,
  ReaderLink,
  ReaderLocale,
  ReaderNavExternal,
  ReaderNavGroup,
  ReaderNavItem,
  ReaderNavListing,
  ReaderNavListingGroup,
  ReaderNavListingItem,
  ReaderNavPage,
  ReaderNavPageView,
  ReaderNavTab,
  ReaderNotFoundView,
  ReaderPageActions,
  ReaderPageView,
  ReaderProvenance,
  ReaderSearch,
  ReaderSearchHit,
  ReaderSearchPageView,
  ReaderSidebar,
  ReaderSiteView,
  ReaderStrings,
  ReaderTheme,
  ReaderVersion,
} from './reader/types.js';
export type {
  KitRenderer,
  RenderExecutor,
  RendererOptions,
  RenderFreshOptions,
  RenderOutcome,
} from './render/renderer.js';
export { createRenderer, pageTooComplex } from './render/renderer.js';
export { extractSection, sectionsFromMarkdown } from './sections/sections.js';
export type { SnippetDirective, SnippetReader } from './snippets/policy.js';
export { checkSnippetPath, parseSnippetDirective, selectSnippet, snippetRefused } from './snippets/policy.js';
