import { KitError } from '../errors/kit-error.js';
import type { KitConfigInput } from './types.js';

/** The environment variables the configuration reads, as the specification lists them. */
export const KIT_ENV_VARIABLES = [
  'KIT_DEFAULT_SET',
  'KIT_PREFIX',
  'KIT_REVIEW',
  'KIT_CACHE_STORE',
  'KIT_ASK',
  'KIT_AI_PROVIDER',
  'KIT_AI_MODEL',
  'KIT_SYNC_TOKEN',
  'KIT_SYNC_QUEUE',
  'KIT_HOOKS',
  'KIT_DEFAULT_BRANCH',
  'KIT_UI_DEV',
] as const;

export type KitEnv = Readonly<Record<string, string | undefined>>;

/** What the environment contributes: a layer under the written config, plus two special cases. */
export interface EnvLayer {
  /** Values for keys the written config leaves out. */
  input: KitConfigInput;
  /** `KIT_PREFIX`: the `docs` set's `route.prefix` when that set does not write one. */
  docsPrefix: string | undefined;
  /** `KIT_HOOKS=off`: the pre-push check is off whatever the config says. */
  hooksOff: boolean;
}

/**
 * True when `KIT_HOOKS` turns the pre-push check off (`off`, also `false`, `0`, `no`; any case).
 * `kit hook` reads the variable directly with this same rule, so one session can skip the check.
 *
 * @example
 * isHooksOff('OFF'); // true
 */
export function isHooksOff(value: string | undefined): boolean {
  return value !== undefined && ['off', 'false', '0', 'no'].includes(value.trim().toLowerCase());
}

/**
 * True when the application runs its tests (`NODE_ENV=test` or vitest's `VITEST`); the `array` and
 * `null` cache stores are accepted only then.
 */
export function isTestEnvironment(env: KitEnv): boolean {
  return env.NODE_ENV === 'test' || (env.VITEST !== undefined && env.VITEST !== '' && env.VITEST !== 'false');
}

/** Reads the `KIT_*` variables into a config layer; a malformed value is a `config.invalid` naming the variable. */
export function readEnv(env: KitEnv): EnvLayer {
  const input: KitConfigInput = {};
  const text = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  /** `null` (any case) and `(null)` spell null, as Laravel's `env()` reads them. */
  const nullable = (name: string): string | null | undefined => {
    const value = text(name);
    if (value === undefined) return undefined;
    return ['null', '(null)'].includes(value.toLowerCase()) ? null : value;
  };

  const defaultSet = text('KIT_DEFAULT_SET');
  if (defaultSet !== undefined) input.default = defaultSet;

  const review = text('KIT_REVIEW');
  if (review !== undefined) {
    const mode = review.toLowerCase();
    if (mode !== 'required' && mode !== 'auto') {
      throw new KitError(
        'config.invalid',
        `KIT_REVIEW must be \`required\` or \`auto\`; got ${JSON.stringify(review)}`,
      );
    }
    input.review = mode;
  }

  const cacheStore = nullable('KIT_CACHE_STORE');
  if (cacheStore !== undefined) input.cache = { store: cacheStore };

  const ask = text('KIT_ASK');
  const askEnabled = ask === undefined ? undefined : parseBoolean('KIT_ASK', ask);
  const provider = nullable('KIT_AI_PROVIDER');
  const providers =
    typeof provider === 'string'
      ? provider
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean)
      : [];
  const model = nullable('KIT_AI_MODEL');
  input.ai = {
    ask: {
      ...(askEnabled === undefined ? {} : { enabled: askEnabled }),
      ...(provider === undefined
        ? {}
        : { provider: provider === null ? null : providers.length > 1 ? providers : providers[0]! }),
      ...(model === undefined ? {} : { model }),
    },
    sync: {
      // `ai.sync.provider` is one name; a failover list in KIT_AI_PROVIDER gives sync its first entry.
      ...(provider === undefined ? {} : { provider: provider === null ? null : providers[0]! }),
      ...(model === undefined ? {} : { model }),
      ...optional('remote_token', nullable('KIT_SYNC_TOKEN')),
      ...optional('queue', nullable('KIT_SYNC_QUEUE')),
    },
  };

  const defaultBranch = nullable('KIT_DEFAULT_BRANCH');
  if (defaultBranch !== undefined) input.instructions = { default_branch: defaultBranch };

  const devServer = nullable('KIT_UI_DEV');
  if (devServer !== undefined) {
    if (devServer !== null && !/^https?:\/\/\S+$/.test(devServer)) {
      throw new KitError(
        'config.invalid',
        `KIT_UI_DEV must be the dev server's http(s) URL, such as http://localhost:5173; got ${JSON.stringify(devServer)}`,
      );
    }
    input.ui = { dev_server: devServer };
  }

  const prefix = env.KIT_PREFIX;
  return {
    input,
    // An empty KIT_PREFIX is meaningful: it mounts the docs set at the domain root.
    docsPrefix: prefix === undefined ? undefined : prefix.trim(),
    hooksOff: isHooksOff(env.KIT_HOOKS),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

function parseBoolean(name: string, value: string): boolean {
  const lowered = value.toLowerCase();
  if (['true', '(true)', '1', 'yes', 'on'].includes(lowered)) return true;
  if (['false', '(false)', '0', 'no', 'off'].includes(lowered)) return false;
  throw new KitError('config.invalid', `${name} must be \`true\` or \`false\`; got ${JSON.stringify(value)}`);
}
