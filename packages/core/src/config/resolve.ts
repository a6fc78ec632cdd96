import { KitError } from '../errors/kit-error.js';
import { deepMerge, isPlainObject } from '../util/deep-merge.js';
import { nearestKey } from '../util/nearest-key.js';
import { isAbsolutePath, resolvePath } from '../util/path.js';
import {
  configDefaults,
  DEFAULT_CONNECTION,
  DEFAULT_DISK,
  DEFAULT_QUEUE,
  DEFAULT_SET_KEY,
  DEFAULT_STORE,
} from './defaults.js';
import { isTestEnvironment, type KitEnv, readEnv } from './env.js';
import { configSchema, type SchemaNode, schemaNodeAt, setSchema } from './schema.js';
import type {
  DiskConfig,
  KitConfigInput,
  KitSetInput,
  QueueConfig,
  ResolvedConfig,
  ResolvedSetConfig,
  SetOwnSettings,
  SharedSettings,
} from './types.js';
import { type ConfigIssue, checkConfig } from './validate.js';

export interface ResolveConfigOptions {
  /**
   * Environment variables (`KIT_*`, and `NODE_ENV`/`VITEST`, which alone decide whether the test
   * stores `array` and `null` are allowed). Default: `process.env` where there is one.
   */
  env?: KitEnv;
  /** `<root>`: the config file's folder; relative paths resolve against it. Default: the working directory. */
  root?: string;
  /** The config file, recorded on the result for messages. */
  file?: string | null;
}

type Written = Record<string, unknown>;

