import { describe, expect, it } from 'vitest';
import { isHooksOff, isTestEnvironment, KIT_ENV_VARIABLES } from './env.js';
import { resolveConfig } from './resolve.js';
import type { KitConfigInput } from './types.js';

const resolve = (env: Record<string, string>, input: KitConfigInput = {}) =>
  resolveConfig(input, { env, root: '/app' });

describe('KIT_* environment variables', () => {
  it('are exactly the twelve the specification lists', () => {
    expect(KIT_ENV_VARIABLES).toEqual([
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
    ]);
  });

  it('KIT_DEFAULT_SET picks the default set', () => {
    const config = resolve({ KIT_DEFAULT_SET: 'api' }, { sets: { docs: {}, api: {} } });
    expect(config.default).toBe('api');
  });

  it('KIT_DEFAULT_SET naming a missing set is refused with a suggestion', () => {
    expect(() =>
      resolve({ KIT_DEFAULT_SET: 'apj' }, { sets: { docs: {}, api: {} } }),
    ).toThrowErrorMatchingInlineSnapshot(
      `[KitError: KIT_DEFAULT_SET names the set \`apj\`, which \`sets\` does not declare (did you mean \`api\`?); the sets are \`docs\`, \`api\`]`,
    );
  });

  it('KIT_PREFIX sets the docs set route.prefix only', () => {
    const config = resolve({ KIT_PREFIX: 'handbook' }, { sets: { docs: {}, api: {} } });
    expect(config.sets.docs!.route.prefix).toBe('handbook');
    expect(config.sets.api!.route.prefix).toBe('api');
  });

  it('an empty KIT_PREFIX mounts the docs set at the domain root', () => {
    expect(resolve({ KIT_PREFIX: '' }).sets.docs!.route.prefix).toBe('');
  });

  it('KIT_PREFIX loses to a route.prefix written in the config', () => {
    const config = resolve({ KIT_PREFIX: 'handbook' }, { sets: { docs: { route: { prefix: 'manual' } } } });
    expect(config.sets.docs!.route.prefix).toBe('manual');
  });

  it('a malformed KIT_PREFIX is refused naming the variable', () => {
    expect(() => resolve({ KIT_PREFIX: 'my docs' })).toThrowErrorMatchingInlineSnapshot(
      `[KitError: KIT_PREFIX must be a URL path such as \`docs\` or \`guides/v2\` (letters, digits, \`.\`, \`_\`, \`~\`, \`-\`), or '' for the domain root; got "my docs"]`,
    );
  });

  it('KIT_REVIEW sets review for every set that does not write its own', () => {
    const config = resolve({ KIT_REVIEW: 'auto' }, { sets: { docs: {}, api: { review: 'required' } } });
    expect(config.review).toBe('auto');
    expect(config.sets.docs!.review).toBe('auto');
    expect(config.sets.api!.review).toBe('required');
  });

  it('KIT_REVIEW with another value is refused', () => {
    expect(() => resolve({ KIT_REVIEW: 'sometimes' })).toThrowErrorMatchingInlineSnapshot(
      `[KitError: KIT_REVIEW must be \`required\` or \`auto\`; got "sometimes"]`,
    );
  });

  it('KIT_CACHE_STORE names the top-level cache store', () => {
    const config = resolve(
      { KIT_CACHE_STORE: 'shared' },
      { stores: { shared: { driver: 'redis', url: 'redis://127.0.0.1:6379' } } },
    );
    expect(config.cache.store).toBe('shared');
    expect(config.sets.docs!.cache.store).toBe('shared');
  });

  it('KIT_CACHE_STORE naming an undeclared store is refused naming the variable', () => {
    expect(() => resolve({ KIT_CACHE_STORE: 'redis' })).toThrowErrorMatchingInlineSnapshot(
      `[KitError: KIT_CACHE_STORE names the store \`redis\`, which \`stores\` does not declare; fix the name or declare it, e.g. \`stores: { redis: { driver: 'redis', url: 'redis://127.0.0.1:6379' } }\`]`,
    );
  });

  it('KIT_ASK turns Ask AI on and off', () => {
    expect(resolve({ KIT_ASK: 'true' }).ai.ask.enabled).toBe(true);
    expect(resolve({ KIT_ASK: '1' }).sets.docs!.ai.ask.enabled).toBe(true);
    expect(resolve({ KIT_ASK: 'false' }, {}).ai.ask.enabled).toBe(false);
  });

  it('KIT_ASK with a non-boolean value is refused', () => {
    expect(() => resolve({ KIT_ASK: 'maybe' })).toThrowErrorMatchingInlineSnapshot(
      `[KitError: KIT_ASK must be \`true\` or \`false\`; got "maybe"]`,
    );
  });

  it('KIT_AI_PROVIDER and KIT_AI_MODEL set both ai.ask and ai.sync', () => {
    const config = resolve({ KIT_AI_PROVIDER: 'anthropic', KIT_AI_MODEL: 'claude-sonnet' });
    expect(config.ai.ask.provider).toBe('anthropic');
    expect(config.ai.ask.model).toBe('claude-sonnet');
    expect(config.ai.sync.provider).toBe('anthropic');
    expect(config.ai.sync.model).toBe('claude-sonnet');
    expect(config.sets.docs!.ai.ask.provider).toBe('anthropic');
  });

  it('a comma list in KIT_AI_PROVIDER is a failover order for ask and its first name for sync', () => {
    const config = resolve({ KIT_AI_PROVIDER: 'openai, anthropic' });
    expect(config.ai.ask.provider).toEqual(['openai', 'anthropic']);
    expect(config.ai.sync.provider).toBe('openai');
  });

  it('KIT_SYNC_TOKEN and KIT_SYNC_QUEUE set ai.sync.remote_token and ai.sync.queue', () => {
    const config = resolve(
      { KIT_SYNC_TOKEN: 'tok_123', KIT_SYNC_QUEUE: 'docs-sync' },
      { queues: { 'docs-sync': { driver: 'redis', url: 'redis://127.0.0.1:6379' } } },
    );
    expect(config.ai.sync.remote_token).toBe('tok_123');
    expect(config.ai.sync.queue).toBe('docs-sync');
  });

  it('KIT_SYNC_QUEUE naming an undeclared queue is refused naming the variable', () => {
    expect(() => resolve({ KIT_SYNC_QUEUE: 'defualt' })).toThrowErrorMatchingInlineSnapshot(
      `[KitError: KIT_SYNC_QUEUE names the queue \`defualt\`, which \`queues\` does not declare (did you mean \`default\`?); fix the name or declare it, e.g. \`queues: { defualt: { driver: 'postgres', connection: 'default' } }\`]`,
    );
  });

  it('KIT_HOOKS=off turns the pre-push check off, even over a written true', () => {
    expect(resolve({ KIT_HOOKS: 'off' }).hooks.enabled).toBe(false);
    expect(resolve({ KIT_HOOKS: 'off' }, { hooks: { enabled: true } }).hooks.enabled).toBe(false);
    expect(resolve({ KIT_HOOKS: 'on' }).hooks.enabled).toBe(true);
    expect(resolve({}).hooks.enabled).toBe(true);
  });

  it('KIT_DEFAULT_BRANCH sets instructions.default_branch', () => {
    expect(resolve({ KIT_DEFAULT_BRANCH: 'trunk' }).instructions.default_branch).toBe('trunk');
  });

  it('KIT_UI_DEV sets ui.dev_server and must be a URL', () => {
    expect(resolve({ KIT_UI_DEV: 'http://localhost:5173' }).ui.dev_server).toBe('http://localhost:5173');
    expect(() => resolve({ KIT_UI_DEV: 'localhost:5173' })).toThrowErrorMatchingInlineSnapshot(
      `[KitError: KIT_UI_DEV must be the dev server's http(s) URL, such as http://localhost:5173; got "localhost:5173"]`,
    );
  });

  it('lose to values written in the config', () => {
    const config = resolve(
      { KIT_REVIEW: 'auto', KIT_ASK: 'true', KIT_AI_MODEL: 'from-env', KIT_DEFAULT_BRANCH: 'trunk' },
      {
        review: 'required',
        ai: { ask: { enabled: false }, sync: { model: 'written' } },
        instructions: { default_branch: 'main' },
      },
    );
    expect(config.review).toBe('required');
    expect(config.ai.ask.enabled).toBe(false);
    expect(config.ai.ask.model).toBe('from-env');
    expect(config.ai.sync.model).toBe('written');
    expect(config.instructions.default_branch).toBe('main');
  });

  it('treat an empty value as unset and `null` as null', () => {
    const config = resolve({ KIT_REVIEW: '', KIT_AI_MODEL: 'null', KIT_DEFAULT_SET: ' ' });
    expect(config.review).toBe('required');
    expect(config.ai.ask.model).toBeNull();
    expect(config.default).toBe('docs');
  });

  it('are read from process.env when no env is passed', () => {
    const previous = process.env.KIT_DEFAULT_BRANCH;
    process.env.KIT_DEFAULT_BRANCH = 'from-process';
    try {
      expect(resolveConfig({}, { root: '/app' }).instructions.default_branch).toBe('from-process');
    } finally {
      if (previous === undefined) delete process.env.KIT_DEFAULT_BRANCH;
      else process.env.KIT_DEFAULT_BRANCH = previous;
    }
  });
});

describe('isHooksOff', () => {
  it('reads off, false, 0 and no in any case as off', () => {
    expect(['off', 'OFF', ' Off ', 'false', '0', 'no'].map(isHooksOff)).toEqual([true, true, true, true, true, true]);
    expect([undefined, '', 'on', '1'].map(isHooksOff)).toEqual([false, false, false, false]);
  });
});

describe('isTestEnvironment', () => {
  it('is true under NODE_ENV=test or VITEST', () => {
    expect(isTestEnvironment({ NODE_ENV: 'test' })).toBe(true);
    expect(isTestEnvironment({ VITEST: 'true' })).toBe(true);
    expect(isTestEnvironment({ NODE_ENV: 'production' })).toBe(false);
    expect(isTestEnvironment({})).toBe(false);
  });
});
