import { execFile } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import {
  type CacheStore,
  type ContentSource,
  cacheStoreFor,
  createDocSet,
  createEvents,
  createKit,
  type Kit,
  type KitEnv,
  KitError,
  type PageRenderer,
  type ResolvedConfig,
  type ResolvedSetConfig,
  type SearchDriver,
  type SearchDriverEntry,
} from '@kit/core';
import { defaultNames } from '@kit/core/internal';
import { createDiskCacheStore, diskCacheStoreDir, loadConfig, projectCacheDir } from '@kit/core/node';
import { createNodeRenderer } from '@kit/render/node';
import {
  type IndexBuilder,
  registerSearchDriver,
  resolveSearchDriver,
  type SearchIndexCache,
  type SearchIndexReport,
  searchDriverNames,
} from '@kit/search';
import { createDiskIndexCache, createWorkerIndexBuilder, searchIndexCacheDir } from '@kit/search/node';
import type { KitDatabase, OpenDatabaseOptions } from '@kit/source-db';
import { createFsSource, createSourceHistory } from '@kit/source-fs';
import { createCacheStore } from './create-cache-store.js';
import {
  createRenderPool,
  DEFAULT_RENDER_DEADLINE_MS,
  defaultRenderWorkers,
  type RenderPool,
} from './render-pool/render-pool.js';

export interface LoadKitOptions {
  /** Where to look for `kit.config.*`. Default: `process.cwd()`. */
  cwd?: string;
  /** An explicit config file, relative to `cwd`. */
  configFile?: string;
  /** Environment variables. Default: `process.env` plus the root's `.env`. */
  env?: KitEnv;
  /** Absolute origin for links in agent Markdown and MCP results, e.g. `http://localhost:4321`. */
  origin?: string;
  /** Watch repository sets and refresh what changed (for `kit serve`). @default false */
  watch?: boolean;
  /**
   * Read page provenance and read-time staleness (`sources:` changed after a page) from git.
   * Commands that never show either (`kit validate`, `kit affected`) turn it off to stay fast.
   * @default true
   */
  git?: boolean;
  /** Use this resolved config instead of loading one (tests, embedding). */
  config?: ResolvedConfig;
  /**
   * Write the published changes of database sets' author tools also into the branch's docs
   * migration in `migrations.path` (one file per set and branch, applied elsewhere by
   * `kit migrate`). The local server (`kit mcp`) turns it on; a web server leaves it out, its
   * changes are production's own. `branch` defaults to the one the project is on when the kit
   * loads ({@link currentBranch}). Default: no docs migrations.
   */
  docsMigrations?: { branch?: string };
  /**
   * Keep repository sets' renders and search sections in `.kit/cache/store` under the project root
   * (`createDiskCacheStore`), keyed by page content, manifest and renderer code, so a restarted
   * server or a second command renders and indexes nothing that has not changed. Database sets use
   * their configured cache store instead. The `server` search driver keeps each built index in
   * `.kit/cache/search` too (`createDiskIndexCache`), so a restart loads indexes instead of
   * building them.
   * @default true
   */
  diskCache?: boolean;
  /** Told each time a version's search index is ready, built or loaded from `.kit/cache/search` (logs, tests). */
  onSearchIndex?: (report: SearchIndexReport) => void;
  /**
   * Render pages on worker threads, each with a deadline, so a slow page never holds the event
   * loop (`kit serve` and the reference server turn it on). `true` takes `KIT_RENDER_WORKERS`
   * (0 renders on the calling thread) and `KIT_RENDER_DEADLINE_MS` from the environment, else
   * {@link defaultRenderWorkers} workers and a 10-second deadline. The render cache, the on-disk
   * cache and a shared cache store stay on the calling thread. Default: render on the calling thread.
   */
  renderPool?: boolean | { workers?: number; deadlineMs?: number | null };
}

/** A loaded kit plus the parts the CLI needs beside the `Kit` port. */
export interface LoadedKit extends Kit {
  /** The one renderer every set renders with. */
  readonly renderer: PageRenderer;
  /** The search driver of each set, by set key (the `search.budget` check reads the client index report). */
  readonly searchDrivers: ReadonlyMap<string, SearchDriver>;
}

