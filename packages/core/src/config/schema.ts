import { isPlainObject } from '../util/deep-merge.js';
import { invalidProxyEntries } from '../http/client-address.js';
import { KIT_EVENT_NAMES } from '../events/names.js';
import { INSTRUCTIONS_INDEX_MIN_BYTES } from './defaults.js';
import { explainPostgresSchemaName, isPostgresSchemaName, POSTGRES_SCHEMA_NAME_RULE } from './postgres-name.js';

/**
 * The shape of the written config, as data: every known key, what it accepts, and where a set's
 * value has no effect. Validation, merging and the reference page's completeness test all read it,
 * so a key is added in one place.
 */
export type SchemaNode = LeafNode | GroupNode | MapNode;

export interface LeafNode {
  kind: 'leaf';
  /** What the value must be, finishing the sentence "`key` must be ...". */
  expected: string;
  accepts(value: unknown): boolean;
  /** Which part of a refused value is wrong, when `expected` alone would leave the reader searching. */
  explain?(value: unknown): string | undefined;
  /** Set when a set may write the key but only the top-level value counts. */
  noEffectInSet?: string;
}

export interface GroupNode {
  kind: 'group';
  keys: Record<string, SchemaNode>;
  noEffectInSet?: string;
}

/** An object whose keys are names the user picks (`sets`, `stores`, ...). */
export interface MapNode {
  kind: 'map';
  value: SchemaNode;
  /** What a key must look like, and how to say so. */
  keyPattern?: { pattern: RegExp; expected: string };
  noEffectInSet?: string;
}

const leaf = (expected: string, accepts: (value: unknown) => boolean): LeafNode => ({
  kind: 'leaf',
  expected,
  accepts,
});
const group = (keys: Record<string, SchemaNode>): GroupNode => ({ kind: 'group', keys });
const map = (value: SchemaNode, keyPattern?: MapNode['keyPattern']): MapNode => ({ kind: 'map', value, keyPattern });

const isString = (value: unknown): value is string => typeof value === 'string';
const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every(isString);

export const RATE_LIMIT_PATTERN = /^\s*([1-9]\d*)\s*,\s*([1-9]\d*)\s*$/;

const string = leaf('a string', isString);
const nonEmptyString = leaf('a non-empty string', (value) => isString(value) && value.trim() !== '');
const stringOrNull = leaf('a string or null', (value) => value === null || isString(value));
const boolean = leaf('true or false', (value) => typeof value === 'boolean');
const positiveInteger = leaf('a positive integer', (value) => Number.isInteger(value) && (value as number) > 0);
const stringList = leaf('a list of strings', isStringList);
const stringListOrNull = leaf('a list of strings or null', (value) => value === null || isStringList(value));
const rateLimit = leaf(
  "a string 'requests,minutes' of two positive integers, such as '60,1'",
  (value) => isString(value) && RATE_LIMIT_PATTERN.test(value),
);
const func = leaf('a function', (value) => typeof value === 'function');
const anything = leaf('a value', () => true);
const oneOf = (...values: string[]) => {
  const quoted = values.map((value) => `'${value}'`);
  const expected = quoted.length === 1 ? quoted[0]! : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
  return leaf(expected, (value) => values.includes(value as string));
};
const schemaName: LeafNode = {
  ...leaf(POSTGRES_SCHEMA_NAME_RULE, isPostgresSchemaName),
  explain: explainPostgresSchemaName,
};
const httpsUrl = leaf('an https URL', (value) => isString(value) && /^https:\/\/[^\s]+$/.test(value));

const TOP_ONLY_IN_SET = 'only the top-level value is read';
const noEffect = <T extends SchemaNode>(node: T, reason = TOP_ONLY_IN_SET): T => ({ ...node, noEffectInSet: reason });

