import type { KitEventHandler, KitEventName } from '../events/types.js';
import type { TrustedProxies } from '../http/client-address.js';
import type { SearchDriver } from '../ports/search-driver.js';

/**
 * Resolved configuration types. Keys are spelled exactly as in the specification's tables
 * (`mcp.web.author_tools`, `agents.llms_txt`, ...). The written form (`KitConfigInput`, every key
 * optional) is at the end of this file; defaults live in `defaults.ts`.
 */

/** A viewer's identity as the application's user resolver returns it; null is a guest. */
export type KitUser = unknown;

/** What a gate is asked about. */
export interface GateSubject {
  set: string;
  version?: string;
  locale?: string;
  page?: string;
}

/** A gate: sync or async, given the signed-in user (or null) and what is asked for. */
export type Gate = (user: KitUser | null, subject: GateSubject) => boolean | Promise<boolean>;

export interface Gates {
  viewKit?: Gate;
  manageKit?: Gate;
  askKit?: Gate;
  /**
   * Who may review drafts on the web: the review screen and the MCP review tools. Never falls back
   * to `manageKit`: give both keys the same function to let every writer review (others' drafts).
   */
  reviewKit?: Gate;
}

export type AccessMode = 'public' | 'auth' | 'gate';
export type ReviewMode = 'required' | 'auto';

export interface AnalyticsConfig {
  ga4?: { measurementId: string };
  plausible?: { domain: string; src?: string };
  fathom?: { siteId: string; src?: string };
  posthog?: { apiKey: string; host?: string };
  custom?: { src: string; defer?: boolean; async?: boolean; attributes?: Record<string, string> };
}

/** Settings merged into every set (the set's own value wins where the specification allows). */
export interface SharedSettings {
  review: ReviewMode;
  review_self_publish: boolean;
  cache: { store: string | null };
  search: { driver: string; budget_kb: number };
  snippets: { root: string | null };
  ai: {
    ask: {
      enabled: boolean;
      provider: string | string[] | Record<string, string> | null;
      model: string | null;
      max_steps: number;
      rate_limit: string;
      daily_budget: number | null;
      max_messages: number;
      max_question_length: number;
      max_history_length: number;
    };
    sync: {
      provider: string | null;
      model: string | null;
      max_pages: number;
      max_steps: number;
      timeout: number;
      remote_token: string | null;
      deny: string[];
      queue: string | null;
    };
  };
  mcp: {
    web: { enabled: boolean; path: string; author_tools: boolean; middleware: string[]; rate_limit: string };
    local: boolean;
  };
  agents: {
    markdown: boolean;
    llms_txt: boolean;
    llms_full: boolean;
    skill_md: boolean;
    well_known_skills: boolean;
    sitemap: boolean;
    ask_endpoint: boolean;
    llms_txt_limit: number;
    llms_full_limit: number;
    markdown_budget: number;
  };
  feedback: { enabled: boolean; rate_limit: string };
  references: {
    routes: { allow: string[] | null };
    models: { allow: string[] };
    events: { namespaces: string[] };
  };
  migrations: { path: string; skip_in_tests: boolean };
}

/** One set's own keys (`sets.{key}.*`), resolved. */
export interface SetOwnSettings {
  route: {
    prefix: string;
    domain: string | null;
    middleware: string[];
    /** Present only when written: the prefix the pages' site-absolute links were written with (no slashes). */
    link_prefix?: string;
  };
  source: {
    driver: 'repository' | 'database';
    /** Absolute folder of a repository set. */
    path: string;
    connection: string | null;
    cache: string | null;
    disk: string | null;
  };
  access: { mode: AccessMode };
  html_input: 'escape' | 'allow';
  integrations: { analytics?: AnalyticsConfig };
}

/** Everything one set runs with: its own keys plus the merged shared settings. */
export interface ResolvedSetConfig extends SharedSettings, SetOwnSettings {
  key: string;
}

