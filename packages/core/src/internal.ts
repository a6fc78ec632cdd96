/**
 * `@kit/core/internal`: what Kit's own packages (`@kit/render`, `@kit/search`, the sources, the
 * doors and `@kit/node`) need from core beyond its public entry. It is for Kit's own packages:
 * it carries no semver promise, and any name here may change or go in any release. Applications,
 * sources, drivers and renderers written outside Kit import from `@kit/core`, whose list of names
 * `src/index.test.ts` pins.
 *
 * @packageDocumentation
 */
export { isSharedResponse, isSignedIn } from './access/access.js';
export { LLMS_TXT_DIRECTIVE, withLlmsTxtDirective } from './agents/directive.js';
export type { AgentFileLookup, AgentFileRequest } from './agents/llms-txt.js';
export { buildLlmsFullTxtFile, buildLlmsTxtFile } from './agents/llms-txt.js';
export type { SiteLlmsTxtEntry } from './agents/site-root.js';
export { buildMcpCatalog, buildRobotsTxt, buildSiteLlmsTxt } from './agents/site-root.js';
export type { SitemapFileOptions } from './agents/sitemap.js';
export { buildSitemapFile } from './agents/sitemap.js';
export { listsSkills } from './agents/skills.js';
export type { DeleteAssetArguments, WriteAssetArguments, WriteAssetFileArguments } from './authoring/asset-tools.js';
export { deleteAssetTool, writeAssetFile, writeAssetTool } from './authoring/asset-tools.js';
export type {
  AuthorArguments,
  AuthorCall,
  DeletePageArguments,
  MovePageArguments,
  UpdateManifestArguments,
  UpdateNavigationArguments,
  WritePageArguments,
} from './authoring/author-tools.js';
export {
  authorAccess,
  deletePageTool,
  movePageTool,
  updateManifestTool,
  updateNavigationTool,
  writePageTool,
} from './authoring/author-tools.js';
export { findSecrets } from './authoring/secrets.js';
export { isHooksOff, isTestEnvironment } from './config/env.js';
export { isPostgresSchemaName, POSTGRES_SCHEMA_NAME_RULE } from './config/postgres-name.js';
export { defaultNames } from './config/resolve.js';
export { FEEDBACK_COMMENT_LIMIT, withoutContentHashLine } from './docset/docset.js';
export { setOfUrl } from './docset/kit.js';
export { MIN_READ_CHARS } from './docset/read-parts.js';
export { contextUrls, mayIncludeSnippets } from './docset/render-context.js';
export {
  assertSearchQuery,
  DEFAULT_SEARCH_LIMIT,
  DEFAULT_SEARCH_SECTIONS,
  MAX_SEARCH_LIMIT,
  MAX_SEARCH_SECTIONS,
  normalizeSearchLimit,
  normalizeSearchSections,
} from './docset/search-limit.js';
export { searchSectionsOf } from './docset/search-sections.js';
export { assetDataUrl, readAssetDataUrl } from './files/asset-content.js';
export {
  fileContentType,
  fileExtension,
  isSecretSegment,
  isServableFileName,
  looksLikeFile,
} from './files/file-names.js';
export { isAllowedHost } from './http/allowed-hosts.js';
export { readBoundedText } from './http/bounded-body.js';
export type { ProxyTrust } from './http/client-address.js';
export { clientAddress, compileProxyTrust, UNKNOWN_ADDRESS } from './http/client-address.js';
export { localeDirection } from './manifest/locales.js';
export { INSERT_POINTS, MANIFEST_DEFAULTS } from './manifest/normalize.js';
export { DERIVED_ROOT_GROUP_LABEL } from './navigation/derive.js';
export { authorOutcomes, checkBasedOn, rejected } from './outcomes/outcomes.js';
export { nearestPages } from './pages/nearest-pages.js';
export { checkRateLimit, parseRateLimit } from './rate-limit/rate-limit.js';
export type { ReferenceRegistry } from './references/catalog.js';
export { createReferenceRegistry } from './references/catalog.js';
export type { ReferenceLookup } from './references/resolve.js';
export { lookupEvent, lookupModel, lookupRoute } from './references/resolve.js';
export { schemaFields } from './references/schema-fields.js';
export type { DiffLine } from './review/diff.js';
export { diffLines } from './review/diff.js';
export type { DraftFile } from './review/draft-file.js';
export { draftFile } from './review/draft-file.js';
export type { DraftView, HistoryEntry, PageHistory, ReviewCall, ReviewOutcome, ReviewResult } from './review/review.js';
export {
  canReview,
  discardDraft,
  listDrafts,
  pageHistory,
  publishDraft,
  restorePageChange,
  reviewOutcomes,
  revisionDiff,
  toAuthorRevision,
} from './review/review.js';
export { SELF_PUBLISH_RULE, selfPublishRefusal, userIdentity } from './review/review-rule.js';
export type { SchemaName } from './schemas/registry.js';
export { manifestSchemaUrl, rebaseSchema, schemaNames, schemas, withManifestSchema } from './schemas/registry.js';
export { pagePathProblem, showPagePath } from './urls/page-path.js';
export type { PathScope } from './urls/servable.js';
export { unservablePagePath } from './urls/servable.js';
export {
  canonicalPageLink,
  cleanPagePath,
  contentFolder,
  mcpEndpointPath,
  normalizePrefix,
  rebaseLink,
  resolveFilePath,
} from './urls/set-urls.js';
