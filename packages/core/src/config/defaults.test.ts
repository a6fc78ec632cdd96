import { describe, expect, it } from 'vitest';
import { configDefaults } from './defaults.js';
import { resolveConfig } from './resolve.js';

const resolveEmpty = () => resolveConfig({}, { env: {}, root: '/app' });

describe('configuration defaults', () => {
  it('resolve an empty config to the specification defaults for every top-level key', () => {
    const config = resolveEmpty();
    expect(config.default).toBe('docs');
    expect(config.review).toBe('required');
    expect(config.cache).toEqual({ store: null });
    expect(config.search).toEqual({ driver: 'client', budget_kb: 300 });
    expect(config.snippets).toEqual({ root: null });
    expect(config.ai).toEqual({
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
    });
    expect(config.mcp).toEqual({
      web: { enabled: true, path: 'mcp', author_tools: false, middleware: [], rate_limit: '60,1' },
      local: true,
    });
    expect(config.agents).toEqual({
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
    });
    expect(config.feedback).toEqual({ enabled: true, rate_limit: '20,1' });
    expect(config.hooks).toEqual({
      enabled: true,
      push_commands: ['git push', 'gh pr create', 'glab mr create', 'hub pull-request'],
      on_failure: 'block',
    });
    expect(config.instructions).toEqual({
      file: '/app/AGENTS.md',
      index: true,
      index_max_bytes: 8192,
      default_branch: null,
    });
    expect(config.references).toEqual({
      routes: { allow: null },
      models: { allow: ['*'] },
      events: { namespaces: ['events'] },
    });
    expect(config.ui).toEqual({ fresh_days: 1, dev_server: null });
    expect(config.migrations).toEqual({ path: '/app/migrations/docs', skip_in_tests: false });
    expect(config.models).toEqual({
      page: null,
      navigation: null,
      manifest: null,
      revision: null,
      asset: null,
      docs_migration: null,
    });
  });

  it('give a config without sets one repository set `docs` served at /docs from <root>/docs', () => {
    const config = resolveEmpty();
    expect(Object.keys(config.sets)).toEqual(['docs']);
    const docs = config.sets.docs!;
    expect(docs.key).toBe('docs');
    expect(docs.route).toEqual({ prefix: 'docs', domain: null, middleware: ['web'] });
    expect(docs.source).toEqual({ driver: 'repository', path: '/app/docs', connection: null, cache: null, disk: null });
    expect(docs.access).toEqual({ mode: 'public' });
    expect(docs.html_input).toBe('escape');
    expect(docs.integrations).toEqual({});
    expect(docs.review).toBe('required');
    expect(docs.search).toEqual({ driver: 'client', budget_kb: 300 });
  });

  it('name the application defaults for connections, stores, disks and queues', () => {
    const config = resolveEmpty();
    expect(config.connections).toEqual({ default: {} });
    expect(config.stores).toEqual({ memory: { driver: 'memory' } });
    expect(config.disks).toEqual({ local: { driver: 'local', root: '/app/.kit/assets' } });
    expect(config.queues).toEqual({ default: { driver: 'postgres', connection: 'default' } });
    expect(config.gates).toEqual({});
    expect(config.middleware).toEqual({});
    expect(config.searchDrivers).toEqual({});
    expect(config.resolveUser).toBeUndefined();
    expect(config.root).toBe('/app');
    expect(config.file).toBeNull();
    expect(config.warnings).toEqual([]);
  });

  it('are frozen so no caller can change them for everyone', () => {
    expect(Object.isFrozen(configDefaults.agents)).toBe(true);
    expect(() => {
      (configDefaults.hooks.push_commands as string[]).push('svn commit');
    }).toThrow(TypeError);
  });

  it('are not shared with a resolved config', () => {
    const config = resolveEmpty();
    config.hooks.push_commands.push('jj git push');
    config.sets.docs!.route.middleware.push('auth');
    expect(resolveEmpty().hooks.push_commands).toHaveLength(4);
    expect(resolveEmpty().sets.docs!.route.middleware).toEqual(['web']);
  });
});
