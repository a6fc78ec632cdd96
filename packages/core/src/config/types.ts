/**
 * Resolved configuration types. Keys are spelled exactly as in the specification's tables
 * (`mcp.web.author_tools`, `agents.llms_txt`, ...). The written form (`KitConfigInput`, every key
 * optional) and the loader live beside this file.
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
  route: { prefix: string; domain: string | null; middleware: string[] };
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

/** The whole resolved configuration. */
export interface ResolvedConfig extends SharedSettings {
  /** Folder of the config file, or the working directory; `<root>` in the docs. */
  root: string;
  default: string;
  sets: Record<string, ResolvedSetConfig>;
  hooks: { enabled: boolean; push_commands: string[] };
  instructions: { file: string; index: boolean; index_max_bytes: number; default_branch: string | null };
  ui: { fresh_days: number; dev_server: string | null };
  models: Record<'page' | 'navigation' | 'manifest' | 'revision' | 'asset' | 'docs_migration', unknown>;
  connections: Record<string, { url?: string }>;
  stores: Record<string, { driver: 'memory' | 'redis' | 'array' | 'null'; url?: string; max_entries?: number }>;
  gates: Gates;
}