/** The groups both the top level and a set may write (`inSet` marks what a set's value cannot change). */
function sharedGroups(inSet: boolean): Record<string, SchemaNode> {
  const topOnly = <T extends SchemaNode>(node: T): T => (inSet ? noEffect(node) : node);
  return {
    review: oneOf('required', 'auto'),
    review_self_publish: boolean,
    cache: group({
      store: inSet
        ? noEffect(
            stringOrNull,
            'only the top-level value is read; a database set names its own store with `source.cache`',
          )
        : stringOrNull,
    }),
    search: group({ driver: nonEmptyString, budget_kb: positiveInteger }),
    snippets: group({ root: stringOrNull }),
    ai: group({
      ask: group({
        enabled: boolean,
        provider: leaf(
          'a provider name, a list of provider names, a map of provider name to model, or null',
          (value) =>
            value === null ||
            isString(value) ||
            isStringList(value) ||
            (isPlainObject(value) && Object.values(value).every(isString)),
        ),
        model: stringOrNull,
        max_steps: positiveInteger,
        rate_limit: topOnly(rateLimit),
        daily_budget: leaf(
          'a non-negative integer or null',
          (value) => value === null || (Number.isInteger(value) && (value as number) >= 0),
        ),
        max_messages: positiveInteger,
        max_question_length: positiveInteger,
        max_history_length: positiveInteger,
      }),
      sync: topOnly(
        group({
          provider: stringOrNull,
          model: stringOrNull,
          max_pages: positiveInteger,
          max_steps: positiveInteger,
          timeout: positiveInteger,
          remote_token: stringOrNull,
          deny: stringList,
          queue: stringOrNull,
        }),
      ),
    }),
    mcp: group({
      web: group({
        enabled: boolean,
        path: leaf(
          'a non-empty path segment such as `mcp`',
          (value) => isString(value) && value.replace(/^\/+|\/+$/g, '') !== '',
        ),
        author_tools: boolean,
        middleware: stringList,
        rate_limit: rateLimit,
      }),
      local: topOnly(boolean),
    }),
    agents: group({
      markdown: boolean,
      llms_txt: boolean,
      llms_full: boolean,
      skill_md: boolean,
      well_known_skills: boolean,
      sitemap: boolean,
      ask_endpoint: boolean,
      llms_txt_limit: positiveInteger,
      llms_full_limit: positiveInteger,
      markdown_budget: positiveInteger,
    }),
    feedback: group({ enabled: boolean, rate_limit: topOnly(rateLimit) }),
    references: topOnly(
      group({
        routes: group({ allow: stringListOrNull }),
        models: group({ allow: stringList }),
        events: group({ namespaces: stringList }),
      }),
    ),
    migrations: topOnly(group({ path: nonEmptyString, skip_in_tests: boolean })),
  };
}

const analytics = group({
  ga4: group({ measurementId: string }),
  plausible: group({ domain: string, src: httpsUrl }),
  fathom: group({ siteId: string, src: httpsUrl }),
  posthog: group({ apiKey: string, host: httpsUrl }),
  custom: group({
    src: httpsUrl,
    defer: boolean,
    async: boolean,
    attributes: map(string, { pattern: /^data-[a-z0-9-]+$/, expected: 'a `data-*` attribute name' }),
  }),
});

/** The keys only a set has (`sets.{key}.*`). */
export const setOwnSchema: Record<string, SchemaNode> = {
  route: group({
    prefix: leaf("a string (`''` mounts the set at the domain root)", isString),
    domain: stringOrNull,
    middleware: stringList,
    link_prefix: leaf(
      "a string or null (`''` for links written for a root-mounted site)",
      (value) => value === null || isString(value),
    ),
  }),
  source: group({
    driver: oneOf('repository', 'database'),
    path: nonEmptyString,
    connection: stringOrNull,
    cache: stringOrNull,
    disk: stringOrNull,
  }),
  access: group({ mode: oneOf('public', 'auth', 'gate') }),
  html_input: oneOf('escape', 'allow'),
  integrations: group({ analytics }),
};

/** A set key names a folder and a URL prefix, so it keeps to characters both allow. */
export const SET_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

export const setSchema: GroupNode = group({ ...setOwnSchema, ...sharedGroups(true) });

