/**
 * `@kit/core`: the public surface. What an application composing Kit, or a source, search driver
 * or renderer written for it, needs: the config (`defineConfig`, `resolveConfig` and its types),
 * `createDocSet`, `createKit`, `createEvents`, the ports (`src/ports/`), errors, events, outcomes,
 * the manifest, navigation, URL, redirect and cache-store helpers the docs show, and the validation
 * report. `src/index.test.ts` pins this list: adding or removing a name is a decision. What only
 * Kit's own packages need is in `@kit/core/internal`, which carries no semver promise.
 *
 * @packageDocumentation
 */
export type { AccessDecision, AccessRefusal, AccessRequest } from './access/access.js';
export { canAsk, canManage, decideAccess, seesAnyVersion } from './access/access.js';
export type { AgentLinks, AgentMarkdownSize } from './agents/ask.js';
export { agentLinksFor, agentMarkdownSizes, askMarkdown } from './agents/ask.js';
export type { AgentFileBundle } from './agents/llms-txt.js';
export { buildLlmsFullTxt, buildLlmsTxt } from './agents/llms-txt.js';
export type { AgentFile, AgentFileOptions } from './agents/scope.js';
export { buildSitemap } from './agents/sitemap.js';
export type { AgentSkillsIndex, AgentSkillsIndexEntry, HandWrittenSkill, SkillMd } from './agents/skills.js';
export { buildAgentSkillsIndex, buildSkillMd, listHandWrittenSkills } from './agents/skills.js';
export type { MemoryCacheStoreOptions } from './cache/cache-stores.js';
export {
  createArrayCacheStore,
  createMemoryCacheStore,
  createNullCacheStore,
  prefixCacheStore,
} from './cache/cache-stores.js';
export type { ConfigDefaults } from './config/defaults.js';
export { configDefaults } from './config/defaults.js';
export { defineConfig } from './config/define.js';
export type { KitEnv } from './config/env.js';
export type { ResolveConfigOptions } from './config/resolve.js';
export { cacheStoreFor, resolveConfig } from './config/resolve.js';
export type * from './config/types.js';
export type { ConfigCheck, ConfigIssue } from './config/validate.js';
export { checkConfig } from './config/validate.js';
export type { CreateDocSetOptions, RuntimeDocSet } from './docset/docset.js';
export { createDocSet } from './docset/docset.js';
export type { CreateKitOptions, WarmKitOptions } from './docset/kit.js';
export { createKit, warmKit } from './docset/kit.js';
export { createRenderContext } from './docset/render-context.js';
export type { KitErrorCode } from './errors/kit-error.js';
export { isKitError, isRequestError, KitError } from './errors/kit-error.js';
export type { CreateEventsOptions, KitEventEmitter, KitEventError } from './events/emitter.js';
export { createEvents } from './events/emitter.js';
export { KIT_EVENT_NAMES } from './events/names.js';
export type * from './events/types.js';
export type { AssetCandidate, AssetRefusal, AssetRule, AssetVerdict } from './files/asset-rules.js';
export { ASSET_EXTENSIONS, assetRefusal, checkAsset, MAX_ASSET_BYTES } from './files/asset-rules.js';
export { bytesContentHash, contentHash, normalizeForHash } from './hash/content-hash.js';
export type { ManifestDocument } from './manifest/document.js';
export { readManifestDocument, serializeManifest } from './manifest/document.js';
export { isSafeLink } from './manifest/links.js';
export type { ManifestResult } from './manifest/normalize.js';
export { normalizeManifest, parseManifestText } from './manifest/normalize.js';
export { applyManifestPatch } from './manifest/patch.js';
export type * from './model/types.js';
export { deriveNavigation } from './navigation/derive.js';
export type { NavigationPage } from './navigation/pages.js';
export { navigationPages } from './navigation/pages.js';
export type { NavigationResult } from './navigation/parse.js';
export { normalizeNavigation, parseNavigation } from './navigation/parse.js';
export type { NavigationPatchOp } from './navigation/patch.js';
export { applyNavigationPatch } from './navigation/patch.js';
export type {
  AuthorDocsMigration,
  AuthorOutcome,
  AuthorRevision,
  AuthorToolResult,
  AuthorValidation,
} from './outcomes/outcomes.js';
export type { ParsedPageFile } from './pages/page-file.js';
export { composePageFile, parsePageFile } from './pages/page-file.js';
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
export { createMemoryRateLimitStore } from './rate-limit/rate-limit.js';
export type { PageExists, RedirectMatch, RedirectRequest } from './redirects/redirects.js';
export { findRedirectLoops, findShadowedRedirects, matchRedirect } from './redirects/redirects.js';
export type { ReferenceInput } from './references/catalog.js';
export { defaultReferences, registerReferences } from './references/catalog.js';
export { eventTypes } from './references/schema-fields.js';
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
export type { ValidationIssue, ValidationReport } from './schemas/documents.js';
export type { LinkBase, ParsedSetUrl, UrlLayout, UrlTarget } from './urls/set-urls.js';
export { createUrlLayout, markdownUrl, pageUrl, parseSetUrl } from './urls/set-urls.js';
export type {
  RenderContextInput,
  SearchBudgetCheck,
  SearchBudgetReport,
  ValidateDocSetOptions,
  ValidationRenderer,
} from './validate/validate.js';
export { mergeValidationReports, VALIDATION_RULES, validateDocSet } from './validate/validate.js';