const SHARED_GROUPS = [
  'review',
  'review_self_publish',
  'cache',
  'search',
  'snippets',
  'ai',
  'mcp',
  'agents',
  'feedback',
  'references',
  'migrations',
] as const;
const SET_OWN_KEYS = ['route', 'source', 'access', 'html_input', 'integrations'] as const;
const PREFIX_PATTERN = /^[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/;

/** A prefix a URL can carry: {@link PREFIX_PATTERN}, without `.` or `..` segments (a browser removes them). */
function isUrlPrefix(value: string): boolean {
  return PREFIX_PATTERN.test(value) && !value.split('/').some((segment) => segment === '.' || segment === '..');
}

/**
 * Turns a written config into the one every package runs with: defaults applied, `KIT_*` variables
 * read, paths made absolute, and each set merged with the top-level groups. Precedence, lowest
 * first: defaults, environment variables, the written config (a written key wins over its
 * variable), and for a set, its own value over the top level's. `KIT_HOOKS=off` always wins.
 * Bad input throws one `KitError` (`config.unknown_key` or `config.invalid`) listing every problem.
 *
 * @example
 * const config = resolveConfig({ sets: { docs: {}, api: { review: 'auto' } } }, { env: process.env, root: '/app' });
 * config.sets.api.route.prefix; // 'api'
 * config.sets.docs.source.path; // '/app/docs'
 */
export function resolveConfig(input: KitConfigInput = {}, options: ResolveConfigOptions = {}): ResolvedConfig {
  const env = options.env ?? processEnv();
  const root = resolvePath(workingDirectory(), options.root ?? '.');
  const check = checkConfig(input);
  throwIssues(check.issues);
  const warnings = [...check.warnings];
  const issues: ConfigIssue[] = [];
  const written = input as Written;
  const envLayer = readEnv(env);
  const testing = isTestEnvironment(env);

  const base = {
    default: configDefaults.default,
    review: configDefaults.review,
    review_self_publish: configDefaults.review_self_publish,
    cache: configDefaults.cache,
    search: configDefaults.search,
    snippets: configDefaults.snippets,
    ai: configDefaults.ai,
    mcp: configDefaults.mcp,
    agents: configDefaults.agents,
    feedback: configDefaults.feedback,
    references: configDefaults.references,
    migrations: configDefaults.migrations,
    hooks: configDefaults.hooks,
    http: configDefaults.http,
    instructions: configDefaults.instructions,
    ui: configDefaults.ui,
    models: configDefaults.models,
  };
  const top = mergeBySchema(
    configSchema,
    mergeBySchema(configSchema, base, envLayer.input),
    pick(written, Object.keys(base)),
  );
  if (envLayer.hooksOff) top.hooks.enabled = false;
  top.migrations.path = resolvePath(root, top.migrations.path);
  top.instructions.file = resolvePath(root, top.instructions.file);
  if (top.snippets.root !== null) top.snippets.root = resolvePath(root, top.snippets.root);

  const connections = { ...configDefaults.connections, ...(input.connections ?? {}) };
  const stores: ResolvedConfig['stores'] = {
    ...configDefaults.stores,
    ...(testing ? { array: { driver: 'array' as const }, null: { driver: 'null' as const } } : {}),
    ...(input.stores ?? {}),
  };
  const disks: Record<string, DiskConfig> = {};
  for (const [name, disk] of Object.entries({ ...configDefaults.disks, ...(input.disks ?? {}) })) {
    disks[name] = { driver: 'local', root: resolvePath(root, disk.root) };
  }
  const queues: Record<string, QueueConfig> = { ...configDefaults.queues, ...(input.queues ?? {}) };

  const sharedTop = pick(top as unknown as Written, SHARED_GROUPS) as unknown as SharedSettings;
  const setInputs: Record<string, KitSetInput> = input.sets ?? { [DEFAULT_SET_KEY]: {} };
  const sets: Record<string, ResolvedSetConfig> = {};
  for (const [key, setInput] of Object.entries(setInputs)) {
    sets[key] = resolveSet(key, setInput ?? {}, { root, sharedTop, docsPrefix: envLayer.docsPrefix, issues, warnings });
  }

  const defaultSet = resolveDefaultSet(written, envLayer.input.default, Object.keys(sets), issues);
  checkStores(stores, testing, issues);
  checkReferences({ top, sets, stores, connections, disks, queues, written, env, issues });
  checkPrefixes(sets, issues);
  throwIssues(issues);

  return {
    ...top,
    default: defaultSet,
    root,
    sets,
    connections,
    stores,
    disks,
    queues,
    gates: { ...(input.gates ?? {}) },
    middleware: { ...(input.middleware ?? {}) },
    ...(input.resolveUser ? { resolveUser: input.resolveUser } : {}),
    searchDrivers: { ...(input.searchDrivers ?? {}) },
    ...(input.events ? { events: { ...input.events } } : {}),
    file: options.file ?? null,
    warnings,
  };
}

interface SetContext {
  root: string;
  sharedTop: SharedSettings;
  docsPrefix: string | undefined;
  issues: ConfigIssue[];
  warnings: string[];
}

function resolveSet(key: string, input: KitSetInput, context: SetContext): ResolvedSetConfig {
  const written = input as Written;
  const here = `sets.${key}`;
  const { sharedTop } = context;
  const shared = mergeBySchema(setSchema, sharedTop, pick(written, SHARED_GROUPS));
  // Keys a set may write but the top level decides (the specification's "top level only" list).
  shared.cache = structuredClone(sharedTop.cache);
  shared.ai.ask.rate_limit = sharedTop.ai.ask.rate_limit;
  shared.ai.sync = structuredClone(sharedTop.ai.sync);
  shared.mcp.local = sharedTop.mcp.local;
  shared.references = structuredClone(sharedTop.references);
  shared.migrations = structuredClone(sharedTop.migrations);
  shared.feedback.rate_limit = sharedTop.feedback.rate_limit;
  if (input.snippets?.root) shared.snippets.root = resolvePath(context.root, input.snippets.root);
  shared.mcp.web.path = trimSlashes(shared.mcp.web.path);

  const own = mergeBySchema(setSchema, configDefaults.set, pick(written, SET_OWN_KEYS)) as SetOwnSettings;
  const writtenPrefix = input.route?.prefix;
  const fromEnv = writtenPrefix === undefined && key === DEFAULT_SET_KEY && context.docsPrefix !== undefined;
  const prefix = trimSlashes(writtenPrefix ?? (fromEnv ? context.docsPrefix! : key));
  if (prefix !== '' && !isUrlPrefix(prefix)) {
    const origin = fromEnv ? 'KIT_PREFIX' : `\`${here}.route.prefix\``;
    context.issues.push({
      code: 'config.invalid',
      path: `${here}.route.prefix`,
      message: `${origin} must be a URL path such as \`docs\` or \`guides/v2\` (letters, digits, \`.\`, \`_\`, \`~\`, \`-\`), or '' for the domain root; got ${JSON.stringify(prefix)}`,
    });
  }
  const linkPrefix = own.route.link_prefix == null ? null : trimSlashes(own.route.link_prefix);
  if (linkPrefix !== null && linkPrefix !== '' && !isUrlPrefix(linkPrefix)) {
    context.issues.push({
      code: 'config.invalid',
      path: `${here}.route.link_prefix`,
      message: `\`${here}.route.link_prefix\` must be the URL path the pages' links were written for, such as \`docs\` (letters, digits, \`.\`, \`_\`, \`~\`, \`-\`), '' for a root-mounted site, or null; got ${JSON.stringify(own.route.link_prefix)}`,
    });
  } else if (linkPrefix !== null && linkPrefix === prefix) {
    // Not an error: KIT_PREFIX may mount the docs set where its pages were written for.
    context.warnings.push(
      `\`${here}.route.link_prefix: '${linkPrefix}'\` has no effect: it is the set's own prefix, so links under it are served as written. Set it to the prefix the pages were written for (\`docs\` for links such as /docs/{{version}}/routing), or remove it.`,
    );
  }
  const database = own.source.driver === 'database';
  const route: SetOwnSettings['route'] = {
    prefix,
    domain: own.route.domain,
    middleware: own.route.middleware,
    // Kept out when not written, so a resolved route reads as the specification's three keys.
    ...(linkPrefix !== null ? { link_prefix: linkPrefix } : {}),
  };
  const source = {
    driver: own.source.driver,
    path: resolvePath(context.root, input.source?.path ?? key),
    connection: own.source.connection,
    cache: own.source.cache,
    disk: own.source.disk,
  };
  let htmlInput = own.html_input;
  if (database && htmlInput === 'allow') {
    htmlInput = 'escape';
    context.warnings.push(`\`${here}.html_input: 'allow'\` has no effect: a database set always escapes raw HTML.`);
  }
  if (!database) {
    for (const name of ['connection', 'cache', 'disk'] as const) {
      if (input.source?.[name] != null) {
        context.warnings.push(`\`${here}.source.${name}\` has no effect: it is read for database sets only.`);
      }
    }
    if (shared.mcp.web.author_tools) {
      context.warnings.push(
        `\`mcp.web.author_tools\` is on for \`${here}\`, a repository set: a repository set never serves author tools on the web.`,
      );
    }
  } else if (input.source?.path !== undefined) {
    context.warnings.push(`\`${here}.source.path\` has no effect: a database set reads its pages from the database.`);
  }

  return {
    key,
    ...shared,
    route,
    source,
    access: own.access,
    html_input: htmlInput,
    integrations: own.integrations,
  };
}

function resolveDefaultSet(
  written: Written,
  fromEnv: string | undefined,
  keys: string[],
  issues: ConfigIssue[],
): string {
  const explicit = (written.default as string | undefined) ?? fromEnv;
  if (explicit === undefined) return keys.includes(DEFAULT_SET_KEY) ? DEFAULT_SET_KEY : keys[0]!;
  if (!keys.includes(explicit)) {
    const origin = written.default !== undefined ? '`default`' : 'KIT_DEFAULT_SET';
    issues.push({
      code: 'config.invalid',
      path: 'default',
      message: `${origin} names the set \`${explicit}\`, which \`sets\` does not declare${didYouMean(explicit, keys)}; the sets are ${keys.map((key) => `\`${key}\``).join(', ')}`,
    });
  }
  return explicit;
}

function checkStores(stores: ResolvedConfig['stores'], testing: boolean, issues: ConfigIssue[]): void {
  for (const [name, store] of Object.entries(stores)) {
    if ((store.driver === 'array' || store.driver === 'null') && !testing) {
      issues.push({
        code: 'config.invalid',
        path: `stores.${name}.driver`,
        message: `\`stores.${name}.driver: '${store.driver}'\` is a test store, refused outside tests (NODE_ENV=test or VITEST); use 'memory' or 'redis'`,
      });
    }
    if (store.driver === 'redis' && !store.url) {
      issues.push({
        code: 'config.invalid',
        path: `stores.${name}.url`,
        message: `\`stores.${name}\` uses the redis driver and needs \`url\`, such as 'redis://127.0.0.1:6379'`,
      });
    }
  }
}