/**
 * Loads the project's config and wires a {@link Kit}: per set its content source (`createFsSource`
 * for repository sets, `createDbSource` over `openDatabase` for database sets, one database per
 * named connection, each database set reading through its cache store, `source.cache` else
 * `cache.store`, one store per name), one renderer, the search driver `search.driver` names (built-ins plus the
 * config's `searchDrivers`, registered through the search registry while the kit lives), and
 * `createKit`. Every CLI command, the local MCP server, `kit serve` and a host application such as
 * the reference server start here.
 *
 * @example
 * const kit = await loadKit({ cwd: '/path/to/project' });
 * const page = await kit.set().readPage({ path: 'installation' }, { user: null, local: true });
 * await kit.close();
 */
export async function loadKit(options: LoadKitOptions = {}): Promise<LoadedKit> {
  const config =
    options.config ??
    (await loadConfig({
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      ...(options.configFile !== undefined ? { file: options.configFile } : {}),
      ...(options.env !== undefined ? { env: options.env } : {}),
    }));

  const unregister = registerConfigDrivers(config);
  const databases = new Map<string, Promise<KitDatabase>>();
  const caches = new Map<string, Promise<CacheStore>>();
  const pooling = renderPoolSettings(options.renderPool, options.env ?? process.env);
  let pool: RenderPool | null = null;
  const renderer = createNodeRenderer(
    pooling ? { executor: (page, context) => (pool as RenderPool).render(page, context) } : {},
  );
  if (pooling) {
    pool = createRenderPool({ renderer, configFile: config.file ?? null, startAt: 0, keepHtml: true, ...pooling });
  }
  const events = createEvents();
  const drivers = new Map<string, SearchDriver>();
  const sources: ContentSource[] = [];

  try {
    const sets = [];
    // One disk store for every repository set of the project: each key names its set.
    const diskStore =
      options.diskCache === false ? null : createDiskCacheStore({ dir: diskCacheStoreDir(config.root) });
    const indexCache =
      options.diskCache === false ? undefined : createDiskIndexCache({ dir: searchIndexCacheDir(config.root) });
    // Large server indexes are built on a worker thread: requests keep being answered meanwhile.
    const indexBuilder = createWorkerIndexBuilder();
    for (const setConfig of Object.values(config.sets)) {
      const cache =
        setConfig.source.driver === 'database' ? await cacheStoreOf(config, setConfig.key, caches) : diskStore;
      const source = await createSource(setConfig, config, options, databases, cache);
      sources.push(source);
      const search = await createSearchDriver(setConfig, config, {
        indexBuilder,
        parallelBuilds: availableParallelism(),
        ...(indexCache ? { indexCache } : {}),
        ...(options.onSearchIndex ? { onIndex: options.onSearchIndex } : {}),
      });
      drivers.set(setConfig.key, search);
      sets.push(
        createDocSet({
          config: withSnippetsRoot(setConfig, config),
          source,
          renderer,
          search,
          events,
          gates: config.gates,
          ...(options.origin !== undefined ? { origin: options.origin } : {}),
          ...(cache ? { cache } : {}),
          // Read-time staleness: a page whose `sources:` changed after it says so to agents.
          ...(options.git !== false
            ? {
                sourceHistory: createSourceHistory({
                  root: config.root,
                  ...(setConfig.source.driver === 'repository' ? { setFolder: setConfig.source.path } : {}),
                }),
              }
            : {}),
        }),
      );
    }
    const kit = createKit({ config, sets, events });
    const close = async () => {
      try {
        await kit.close();
      } finally {
        const opened = await Promise.allSettled(databases.values());
        await Promise.allSettled(
          opened.flatMap((result) => (result.status === 'fulfilled' ? [result.value.close()] : [])),
        );
        await closeCaches(caches);
        await pool?.close();
        for (const stop of unregister) stop();
      }
    };
    let closing: Promise<void> | null = null;
    return {
      config: kit.config,
      sets: kit.sets,
      events: kit.events,
      set: (key?: string) => kit.set(key),
      close: () => {
        closing ??= close();
        return closing;
      },
      renderer,
      searchDrivers: drivers,
    };
  } catch (error) {
    await Promise.allSettled(sources.map((source) => source.close?.()));
    const opened = await Promise.allSettled(databases.values());
    await Promise.allSettled(opened.flatMap((result) => (result.status === 'fulfilled' ? [result.value.close()] : [])));
    await closeCaches(caches);
    await pool?.close();
    for (const stop of unregister) stop();
    throw error;
  }
}