/** What `kit hook` does when its check fails: stop the push, or let it run unchecked. */
export type HookFailurePolicy = 'block' | 'allow';

/** The whole resolved configuration. */
export interface ResolvedConfig extends SharedSettings {
  /** Folder of the config file, or the working directory; `<root>` in the docs. */
  root: string;
  default: string;
  sets: Record<string, ResolvedSetConfig>;
  hooks: { enabled: boolean; push_commands: string[]; on_failure: HookFailurePolicy };
  /** How the HTTP doors see their callers. */
  http: { trusted_proxies: TrustedProxies };
  instructions: { file: string; index: boolean; index_max_bytes: number; default_branch: string | null };
  ui: { fresh_days: number; dev_server: string | null };
  models: Record<'page' | 'navigation' | 'manifest' | 'revision' | 'asset' | 'docs_migration', unknown>;
  connections: Record<string, ConnectionConfig>;
  stores: Record<string, { driver: 'memory' | 'redis' | 'array' | 'null'; url?: string; max_entries?: number }>;
  gates: Gates;
  /** Filesystem disks for database-set assets; `local` always exists. Filled by `resolveConfig`. */
  disks?: Record<string, DiskConfig>;
  /** Queues for `kit sync --queue`; `default` always exists. Filled by `resolveConfig`. */
  queues?: Record<string, QueueConfig>;
  /** Named middleware that `route.middleware` and `mcp.web.middleware` refer to. */
  middleware?: Record<string, KitMiddleware>;
  /** Turns a request into the signed-in user (null or undefined is a guest). */
  resolveUser?: UserResolver;
  /** Search drivers the application adds, by the name `search.driver` uses. */
  searchDrivers?: Record<string, SearchDriverEntry>;
  /** Event listeners from the config's `events` key; `createKit` puts them on the kit's bus. */
  events?: KitEventHandlers;
  /** The config file this was loaded from (absolute), or null when there was none. */
  file?: string | null;
  /** Written keys that have no effect where they are written (e.g. `sets.docs.mcp.local`). */
  warnings?: string[];
}

/** A filesystem disk: a folder (absolute once resolved). */
export interface DiskConfig {
  driver: 'local';
  root: string;
}

/** A database connection (`connections.{name}`): PostgreSQL at a URL, or embedded PGlite without one. */
export interface ConnectionConfig {
  /** A `postgres://` or `postgresql://` URL; absent: embedded PGlite under `<root>/.kit/`. */
  url?: string;
  /**
   * The PostgreSQL schema holding Kit's docs tables (`kit_pages`, ...), created when missing. Every
   * statement names it, so the connection's `search_path` does not matter. @default 'public'
   */
  schema?: string;
}

/**
 * A queue backend: PostgreSQL through a named connection (pg-boss's tables in `schema`, default
 * `kit_queue`), or Redis at a URL.
 */
export type QueueConfig =
  | { driver: 'postgres'; connection: string; schema?: string }
  | { driver: 'redis'; url: string };

/**
 * A named middleware in the shape of a Hono `MiddlewareHandler` (`(c, next) => ...`). Core does not
 * depend on Hono, so the context is left opaque here; `@kit/http-hono` applies it as written.
 */
export type KitMiddleware = (context: never, next: () => Promise<void>) => unknown;

/** The config's user resolver: the signed-in user for a request, or null for a guest. */
export type UserResolver = (request: Request) => unknown | Promise<unknown>;

/** A search driver instance or a factory that makes one (its arguments are the search package's). */
export type SearchDriverEntry = SearchDriver | ((...args: never[]) => SearchDriver | Promise<SearchDriver>);

// ---------------------------------------------------------------------------------------------
// The written form: what `kit.config.ts` holds. Every key optional; defaults in `configDefaults`.
// ---------------------------------------------------------------------------------------------

/** `review` as written. @default 'required' (env `KIT_REVIEW`) */
export type ReviewInput = ReviewMode;