interface ReferenceContext {
  top: { cache: SharedSettings['cache']; ai: SharedSettings['ai'] };
  sets: Record<string, ResolvedSetConfig>;
  stores: ResolvedConfig['stores'];
  connections: ResolvedConfig['connections'];
  disks: Record<string, DiskConfig>;
  queues: Record<string, QueueConfig>;
  written: Written;
  env: KitEnv;
  issues: ConfigIssue[];
}

/** Every name that points into `stores`, `connections`, `disks` or `queues` must be declared there. */
function checkReferences(context: ReferenceContext): void {
  const { top, sets, written, issues } = context;
  const writtenTop = (group: string, key: string) =>
    isPlainObject(written[group]) && (written[group] as Written)[key] !== undefined;
  const refer = (path: string, origin: string, name: string | null, area: string, names: string[], example: string) => {
    if (name === null || names.includes(name)) return;
    const refused = (name === 'array' || name === 'null') && area === 'stores';
    issues.push({
      code: 'config.invalid',
      path,
      message: refused
        ? `${origin} names the \`${name}\` store, a test store refused outside tests (NODE_ENV=test or VITEST); use \`memory\` or declare a redis store in \`stores\``
        : `${origin} names the ${area.slice(0, -1)} \`${name}\`, which \`${area}\` does not declare${didYouMean(name, names)}; fix the name or declare it, e.g. \`${area}: { ${name}: ${example} }\``,
    });
  };

  const storeNames = Object.keys(context.stores);
  const storeExample = "{ driver: 'redis', url: 'redis://127.0.0.1:6379' }";
  refer(
    'cache.store',
    writtenTop('cache', 'store') ? '`cache.store`' : 'KIT_CACHE_STORE',
    top.cache.store,
    'stores',
    storeNames,
    storeExample,
  );
  const queueNames = Object.keys(context.queues);
  refer(
    'ai.sync.queue',
    isPlainObject(written.ai) &&
      isPlainObject((written.ai as Written).sync) &&
      ((written.ai as Written).sync as Written).queue !== undefined
      ? '`ai.sync.queue`'
      : 'KIT_SYNC_QUEUE',
    top.ai.sync.queue,
    'queues',
    queueNames,
    "{ driver: 'postgres', connection: 'default' }",
  );
  const connectionNames = Object.keys(context.connections);
  for (const [name, queue] of Object.entries(context.queues)) {
    if (queue.driver === 'postgres') {
      refer(
        `queues.${name}.connection`,
        `\`queues.${name}.connection\``,
        queue.connection ?? DEFAULT_CONNECTION,
        'connections',
        connectionNames,
        '{ url: process.env.DATABASE_URL }',
      );
    } else if (!queue.url) {
      issues.push({
        code: 'config.invalid',
        path: `queues.${name}.url`,
        message: `\`queues.${name}\` uses the redis driver and needs \`url\`, such as 'redis://127.0.0.1:6379'`,
      });
    }
  }
  for (const set of Object.values(sets)) {
    if (set.source.driver !== 'database') continue;
    const here = `sets.${set.key}.source`;
    refer(`${here}.cache`, `\`${here}.cache\``, set.source.cache, 'stores', storeNames, storeExample);
    refer(
      `${here}.connection`,
      `\`${here}.connection\``,
      set.source.connection,
      'connections',
      connectionNames,
      '{ url: process.env.DATABASE_URL }',
    );
    refer(
      `${here}.disk`,
      `\`${here}.disk\``,
      set.source.disk,
      'disks',
      Object.keys(context.disks),
      "{ root: 'storage/docs' }",
    );
  }
}