/**
 * The render pool `loadKit` starts: none when not asked for, or when `KIT_RENDER_WORKERS` is 0.
 * A value that is not a whole number is an error naming the variable.
 */
function renderPoolSettings(
  asked: LoadKitOptions['renderPool'],
  env: KitEnv,
): { workers: number; deadlineMs: number | null } | null {
  if (!asked) return null;
  const given = asked === true ? {} : asked;
  const workers = given.workers ?? wholeFromEnv(env, 'KIT_RENDER_WORKERS') ?? defaultRenderWorkers();
  if (workers === 0) return null;
  return { workers, deadlineMs: given.deadlineMs !== undefined ? given.deadlineMs : renderDeadlineFromEnv(env) };
}

/**
 * The render deadline `KIT_RENDER_DEADLINE_MS` sets (servers and `kit validate` alike): its
 * milliseconds, null for 0 (no deadline), the default when unset. Not a whole number is an error
 * naming the variable.
 */
export function renderDeadlineFromEnv(env: KitEnv): number | null {
  const deadline = wholeFromEnv(env, 'KIT_RENDER_DEADLINE_MS');
  return deadline === undefined ? DEFAULT_RENDER_DEADLINE_MS : deadline === 0 ? null : deadline;
}

function wholeFromEnv(env: KitEnv, name: string): number | undefined {
  const text = env[name]?.trim();
  if (text === undefined || text === '') return undefined;
  if (!/^\d+$/.test(text)) {
    throw new KitError('config.invalid', `${name} must be a whole number (got "${text}"). Unset it for the default.`);
  }
  return Number(text);
}

/**
 * Repository sets whose `snippets.root` is null include from the application base path, as the
 * specification says; database sets include nothing unless they name a folder.
 */
function withSnippetsRoot(setConfig: ResolvedSetConfig, config: ResolvedConfig): ResolvedSetConfig {
  if (setConfig.snippets.root !== null || setConfig.source.driver !== 'repository') return setConfig;
  return { ...setConfig, snippets: { ...setConfig.snippets, root: config.root } };
}

/**
 * The cache store a database set reads through (`source.cache`, else `cache.store`, else `memory`),
 * made once per store name: sets naming the same store share it, as processes share one Redis.
 */
function cacheStoreOf(
  config: ResolvedConfig,
  setKey: string,
  caches: Map<string, Promise<CacheStore>>,
): Promise<CacheStore> {
  const { name, store } = cacheStoreFor(config, setKey);
  let opening = caches.get(name);
  if (!opening) {
    // Asynchronous, so a refused store (redis without a url) rejects like a connection that fails.
    opening = Promise.resolve().then(() => createCacheStore(store, { name }));
    caches.set(name, opening);
  }
  return opening;
}

async function closeCaches(caches: Map<string, Promise<CacheStore>>): Promise<void> {
  const opened = await Promise.allSettled(caches.values());
  await Promise.allSettled(
    opened.flatMap((result) => (result.status === 'fulfilled' && result.value.close ? [result.value.close()] : [])),
  );
}

async function createSource(
  setConfig: ResolvedSetConfig,
  config: ResolvedConfig,
  options: LoadKitOptions,
  databases: Map<string, Promise<KitDatabase>>,
  cache: CacheStore | null,
): Promise<ContentSource> {
  if (setConfig.source.driver === 'repository') {
    return createFsSource({
      root: setConfig.source.path,
      setKey: setConfig.key,
      git: options.git !== false,
      watch: options.watch === true,
      cacheDir: projectCacheDir(config.root),
    });
  }
  // Loaded only for database sets: drizzle and the database drivers stay out of repository projects.
  const { createDbSource, createLocalDisk, openDatabase } = await import('@kit/source-db');
  const connectionName = setConfig.source.connection ?? 'default';
  const connection = config.connections[connectionName];
  if (!connection) {
    throw new KitError(
      'config.invalid',
      `The set "${setConfig.key}" uses the connection "${connectionName}", which is not declared. Add it under connections in kit.config.ts (connections: { ${connectionName}: { url: 'postgres://...' } }), or leave the url out to use embedded PGlite.`,
    );
  }
  let opening = databases.get(connectionName);
  if (!opening) {
    const models = Object.fromEntries(
      Object.entries(config.models ?? {}).filter(([, model]) => model !== null && model !== undefined),
    ) as OpenDatabaseOptions['models'];
    opening = openDatabase({
      url: connection.url ?? null,
      // One embedded database per connection, kept under <root>/.kit/ as the docs say.
      dataDir: connection.url
        ? null
        : join(config.root, '.kit', connectionName === 'default' ? 'db' : `db-${connectionName}`),
      ...(connection.schema ? { schema: connection.schema } : {}),
      ...(models && Object.keys(models).length > 0 ? { models } : {}),
    });
    databases.set(connectionName, opening);
  }
  const db = await opening;
  const disks = Object.fromEntries(
    Object.entries(config.disks ?? {}).map(([name, disk]) => [name, createLocalDisk({ root: disk.root, name })]),
  );
  // New files go on the set's disk (`source.disk`; null is the default disk), as the docs say.
  const assetDisk = disks[setConfig.source.disk ?? defaultNames.disk];
  return createDbSource({
    db,
    setKey: setConfig.key,
    disks,
    ...(assetDisk ? { assetDisk } : {}),
    ...(cache ? { cache } : {}),
    ...(options.docsMigrations
      ? {
          migrations: {
            folder: config.migrations.path,
            branch: options.docsMigrations.branch ?? (await currentBranch(config.root)),
            root: config.root,
          },
        }
      : {}),
  });
}