/** Everything `kit.config.ts` may hold. */
export const configSchema: GroupNode = group({
  default: nonEmptyString,
  sets: map(setSchema, {
    pattern: SET_KEY_PATTERN,
    expected: 'letters, digits, `-` and `_`, starting with a letter or digit',
  }),
  ...sharedGroups(false),
  hooks: group({ enabled: boolean, push_commands: stringList, on_failure: oneOf('block', 'allow') }),
  http: group({
    trusted_proxies: {
      ...leaf(
        'true, false, a number of hops, or a list of IP addresses, CIDR ranges (10.0.0.0/8) and the names loopback, linklocal, uniquelocal',
        (value) =>
          typeof value === 'boolean' ||
          (Number.isInteger(value) && (value as number) >= 0) ||
          (isStringList(value) && invalidProxyEntries(value).length === 0),
      ),
      explain: (value) => {
        const bad = isStringList(value) ? invalidProxyEntries(value) : [];
        return bad.length === 0 ? undefined : `${bad.map((entry) => `"${entry}"`).join(', ')} is none of these`;
      },
    },
  }),
  instructions: group({
    file: nonEmptyString,
    index: boolean,
    index_max_bytes: leaf(
      `an integer of at least ${INSTRUCTIONS_INDEX_MIN_BYTES}`,
      (value) => Number.isInteger(value) && (value as number) >= INSTRUCTIONS_INDEX_MIN_BYTES,
    ),
    default_branch: stringOrNull,
  }),
  ui: group({
    fresh_days: leaf(
      'a number of days, 0 or more',
      (value) => typeof value === 'number' && Number.isFinite(value) && value >= 0,
    ),
    dev_server: leaf(
      'an http(s) URL or null',
      (value) => value === null || (isString(value) && /^https?:\/\/\S+$/.test(value)),
    ),
  }),
  models: group({
    page: anything,
    navigation: anything,
    manifest: anything,
    revision: anything,
    asset: anything,
    docs_migration: anything,
  }),
  connections: map(
    group({
      url: leaf(
        'a `postgres://` or `postgresql://` URL',
        (value) => isString(value) && /^postgres(ql)?:\/\/\S+$/.test(value),
      ),
      schema: schemaName,
    }),
  ),
  stores: map(
    group({
      driver: oneOf('memory', 'redis', 'array', 'null'),
      url: leaf('a `redis://` or `rediss://` URL', (value) => isString(value) && /^rediss?:\/\/\S+$/.test(value)),
      max_entries: positiveInteger,
    }),
  ),
  disks: map(group({ driver: oneOf('local'), root: nonEmptyString })),
  queues: map(
    group({
      driver: oneOf('postgres', 'redis'),
      connection: nonEmptyString,
      schema: schemaName,
      url: leaf('a `redis://` or `rediss://` URL', (value) => isString(value) && /^rediss?:\/\/\S+$/.test(value)),
    }),
    // A queue's name goes into pg-boss's queue name (`kit/<name>/sync`), which pg-boss 12 limits so.
    { pattern: /^[A-Za-z0-9_.-]+$/, expected: 'letters, digits, underscores, hyphens or periods' },
  ),
  gates: group({ viewKit: func, manageKit: func, askKit: func, reviewKit: func }),
  resolveUser: func,
  middleware: map(func),
  events: group(
    Object.fromEntries(
      KIT_EVENT_NAMES.map((name): [string, SchemaNode] => [
        name,
        {
          ...leaf(
            `a function or a list of functions, each given the ${name} payload, e.g. \`${name}: (payload) => log(payload)\``,
            (value) =>
              typeof value === 'function' ||
              (Array.isArray(value) && value.every((handler) => typeof handler === 'function')),
          ),
          explain: (value) => {
            if (!Array.isArray(value)) return undefined;
            const at = value.findIndex((handler) => typeof handler !== 'function');
            return `item ${at + 1} of the list is not a function`;
          },
        },
      ]),
    ),
  ),
  searchDrivers: map(
    leaf(
      'a search driver (an object with `search` and `index`) or a function that returns one',
      (value) =>
        typeof value === 'function' ||
        (value !== null &&
          typeof value === 'object' &&
          typeof (value as { search?: unknown }).search === 'function' &&
          typeof (value as { index?: unknown }).index === 'function'),
    ),
  ),
});

/** The node at a key path of the top-level schema (set keys descend into `setSchema`), or null. */
export function schemaNodeAt(path: readonly string[], root: SchemaNode = configSchema): SchemaNode | null {
  let node: SchemaNode | null = root;
  for (const key of path) {
    if (node === null) return null;
    if (node.kind === 'group') node = node.keys[key] ?? null;
    else if (node.kind === 'map') node = node.value;
    else return null;
  }
  return node;
}

/**
 * Every leaf key path the config knows, dotted, with set keys written `sets.{key}` and map entries
 * `{name}`. The configuration reference page is tested against this list.
 */
export function knownKeyPaths(node: SchemaNode = configSchema, prefix = ''): string[] {
  if (node.kind === 'leaf') return [prefix];
  if (node.kind === 'map') {
    const placeholder = prefix === 'sets' ? '{key}' : '{name}';
    return knownKeyPaths(node.value, `${prefix}.${placeholder}`);
  }
  return Object.entries(node.keys).flatMap(([key, child]) => knownKeyPaths(child, prefix ? `${prefix}.${key}` : key));
}