/** Two sets on the same domain cannot share a URL prefix. */
function checkPrefixes(sets: Record<string, ResolvedSetConfig>, issues: ConfigIssue[]): void {
  const seen = new Map<string, string>();
  for (const set of Object.values(sets)) {
    const where = `${set.route.domain ?? '*'}|${set.route.prefix}`;
    const other = seen.get(where);
    if (other !== undefined) {
      issues.push({
        code: 'config.invalid',
        path: `sets.${set.key}.route.prefix`,
        message: `sets \`${other}\` and \`${set.key}\` both mount at ${set.route.prefix === '' ? 'the domain root' : `\`/${set.route.prefix}\``}; give one of them its own \`route.prefix\` or \`route.domain\``,
      });
    } else seen.set(where, set.key);
  }
}

/**
 * The cache store a set reads through: a database set's own `source.cache`, else `cache.store`,
 * else the application default (`memory`). Repository sets ignore `source.cache`.
 *
 * @example
 * cacheStoreFor(config, 'docs'); // { name: 'memory', store: { driver: 'memory' } }
 */
export function cacheStoreFor(
  config: ResolvedConfig,
  setKey: string,
): { name: string; store: ResolvedConfig['stores'][string] } {
  const set = config.sets[setKey];
  if (!set)
    throw new KitError('set.not_found', `No set \`${setKey}\`; the sets are ${Object.keys(config.sets).join(', ')}`);
  const own = set.source.driver === 'database' ? set.source.cache : null;
  const name = own ?? config.cache.store ?? DEFAULT_STORE;
  const store = config.stores[name] ?? (name === DEFAULT_STORE ? { driver: 'memory' as const } : undefined);
  if (!store) throw new KitError('config.invalid', `The cache store \`${name}\` is not declared in \`stores\``);
  return { name, store };
}

