// The public surface of @kit/core, pinned: a name added to or removed from src/index.ts fails this
// test until the list below is updated on purpose (and a changeset says so). What only Kit's own
// packages need goes to src/internal.ts (`@kit/core/internal`), which has no such promise.
//
// The names are read with the TypeScript 5.9 compiler API (`typescript-api`), so type-only exports
// (the ports, the config and model types) are pinned as well as the runtime ones.
import { fileURLToPath } from 'node:url';
import ts from 'typescript-api';
import { describe, expect, it } from 'vitest';

/** Every name a module exports, split into runtime values and types, each list sorted. */
function exportsOf(file: string): { values: string[]; types: string[] } {
  const program = ts.createProgram([file], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    resolveJsonModule: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`Cannot read ${file}.`);
  const module = checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`${file} is not a module.`);
  const values: string[] = [];
  const types: string[] = [];
  for (const symbol of checker.getExportsOfModule(module)) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    (target.flags & ts.SymbolFlags.Value ? values : types).push(symbol.name);
  }
  return { values: values.sort(), types: types.sort() };
}

const entry = (path: string) => fileURLToPath(new URL(path, import.meta.url));

describe('the public entry of @kit/core', () => {
  const { values, types } = exportsOf(entry('./index.ts'));

  it('exports exactly these runtime names', () => {
    expect(values).toEqual([
      'ASSET_EXTENSIONS',
      'KIT_EVENT_NAMES',
      'KitError',
      'MAX_ASSET_BYTES',
      'STALE_SOURCES_SHOWN',
      'VALIDATION_RULES',
      'agentLinksFor',
      'agentMarkdownSizes',
      'applyManifestPatch',
      'applyNavigationPatch',
      'askMarkdown',
      'assetRefusal',
      'buildAgentSkillsIndex',
      'buildLlmsFullTxt',
      'buildLlmsTxt',
      'buildSitemap',
      'buildSkillMd',
      'bytesContentHash',
      'cacheStoreFor',
      'canAsk',
      'canManage',
      'checkAsset',
      'checkConfig',
      'composePageFile',
      'configDefaults',
      'contentHash',
      'createArrayCacheStore',
      'createDocSet',
      'createEvents',
      'createKit',
      'createMemoryCacheStore',
      'createMemoryRateLimitStore',
      'createNullCacheStore',
      'createRenderContext',
      'createUrlLayout',
      'decideAccess',
      'defaultReferences',
      'defineConfig',
      'deriveNavigation',
      'eventTypes',
      'findRedirectLoops',
      'findShadowedRedirects',
      'isKitError',
      'isRequestError',
      'isSafeLink',
      'listHandWrittenSkills',
      'markdownUrl',
      'matchRedirect',
      'mergeValidationReports',
      'navigationPages',
      'normalizeForHash',
      'normalizeManifest',
      'normalizeNavigation',
      'pageUrl',
      'parseManifestText',
      'parseNavigation',
      'parsePageFile',
      'parseSetUrl',
      'prefixCacheStore',
      'readManifestDocument',
      'registerReferences',
      'resolveConfig',
      'seesAnyVersion',
      'serializeManifest',
      'validateDocSet',
      'warmKit',
    ]);
  });

  it('exports exactly these types', () => {
    expect(types).toEqual([
      'AccessDecision',
      'AccessMode',
      'AccessRefusal',
      'AccessRequest',
      'AgentFile',
      'AgentFileBundle',
      'AgentFileOptions',
      'AgentLinks',
      'AgentMarkdownSize',
      'AgentSkillsIndex',
      'AgentSkillsIndexEntry',
      'AgentsInput',
      'AnalyticsConfig',
      'AskInput',
      'AssetCandidate',
      'AssetRefusal',
      'AssetRule',
      'AssetVerdict',
      'AuthorDocsMigration',
      'AuthorOutcome',
      'AuthorRevision',
      'AuthorToolName',
      'AuthorToolResult',
      'AuthorValidation',
      'CacheSetOptions',
      'CacheStore',
      'ChangeRecord',
      'ColumnReference',
      'ConfigCheck',
      'ConfigDefaults',
      'ConfigIssue',
      'ConnectionConfig',
      'ContentChange',
      'ContentSource',
      'ContentWriter',
      'CreateDocSetOptions',
      'CreateEventsOptions',
      'CreateKitOptions',
      'DiscardOutcome',
      'DiskConfig',
      'DocSet',
      'DraftChange',
      'EventReference',
      'ExpectedContent',
      'FileView',
      'Gate',
      'GateSubject',
      'Gates',
      'HandWrittenSkill',
      'HookFailurePolicy',
      'InsertPoint',
      'Kit',
      'KitConfigInput',
      'KitEnv',
      'KitErrorCode',
      'KitEventEmitter',
      'KitEventError',
      'KitEventHandler',
      'KitEventHandlers',
      'KitEventMap',
      'KitEventName',
      'KitEvents',
      'KitMiddleware',
      'KitSetInput',
      'KitUser',
      'LinkBase',
      'LinkItem',
      'LocaleInfo',
      'ManifestDocument',
      'ManifestResult',
      'McpWebInput',
      'MemoryCacheStoreOptions',
      'MemoryRateLimitStoreOptions',
      'ModelReference',
      'NavEntry',
      'NavGroup',
      'NavLink',
      'NavPageEntry',
      'NavTab',
      'NavigationFile',
      'NavigationPage',
      'NavigationPatchOp',
      'NavigationResult',
      'NavigationView',
      'NormalizedManifest',
      'PageActionName',
      'PageAddress',
      'PageExists',
      'PageListing',
      'PageRef',
      'PageRenderer',
      'PageSection',
      'PageUrlInput',
      'PageView',
      'ParsedPageFile',
      'ParsedSetUrl',
      'Provenance',
      'PublishOutcome',
      'QueueConfig',
      'RateLimitRule',
      'RateLimitStore',
      'RateLimitVerdict',
      'ReadPageInput',
      'ReadPageResult',
      'RedirectMatch',
      'RedirectRequest',
      'RedirectRule',
      'ReferenceCatalog',
      'ReferenceInput',
      'ReferenceSettings',
      'RenderContext',
      'RenderContextInput',
      'RenderedPage',
      'ResolveConfigOptions',
      'ResolvedConfig',
      'ResolvedSetConfig',
      'ReviewInput',
      'ReviewMode',
      'ReviewStore',
      'RevisionEntry',
      'RevisionState',
      'RouteInputTarget',
      'RouteReference',
      'RuntimeDocSet',
      'SchemaField',
      'SearchBudgetCheck',
      'SearchBudgetReport',
      'SearchDriver',
      'SearchDriverEntry',
      'SearchHit',
      'SearchHitSection',
      'SearchIndexOptions',
      'SearchInput',
      'SearchOptions',
      'SearchResult',
      'SearchScope',
      'SearchSection',
      'SetOwnSettings',
      'SetSharedInput',
      'SharedSettings',
      'SkillFile',
      'SkillMd',
      'SourceFile',
      'SourceFileContent',
      'SourceHistory',
      'SourcePage',
      'SourceProblem',
      'StaleSources',
      'SyncInput',
      'TextDirection',
      'TocEntry',
      'UrlLayout',
      'UrlMatch',
      'UrlTarget',
      'UserResolver',
      'ValidateDocSetOptions',
      'ValidationIssue',
      'ValidationRenderer',
      'ValidationReport',
      'VersionInfo',
      'VersionStatus',
      'Viewer',
      'Visibility',
      'WarmKitOptions',
      'WriteReceipt',
    ]);
  });

  it('has the runtime names the module has when loaded', async () => {
    expect(Object.keys(await import('./index.js')).sort()).toEqual(values);
  });

  it('shares no name with @kit/core/internal, declared in package.json like the node entry', async () => {
    const internal = exportsOf(entry('./internal.ts'));
    const inBoth = [...internal.values, ...internal.types].filter(
      (name) => values.includes(name) || types.includes(name),
    );
    expect(inBoth).toEqual([]);
    const manifest = (await import('../package.json', { with: { type: 'json' } })).default as {
      exports: Record<string, Record<string, string>>;
      publishConfig: { exports: Record<string, Record<string, string>> };
    };
    expect(Object.keys(manifest.exports['./internal']!)).toEqual(Object.keys(manifest.exports['./node']!));
    expect(manifest.publishConfig.exports['./internal']).toEqual({
      types: './dist/internal.d.ts',
      default: './dist/internal.js',
    });
  });
});