/** `ai.ask.*` as written (also per set, except `rate_limit`, which is read from the top level only). */
export interface AskInput {
  /** Turns on Ask AI. @default false (env `KIT_ASK`) */
  enabled?: boolean;
  /** Provider name, a failover list of names, or a map of name to model; null uses the package default. @default null (env `KIT_AI_PROVIDER`) */
  provider?: string | string[] | Record<string, string> | null;
  /** Model; null uses the provider default; single provider only. @default null (env `KIT_AI_MODEL`) */
  model?: string | null;
  /** Steps the assistant may take per answer. @default 6 */
  max_steps?: number;
  /** Answers per set per day; null means no cap. @default 500 */
  daily_budget?: number | null;
  /** Messages one conversation may hold. @default 20 */
  max_messages?: number;
  /** Longest question, in characters. @default 2000 */
  max_question_length?: number;
  /** Most characters the earlier turns may hold together. @default 20000 */
  max_history_length?: number;
}

/** `ai.sync.*` as written (top level only). */
export interface SyncInput {
  /** Provider for `kit sync`; `--provider` overrides per run. @default null (env `KIT_AI_PROVIDER`) */
  provider?: string | null;
  /** Model; `--model` overrides per run. @default null (env `KIT_AI_MODEL`) */
  model?: string | null;
  /** Pages one run may change. @default 20 */
  max_pages?: number;
  /** Steps one run may take. @default 30 */
  max_steps?: number;
  /** Seconds per provider request. @default 120 */
  timeout?: number;
  /** Token a `--remote` run sends to a production set's MCP endpoint. @default null (env `KIT_SYNC_TOKEN`) */
  remote_token?: string | null;
  /** Paths or globs the docs agent may never read, added to the built-in list. @default [] */
  deny?: string[];
  /** Queue for `--queue` runs; null uses the default queue. @default null (env `KIT_SYNC_QUEUE`) */
  queue?: string | null;
}

/** `mcp.web.*` as written. */
export interface McpWebInput {
  /** Serve the set's MCP endpoint. @default true */
  enabled?: boolean;
  /** Endpoint path under the set prefix. @default 'mcp' */
  path?: string;
  /** Expose author tools on the web (database set, signed-in caller, `manageKit` only). @default false */
  author_tools?: boolean;
  /** Middleware names that authenticate private sets, e.g. `auth:token`. @default [] */
  middleware?: string[];
  /** `'requests,minutes'` per caller (user, else IP). @default '60,1' */
  rate_limit?: string;
}

/** `agents.*` as written. */
export interface AgentsInput {
  /** Present for compatibility; Markdown twins are always served in this release. @default true */
  markdown?: boolean;
  /** `llms.txt` and its path-scoped files. @default true */
  llms_txt?: boolean;
  /** `llms-full.txt`. @default true */
  llms_full?: boolean;
  /** `skill.md` and hand-written `skills/` files. @default true */
  skill_md?: boolean;
  /** `/.well-known/agent-skills/index.json`. @default true */
  well_known_skills?: boolean;
  /** `sitemap.xml`. @default true */
  sitemap?: boolean;
  /** The `GET /ask?q=` search for agents without MCP. @default false */
  ask_endpoint?: boolean;
  /** Characters per `llms.txt` file before it splits by navigation group. @default 50000 */
  llms_txt_limit?: number;
  /** Characters per `llms-full.txt` file before it splits by group. @default 400000 */
  llms_full_limit?: number;
  /** `kit validate` warns `markdown.size` above this many characters of agent Markdown. @default 50000 */
  markdown_budget?: number;
}

/** `search.*` as written. */
export interface SearchInput {
  /** `client`, `server`, or the name of a driver in `searchDrivers`. @default 'client' */
  driver?: string;
  /** A gzipped client index larger than this many KB is reported. @default 300 */
  budget_kb?: number;
}