/** The names `null` stands for in `source.connection`, `source.disk` and `ai.sync.queue`. */
export const defaultNames = {
  connection: DEFAULT_CONNECTION,
  disk: DEFAULT_DISK,
  queue: DEFAULT_QUEUE,
  store: DEFAULT_STORE,
} as const;

function mergeBySchema<T>(schema: SchemaNode, base: T, override: unknown): T {
  return deepMerge(base, override, { replaceAt: (path) => schemaNodeAt(path, schema)?.kind !== 'group' });
}

function pick(object: Written, keys: readonly string[]): Written {
  const picked: Written = {};
  for (const key of keys) if (object[key] !== undefined) picked[key] = object[key];
  return picked;
}

function trimSlashes(value: string): string {
  return value.trim().replace(/^\/+|\/+$/g, '');
}

function didYouMean(name: string, names: string[]): string {
  const suggestion = nearestKey(name, names);
  return suggestion ? ` (did you mean \`${suggestion}\`?)` : '';
}

function throwIssues(issues: ConfigIssue[]): void {
  if (issues.length === 0) return;
  const message =
    issues.length === 1
      ? issues[0]!.message
      : `${issues.length} problems in the config:\n${issues.map((issue) => `- ${issue.message}`).join('\n')}`;
  throw new KitError(issues[0]!.code, message, { details: { issues } });
}

function processEnv(): KitEnv {
  return (globalThis as { process?: { env?: KitEnv } }).process?.env ?? {};
}

function workingDirectory(): string {
  const cwd = (globalThis as { process?: { cwd?: () => string } }).process?.cwd?.();
  return cwd && isAbsolutePath(cwd) ? cwd : '/';
}
