export type { AccessDecision, AccessRefusal, AccessRequest } from './access/access.js';
export {
  canAsk,
  canManage,
  canReviewChanges,
  decideAccess,
  isSharedResponse,
  isSignedIn,
  seesAnyVersion,
  visibilityOf,
} from './access/access.js';
export type { AgentLinks, AgentMarkdownSize } from './agents/ask.js';
export { agentLinksFor, agentMarkdownSizes, askMarkdown } from './agents/ask.js';
export { LLMS_TXT_DIRECTIVE, llmsTxtDirectiveMarkdown, withLlmsTxtDirective } from './agents/directive.js';
export type { AgentFileBundle } from './agents/llms-txt.js';
export { buildLlmsFullTxt, buildLlmsTxt } from './agents/llms-txt.js';
export type {
  AgentFile,
  AgentFileOptions,
  AgentFileScope,
  AgentPageEntry,
  AgentPageGroup,
  AgentScope,
} from './agents/scope.js';
export {
  agentFilePath,
  pageGroups,
  resolveAgentScope,
  setFilePath,
  UNLISTED_GROUP_LABEL,
} from './agents/scope.js';
export type { McpCatalog, McpCatalogEntry, SiteLlmsTxtEntry } from './agents/site-root.js';
export { buildMcpCatalog, buildRobotsTxt, buildSiteLlmsTxt } from './agents/site-root.js';
export { buildSitemap, SITEMAP_MAX_URLS } from './agents/sitemap.js';
export type { AgentSkillsIndex, AgentSkillsIndexEntry, HandWrittenSkill, SkillMd } from './agents/skills.js';
export {
  AGENT_SKILLS_SCHEMA_URL,
  buildAgentSkillsIndex,
  buildSkillMd,
  isSkillName,
  listHandWrittenSkills,
  listsSkills,
  SKILL_DESCRIPTION_MAX,
  SKILL_NAME_MAX,
  sha256Digest,
  toSkillName,
} from './agents/skills.js';
export { effectiveLimit, groupSlug, MIN_AGENT_FILE_LIMIT, packParts } from './agents/split.js';
export type {
  DeleteAssetArguments,
  WriteAssetArguments,
  WriteAssetFileArguments,
} from './authoring/asset-tools.js';
export { assetNameOf, deleteAssetTool, writeAssetFile, writeAssetTool } from './authoring/asset-tools.js';
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
export {
  addedSecret,
  findSecret,
  findSecrets,
  frontmatterRefusal,
  namesSecret,
  revealHidden,
  SECRET_RULES_VERSION,
  type SecretFinding,
} from './authoring/secrets.js';
export type { MemoryCacheStoreOptions } from './cache/cache-stores.js';
export {
  createArrayCacheStore,
  createMemoryCacheStore,
  createNullCacheStore,
  DEFAULT_MEMORY_CACHE_BYTES,
  DEFAULT_MEMORY_CACHE_ENTRIES,
  prefixCacheStore,
} from './cache/cache-stores.js';
export type { ConfigDefaults } from './config/defaults.js';
export { configDefaults, INSTRUCTIONS_INDEX_MIN_BYTES } from './config/defaults.js';
export { defineConfig } from './config/define.js';
export type { KitEnv } from './config/env.js';
export { isHooksOff, isTestEnvironment, KIT_ENV_VARIABLES } from './config/env.js';
export type { ResolveConfigOptions } from './config/resolve.js';
export { cacheStoreFor, defaultNames, resolveConfig } from './config/resolve.js';
export type * from './config/types.js';
export type { ConfigCheck, ConfigIssue } from './config/validate.js';
export { checkConfig } from './config/validate.js';
export { isPostgresSchemaName, POSTGRES_SCHEMA_NAME_RULE } from './config/postgres-name.js';
export type { CreateDocSetOptions, RuntimeDocSet } from './docset/docset.js';
export {
  createDocSet,
  FEEDBACK_COMMENT_LIMIT,
  withContentHashLine,
  withoutContentHashLine,
} from './docset/docset.js';
export type { CreateKitOptions, WarmKitOptions } from './docset/kit.js';
export { createKit, setOfUrl, warmKit } from './docset/kit.js';
export { MIN_READ_CHARS } from './docset/read-parts.js';
export { contextUrls, createRenderContext, mayIncludeSnippets } from './docset/render-context.js';
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
export type { KitErrorCode } from './errors/kit-error.js';
export { isKitError, isRequestError, KitError } from './errors/kit-error.js';
export type { CreateEventsOptions, KitEventEmitter, KitEventError } from './events/emitter.js';
export { createEvents } from './events/emitter.js';
export { KIT_EVENT_NAMES } from './events/names.js';
export type * from './events/types.js';
export type { DecodedAsset } from './files/asset-content.js';
export { assetDataUrl, dataUrlSize, decodeAssetContent, readAssetDataUrl } from './files/asset-content.js';
export type { AssetCandidate, AssetRefusal, AssetRule, AssetVerdict } from './files/asset-rules.js';
export {
  ASSET_EXTENSIONS,
  assetNameRefusal,
  assetRefusal,
  checkAsset,
  isTextAssetName,
  MAX_ASSET_BYTES,
} from './files/asset-rules.js';
export {
  fileContentType,
  fileExtension,
  inlineFileType,
  isSecretSegment,
  isServableFileName,
  looksLikeFile,
} from './files/file-names.js';
export { bytesContentHash, contentHash, isContentHash, normalizeForHash } from './hash/content-hash.js';
export { isAllowedHost } from './http/allowed-hosts.js';
export type { BoundedBody } from './http/bounded-body.js';
export { readBoundedText } from './http/bounded-body.js';
export type { ClientAddressInput, ProxyTrust, TrustedProxies } from './http/client-address.js';
export {
  clientAddress,
  compileProxyTrust,
  invalidProxyEntries,
  NAMED_PROXY_RANGES,
  UNKNOWN_ADDRESS,
} from './http/client-address.js';
export type { ManifestDocument } from './manifest/document.js';
export { readManifestDocument, serializeManifest } from './manifest/document.js';
export type { LinkPolicy } from './manifest/links.js';
export { isProtocolRelative, isSafeLink, LINK_SCHEMES } from './manifest/links.js';
export { localeDirection, localeLabel } from './manifest/locales.js';
export { applyMergePatch, cloneJson } from './manifest/merge-patch.js';
export type { ManifestResult } from './manifest/normalize.js';
export {
  INSERT_POINTS,
  MANIFEST_DEFAULTS,
  MANIFEST_KEYS,
  normalizeManifest,
  parseManifestText,
} from './manifest/normalize.js';
export { applyManifestPatch, PATCHABLE_MANIFEST_KEYS } from './manifest/patch.js';
export type * from './model/types.js';
export { DERIVED_ROOT_GROUP_LABEL, deriveNavigation, labelFromFolder } from './navigation/derive.js';
export type { NavigationPage } from './navigation/pages.js';
export { navigationGroups, navigationPages } from './navigation/pages.js';
export type { NavigationResult } from './navigation/parse.js';
export { normalizeNavigation, normalizeNavPath, parseNavigation } from './navigation/parse.js';
export type { NavigationPatchOp } from './navigation/patch.js';
export { applyNavigationPatch } from './navigation/patch.js';
export type {
  AuthorDocsMigration,
  AuthorOutcome,
  AuthorRevision,
  AuthorToolResult,
  AuthorValidation,
} from './outcomes/outcomes.js';
export {
  applied,
  authorOutcomes,
  checkBasedOn,
  conflicted,
  outcomeForChange,
  rejected,
  summarizeValidation,
  unchanged,
} from './outcomes/outcomes.js';
export { nearestPages, type SuggestablePage } from './pages/nearest-pages.js';
export type { ParsedPageFile } from './pages/page-file.js';
export { composePageFile, firstHeading, parsePageFile } from './pages/page-file.js';
export type * from './ports/cache-store.js';
export type * from './ports/content-source.js';
export type * from './ports/content-writer.js';
export type * from './ports/docset.js';
export type * from './ports/renderer.js';
export type * from './ports/review-store.js';
export type * from './ports/search-driver.js';
export type * from './ports/source-history.js';
export { STALE_SOURCES_SHOWN } from './ports/source-history.js';
export type {
  MemoryRateLimitStoreOptions,
  RateLimitRule,
  RateLimitStore,
  RateLimitVerdict,
} from './rate-limit/rate-limit.js';
export { checkRateLimit, createMemoryRateLimitStore, parseRateLimit } from './rate-limit/rate-limit.js';
export type { PageExists, RedirectMatch, RedirectRequest } from './redirects/redirects.js';
export { findRedirectLoops, findShadowedRedirects, matchRedirect } from './redirects/redirects.js';
export type { ReferenceInput, ReferenceRegistry } from './references/catalog.js';
export { createReferenceRegistry, defaultReferences, registerReferences } from './references/catalog.js';
export type { ReferenceLookup, ReferenceProblem } from './references/resolve.js';
export {
  globMatch,
  lookupEvent,
  lookupModel,
  lookupRoute,
  modelAllowed,
  nearestNames,
  routeAllowed,
  routeLabel,
} from './references/resolve.js';
export { eventTypes, schemaFields, toJsonSchema } from './references/schema-fields.js';
export type {
  ColumnReference,
  EventReference,
  ModelReference,
  ReferenceCatalog,
  ReferenceSettings,
  RouteInputTarget,
  RouteReference,
  SchemaField,
} from './references/types.js';
export type { DiffLine } from './review/diff.js';
export { diffLines, unifiedDiff } from './review/diff.js';
export type { DraftFile } from './review/draft-file.js';
export { draftFile } from './review/draft-file.js';
export type { SelfPublishQuestion } from './review/review-rule.js';
export { reviewerIdentity, SELF_PUBLISH_RULE, selfPublishRefusal, userIdentity } from './review/review-rule.js';
export type {
  DraftView,
  HistoryEntry,
  PageHistory,
  ReviewCall,
  ReviewOutcome,
  ReviewResult,
} from './review/review.js';
export {
  canReview,
  discardDraft,
  listDrafts,
  pageHistory,
  publishDraft,
  restorePageChange,
  reviewAccess,
  reviewOutcomes,
  revisionDiff,
  showDraft,
  toAuthorRevision,
} from './review/review.js';
export type { ValidationIssue, ValidationReport } from './schemas/documents.js';
export { validateFrontmatter } from './schemas/documents.js';
export type { JsonTextResult, TextPosition } from './schemas/json-text.js';
export { parseJsonText, positionAt } from './schemas/json-text.js';
export type { SchemaIssue, SchemaName } from './schemas/registry.js';
export {
  MANIFEST_SCHEMA_PATH,
  MANIFEST_SCHEMA_URL,
  manifestSchemaUrl,
  readablePath,
  rebaseSchema,
  SCHEMA_BASE_URL,
  schemaNames,
  schemas,
  upgradedManifestSchema,
  validateAgainstSchema,
  withManifestSchema,
} from './schemas/registry.js';
export {
  MAX_PAGE_PATH_BYTES,
  MAX_PAGE_SEGMENT_BYTES,
  pagePathProblem,
  showPagePath,
} from './urls/page-path.js';
export type { PathScope } from './urls/servable.js';
export { unservablePagePath } from './urls/servable.js';
export type { LinkBase, ParsedSetUrl, UrlLayout, UrlTarget } from './urls/set-urls.js';
export {
  candidatePaths,
  canonicalPageLink,
  cleanPagePath,
  contentFolder,
  createUrlLayout,
  fileCandidates,
  fileUrl,
  linkBaseOf,
  markdownUrl,
  mcpEndpointPath,
  normalizePrefix,
  pageUrl,
  parseSetUrl,
  rebaseLink,
  resolveFilePath,
  restrictVersions,
  rootUrl,
} from './urls/set-urls.js';
export { deepMerge, isPlainObject } from './util/deep-merge.js';
export { editDistance, nearestKey } from './util/nearest-key.js';
export type { LinkOrigin, LinkTarget } from './validate/links.js';
export { hasAnchor, resolveLinkTarget } from './validate/links.js';
export type {
  RenderContextInput,
  SearchBudgetCheck,
  SearchBudgetReport,
  ValidateDocSetOptions,
  ValidationRenderer,
} from './validate/validate.js';
export { mergeValidationReports, VALIDATION_RULES, validateDocSet } from './validate/validate.js';