/** Keys a set may give its own value (the top-level value is the default). */
export interface SetSharedInput {
  review?: ReviewInput;
  /**
   * Let the author of a draft publish or discard it themselves. Off, a draft is decided by someone
   * other than the user, token or operator who wrote it (rule `review.self_publish`); on, a caller
   * who may both write and review publishes their own changes with nobody else looking.
   * @default false
   */
  review_self_publish?: boolean;
  search?: SearchInput;
  snippets?: {
    /** Folder snippet includes (`<<< @/...`) resolve in; null: `<root>` for repository sets, nothing for database sets. @default null */
    root?: string | null;
  };
  feedback?: {
    /** The 'Was this page helpful?' widget, its endpoint and `submit_feedback`. @default true */
    enabled?: boolean;
  };
  ai?: { ask?: AskInput };
  mcp?: { web?: McpWebInput };
  agents?: AgentsInput;
}

/** One doc set as written (`sets.{key}`). */
export interface KitSetInput extends SetSharedInput {
  route?: {
    /** URL prefix; `''` mounts at the domain root. @default the set key (`docs` also reads env `KIT_PREFIX`) */
    prefix?: string;
    /** Serve the set only on this domain. @default null */
    domain?: string | null;
    /** Middleware names of the set's pages. @default ['web'] */
    middleware?: string[];
    /**
     * The prefix the set's pages write their site-absolute links with, when they were written for a
     * site that mounts them elsewhere: a page link under it is served under `prefix` instead, and
     * validated as a link to this set. `''` for pages written for a root-mounted site.
     * @example 'docs' // Laravel's docs link `/docs/{{version}}/routing`; mounted at `laravel`, that serves `/laravel/13.x/routing`
     * @default null (links are served as written)
     */
    link_prefix?: string | null;
  };
  source?: {
    /** @default 'repository' */
    driver?: 'repository' | 'database';
    /** Docs folder of a repository set, relative to `<root>`. @default the set key (`<root>/docs` for `docs`) */
    path?: string;
    /** Database sets: connection name; null uses `default`. @default null */
    connection?: string | null;
    /** Database sets: cache store; falls back to `cache.store`, then `memory`. @default null */
    cache?: string | null;
    /** Database sets: disk for assets; null uses `local`. @default null */
    disk?: string | null;
  };
  access?: {
    /** `public`, `auth` (any signed-in user) or `gate` (every page checked by `viewKit`). @default 'public' */
    mode?: AccessMode;
  };
  /** `escape` shows raw HTML as text; `allow` (repository sets only) passes it, minus filtered tags. @default 'escape' */
  html_input?: 'escape' | 'allow';
  integrations?: { analytics?: AnalyticsConfig };
}