/**
 * The git branch the project at `root` is on (`git symbolic-ref --short HEAD`, which also names a
 * branch with no commit yet), naming the docs migration the local author tools write into. A
 * detached HEAD gives the short commit; a folder
 * that is not a git repository (or a machine without git) gives `local`.
 *
 * @example
 * const kit = await loadKit({ cwd: root, docsMigrations: { branch: await currentBranch(root) } });
 */
export async function currentBranch(root: string): Promise<string> {
  const git = (args: string[]) =>
    new Promise<string>((resolvePromise) => {
      execFile('git', args, { cwd: root, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } }, (error, stdout) =>
        resolvePromise(error ? '' : stdout.trim()),
      );
    });
  const branch = await git(['symbolic-ref', '--quiet', '--short', 'HEAD']);
  if (branch !== '') return branch;
  const commit = await git(['rev-parse', '--short', 'HEAD']);
  return commit !== '' ? commit : 'local';
}

/**
 * The config's `searchDrivers` join the search registry while the kit lives, so the name in
 * `search.driver` resolves like a built-in one. A name already registered by the application
 * (`registerSearchDriver` before the kit starts) keeps that registration.
 */
function registerConfigDrivers(config: ResolvedConfig): Array<() => void> {
  const stops: Array<() => void> = [];
  const known = new Set(searchDriverNames());
  for (const [name, entry] of Object.entries(config.searchDrivers ?? {})) {
    if (known.has(name)) continue;
    stops.push(registerSearchDriver(name, (driverOptions) => instantiate(name, entry, driverOptions) as SearchDriver));
  }
  return stops;
}

function instantiate(
  name: string,
  entry: SearchDriverEntry,
  options: { budgetKb: number },
): SearchDriver | Promise<SearchDriver> {
  if (typeof entry === 'function')
    return (entry as (options: { budgetKb: number }) => SearchDriver | Promise<SearchDriver>)(options);
  if (entry && typeof entry === 'object') return entry;
  throw new KitError(
    'config.invalid',
    `searchDrivers.${name} must be a SearchDriver or a function returning one (got ${typeof entry}).`,
  );
}

async function createSearchDriver(
  setConfig: ResolvedSetConfig,
  config: ResolvedConfig,
  persistence: {
    indexCache?: SearchIndexCache;
    onIndex?: (report: SearchIndexReport) => void;
    indexBuilder: IndexBuilder;
    parallelBuilds: number;
  },
): Promise<SearchDriver> {
  const name = setConfig.search.driver;
  const entry = config.searchDrivers?.[name];
  // A factory may be async; the registry's factories are sync, so call config entries directly.
  if (entry !== undefined) {
    const driver = await instantiate(name, entry, { budgetKb: setConfig.search.budget_kb });
    if (!driver || typeof driver.index !== 'function' || typeof driver.search !== 'function') {
      throw new KitError(
        'config.invalid',
        `searchDrivers.${name} did not give a search driver (an object with index() and search()). Return one from the factory.`,
      );
    }
    return driver;
  }
  return resolveSearchDriver(name, { budgetKb: setConfig.search.budget_kb, ...persistence });
}
