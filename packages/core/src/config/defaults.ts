import type { DiskConfig, QueueConfig, ResolvedConfig, SetOwnSettings, SharedSettings } from './types.js';

/**
 * Every default of the configuration, one object per area, exactly as the specification's tables
 * give them. Paths are relative to `<root>` (the config file's folder) and resolved by
 * `resolveConfig`; a set's `route.prefix` and `source.path` default to its key (see `setDefaults`).
 */
export interface ConfigDefaults extends SharedSettings {
  default: string;
  hooks: ResolvedConfig['hooks'];
  http: ResolvedConfig['http'];
  instructions: ResolvedConfig['instructions'];
  ui: ResolvedConfig['ui'];
  models: ResolvedConfig['models'];
  set: Omit<SetOwnSettings, 'route' | 'source'> & {
    route: Omit<SetOwnSettings['route'], 'prefix'>;
    source: Omit<SetOwnSettings['source'], 'path'>;
  };
  connections: ResolvedConfig['connections'];
  stores: ResolvedConfig['stores'];
  disks: Record<string, DiskConfig>;
  queues: Record<string, QueueConfig>;
}

export const reviewDefaults: SharedSettings['review'] = 'required';

/** An author never decides their own draft unless a set opts in. */
export const reviewSelfPublishDefault: SharedSettings['review_self_publish'] = false;

export const cacheDefaults: SharedSettings['cache'] = { store: null };

export const searchDefaults: SharedSettings['search'] = { driver: 'client', budget_kb: 300 };

export const snippetsDefaults: SharedSettings['snippets'] = { root: null };

export const aiDefaults: SharedSettings['ai'] = {
  ask: {
    enabled: false,
    provider: null,
    model: null,
    max_steps: 6,
    rate_limit: '10,1',
    daily_budget: 500,
    max_messages: 20,
    max_question_length: 2000,
    max_history_length: 20000,
  },
  sync: {
    provider: null,
    model: null,
    max_pages: 20,
    max_steps: 30,
    timeout: 120,
    remote_token: null,
    deny: [],
    queue: null,
  },
};

export const mcpDefaults: SharedSettings['mcp'] = {
  web: { enabled: true, path: 'mcp', author_tools: false, middleware: [], rate_limit: '60,1' },
  local: true,
};

export const agentsDefaults: SharedSettings['agents'] = {
  markdown: true,
  llms_txt: true,
  llms_full: true,
  skill_md: true,
  well_known_skills: true,
  sitemap: true,
  ask_endpoint: false,
  llms_txt_limit: 50000,
  llms_full_limit: 400000,
  markdown_budget: 50000,
};

export const feedbackDefaults: SharedSettings['feedback'] = { enabled: true, rate_limit: '20,1' };

export const referencesDefaults: SharedSettings['references'] = {
  routes: { allow: null },
  models: { allow: ['*'] },
  events: { namespaces: ['events'] },
};

/** `path` is relative to `<root>`. */
export const migrationsDefaults: SharedSettings['migrations'] = { path: 'migrations/docs', skip_in_tests: false };

export const hooksDefaults: ResolvedConfig['hooks'] = {
  enabled: true,
  push_commands: ['git push', 'gh pr create', 'glab mr create', 'hub pull-request'],
  // A check that fails must not let the push it exists to check through unless the operator says so.
  on_failure: 'block',
};

/** No proxy is trusted until the config names it: a caller cannot pick its address by a header. */
export const httpDefaults: ResolvedConfig['http'] = { trusted_proxies: false };

/** `file` is relative to `<root>`. */
export const instructionsDefaults: ResolvedConfig['instructions'] = {
  file: 'AGENTS.md',
  index: true,
  index_max_bytes: 8192,
  default_branch: null,
};

/** The smallest `instructions.index_max_bytes` accepted. */
export const INSTRUCTIONS_INDEX_MIN_BYTES = 1024;

export const uiDefaults: ResolvedConfig['ui'] = { fresh_days: 1, dev_server: null };

/** Null means Kit's own table. */
export const modelsDefaults: ResolvedConfig['models'] = {
  page: null,
  navigation: null,
  manifest: null,
  revision: null,
  asset: null,
  docs_migration: null,
};

/** A set's own keys; `route.prefix` and `source.path` default to the set key. */
export const setDefaults: ConfigDefaults['set'] = {
  route: { domain: null, middleware: ['web'] },
  source: { driver: 'repository', connection: null, cache: null, disk: null },
  access: { mode: 'public' },
  html_input: 'escape',
  integrations: {},
};

/** `default` with no URL is embedded PGlite under `<root>/.kit/pglite`. */
export const connectionsDefaults: ResolvedConfig['connections'] = { default: {} };

/** `memory` is the application default store (a size-bounded LRU per process). */
export const storesDefaults: ResolvedConfig['stores'] = { memory: { driver: 'memory' } };

/** `root` is relative to `<root>`. */
export const disksDefaults: Record<string, DiskConfig> = { local: { driver: 'local', root: '.kit/assets' } };

export const queuesDefaults: Record<string, QueueConfig> = { default: { driver: 'postgres', connection: 'default' } };

/** The set key used when the config declares no `sets`, and the default of `default`. */
export const DEFAULT_SET_KEY = 'docs';

/** The name of the store `cache.store: null` uses. */
export const DEFAULT_STORE = 'memory';

/** The name of the disk `source.disk: null` uses. */
export const DEFAULT_DISK = 'local';

/** The name of the connection `source.connection: null` uses. */
export const DEFAULT_CONNECTION = 'default';

/** The name of the queue `ai.sync.queue: null` uses. */
export const DEFAULT_QUEUE = 'default';

/**
 * All defaults in one read-only object: what a config with no keys resolves to, before paths are
 * made absolute and environment variables applied.
 *
 * @example
 * configDefaults.search.budget_kb; // 300
 */
export const configDefaults: Readonly<ConfigDefaults> = deepFreeze({
  default: DEFAULT_SET_KEY,
  review: reviewDefaults,
  review_self_publish: reviewSelfPublishDefault,
  cache: cacheDefaults,
  search: searchDefaults,
  snippets: snippetsDefaults,
  ai: aiDefaults,
  mcp: mcpDefaults,
  agents: agentsDefaults,
  feedback: feedbackDefaults,
  references: referencesDefaults,
  migrations: migrationsDefaults,
  hooks: hooksDefaults,
  http: httpDefaults,
  instructions: instructionsDefaults,
  ui: uiDefaults,
  models: modelsDefaults,
  set: setDefaults,
  connections: connectionsDefaults,
  stores: storesDefaults,
  disks: disksDefaults,
  queues: queuesDefaults,
});

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}