/** The whole config as written in `kit.config.ts`. Every key is optional. */
export interface KitConfigInput extends SetSharedInput {
  /** Set used by commands and the local MCP server when none is given. @default 'docs' (env `KIT_DEFAULT_SET`) */
  default?: string;
  /** Doc sets by key. @default { docs: {} } */
  sets?: Record<string, KitSetInput>;
  cache?: {
    /** Cache store for rendered pages, lists, navigation, search; null uses `memory`. @default null (env `KIT_CACHE_STORE`) */
    store?: string | null;
  };
  ai?: {
    ask?: AskInput & { /** `'requests,minutes'` per reader, per set. @default '10,1' */ rate_limit?: string };
    sync?: SyncInput;
  };
  mcp?: {
    web?: McpWebInput;
    /** Register the local stdio server started by `kit mcp`. @default true */
    local?: boolean;
  };
  feedback?: {
    enabled?: boolean;
    /** `'requests,minutes'` per reader for the widget endpoint. @default '20,1' */
    rate_limit?: string;
  };
  http?: {
    /**
     * Proxies trusted to name the caller in `X-Forwarded-For`, which every rate limit counts by:
     * `false` (the connection's own address), `true` (every hop: the first forwarded address), a
     * number of hops counted from the server, or a list of addresses, CIDR ranges and the names
     * `loopback`, `linklocal`, `uniquelocal`. Top level only. @default false
     */
    trusted_proxies?: TrustedProxies;
  };
  hooks?: {
    /** Pre-push docs check. @default true unless env `KIT_HOOKS=off` */
    enabled?: boolean;
    /** Shell commands that trigger the check. @default ['git push', 'gh pr create', 'glab mr create', 'hub pull-request'] */
    push_commands?: string[];
    /**
     * What `kit hook` does when the check itself fails (the config does not load, git cannot tell
     * what changed) for a command that may push: `'block'` stops it and tells the agent why,
     * `'allow'` lets it run unchecked with a warning. @default 'block'
     */
    on_failure?: HookFailurePolicy;
  };
  instructions?: {
    /** File holding the instructions block, relative to `<root>`. @default 'AGENTS.md' */
    file?: string;
    /** Include the docs index in the block. @default true */
    index?: boolean;
    /** Size limit of the index, at least 1024. @default 8192 */
    index_max_bytes?: number;
    /** Branch changes are compared with; null detects it from the remote HEAD. @default null (env `KIT_DEFAULT_BRANCH`) */
    default_branch?: string | null;
  };
  references?: {
    /** Route names or URIs (with `*`) `<Route>` may describe; null: every application route. @default null */
    routes?: { allow?: string[] | null };
    /** Table names (with `*`) `<Model>` may describe. @default ['*'] */
    models?: { allow?: string[] };
    /** Name prefixes where `<Event>` looks up short names. @default ['events'] */
    events?: { namespaces?: string[] };
  };
  ui?: {
    /** Pages changed within this many days show a sidebar dot; 0 turns dots off. @default 1 */
    fresh_days?: number;
    /** Load the reader UI from a dev server at this URL. @default null (env `KIT_UI_DEV`) */
    dev_server?: string | null;
  };
  migrations?: {
    /** Where docs migrations are written and loaded, relative to `<root>`. @default 'migrations/docs' */
    path?: string;
    /** Skip docs migrations when the application runs its tests. @default false */
    skip_in_tests?: boolean;
  };
  /** Drizzle tables replacing Kit's own (compatible columns). @default null each (Kit's tables) */
  models?: Partial<Record<'page' | 'navigation' | 'manifest' | 'revision' | 'asset' | 'docs_migration', unknown>>;
  /** Database connections by name; `default` is used when a set names none. No URL: embedded PGlite under `<root>/.kit/`. */
  connections?: Record<string, ConnectionConfig>;
  /** Cache stores by name: `memory` (built in), `redis` (needs `url`); `array`/`null` only in tests. */
  stores?: Record<string, { driver: 'memory' | 'redis' | 'array' | 'null'; url?: string; max_entries?: number }>;
  /** Filesystem disks by name; `local` defaults to `<root>/.kit/assets`. */
  disks?: Record<string, { driver?: 'local'; root: string }>;
  /** Queues by name; `default` uses PostgreSQL through the `default` connection. */
  queues?: Record<string, QueueConfig>;
  /** `viewKit`, `manageKit`, `askKit`, `reviewKit`. */
  gates?: Gates;
  /** The signed-in user for a request (e.g. from a session cookie or bearer token); null is a guest. */
  resolveUser?: UserResolver;
  /** Named middleware referenced from `route.middleware` and `mcp.web.middleware`. */
  middleware?: Record<string, KitMiddleware>;
  /** Search drivers by name, selected with `search.driver`. */
  searchDrivers?: Record<string, SearchDriverEntry>;
  /**
   * Listeners of Kit's events by event name: a function or a list of functions, each given the
   * event's payload. Kit never waits for them and a failing one is logged, never thrown. The events
   * and their payloads: the events reference page.
   *
   * @example
   * events: { SearchPerformed: ({ set, query, results }) => metrics.count('search', { set, empty: results === 0 }) }
   */
  events?: KitEventHandlers;
}

/** Listeners by event name, as the config's `events` key takes them. */
export type KitEventHandlers = { [E in KitEventName]?: KitEventHandler<E> | readonly KitEventHandler<E>[] };
