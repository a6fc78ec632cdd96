import { describe, expect, it } from 'vitest';
import { isKitError } from '../errors/kit-error.js';
import { cacheStoreFor, resolveConfig } from './resolve.js';
import type { KitConfigInput } from './types.js';

const production = { NODE_ENV: 'production' };
const resolve = (input: KitConfigInput, env: Record<string, string> = production) =>
  resolveConfig(input, { env, root: '/app' });

function messageOf(input: unknown, env: Record<string, string> = production): string {
  try {
    resolve(input as KitConfigInput, env);
  } catch (error) {
    if (isKitError(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
  throw new Error('expected the config to be refused');
}

describe('sets', () => {
  it('use the set key as route.prefix and source folder when the keys are left out', () => {
    const config = resolve({ sets: { docs: {}, api: {} } });
    expect(config.sets.api!.route.prefix).toBe('api');
    expect(config.sets.api!.source.path).toBe('/app/api');
    expect(config.sets.docs!.source.path).toBe('/app/docs');
  });

  it('resolve a relative source.path against the root and keep an absolute one', () => {
    const config = resolve({
      sets: { docs: { source: { path: './content/docs' } }, api: { source: { path: '/srv/api' } } },
    });
    expect(config.sets.docs!.source.path).toBe('/app/content/docs');
    expect(config.sets.api!.source.path).toBe('/srv/api');
  });

  it("accept '' as a root-mounted prefix and trim slashes from others", () => {
    const config = resolve({
      sets: { docs: { route: { prefix: '' } }, api: { route: { prefix: '/reference/api/' } } },
    });
    expect(config.sets.docs!.route.prefix).toBe('');
    expect(config.sets.api!.route.prefix).toBe('reference/api');
  });

  it('trust no proxy by default and name a trusted_proxies entry that is not an address or range', () => {
    expect(resolve({}).http.trusted_proxies).toBe(false);
    expect(resolve({ http: { trusted_proxies: ['loopback', '10.0.0.0/8', '::1'] } }).http.trusted_proxies).toEqual([
      'loopback',
      '10.0.0.0/8',
      '::1',
    ]);
    expect(messageOf({ http: { trusted_proxies: ['10.0.0.0/8', 'proxy.internal'] } })).toMatchInlineSnapshot(
      `"config.invalid: \`http.trusted_proxies\` must be true, false, a number of hops, or a list of IP addresses, CIDR ranges (10.0.0.0/8) and the names loopback, linklocal, uniquelocal; got a list (["10.0.0.0/8","proxy.internal"]): "proxy.internal" is none of these"`,
    );
    expect(messageOf({ sets: { docs: { http: { trusted_proxies: true } } } })).toMatch(/sets\.docs\.http/);
  });

  it('refuse two sets mounted at the same prefix on the same domain', () => {
    expect(messageOf({ sets: { docs: {}, guides: { route: { prefix: 'docs' } } } })).toMatchInlineSnapshot(
      `"config.invalid: sets \`docs\` and \`guides\` both mount at \`/docs\`; give one of them its own \`route.prefix\` or \`route.domain\`"`,
    );
  });

  it('allow the same prefix on different domains', () => {
    const config = resolve({
      sets: { docs: { route: { domain: 'a.test' } }, other: { route: { prefix: 'docs', domain: 'b.test' } } },
    });
    expect(config.sets.other!.route).toEqual({ prefix: 'docs', domain: 'b.test', middleware: ['web'] });
  });

  it('keep a written link_prefix without its slashes, leave it out when unset, and refuse one that is no URL path', () => {
    expect(
      resolve({ sets: { laravel: { route: { prefix: 'laravel', link_prefix: '/docs/' } } } }).sets.laravel!.route,
    ).toEqual({
      prefix: 'laravel',
      domain: null,
      middleware: ['web'],
      link_prefix: 'docs',
    });
    expect(resolve({ sets: { laravel: { route: { link_prefix: '' } } } }).sets.laravel!.route.link_prefix).toBe('');
    expect(resolve({ sets: { laravel: { route: { link_prefix: null } } } }).sets.laravel!.route).not.toHaveProperty(
      'link_prefix',
    );
    expect(messageOf({ sets: { laravel: { route: { link_prefix: 'docs?v=1' } } } })).toMatchInlineSnapshot(
      `"config.invalid: \`sets.laravel.route.link_prefix\` must be the URL path the pages' links were written for, such as \`docs\` (letters, digits, \`.\`, \`_\`, \`~\`, \`-\`), '' for a root-mounted site, or null; got "docs?v=1""`,
    );
  });

  it('refuse a link_prefix or prefix with `.` or `..` segments, which a browser removes from every URL', () => {
    for (const link_prefix of ['..', 'docs/..', './docs', 'a/./b']) {
      expect(messageOf({ sets: { laravel: { route: { link_prefix } } } })).toContain(
        `\`sets.laravel.route.link_prefix\` must be the URL path`,
      );
    }
    expect(messageOf({ sets: { laravel: { route: { prefix: 'docs/..' } } } })).toContain(
      '`sets.laravel.route.prefix` must be a URL path',
    );
    expect(
      resolve({ sets: { laravel: { route: { link_prefix: 'docs/v1.2' } } } }).sets.laravel!.route.link_prefix,
    ).toBe('docs/v1.2');
  });

  it('warn that a link_prefix equal to the set prefix has no effect', () => {
    const config = resolve({ sets: { laravel: { route: { prefix: '/laravel/', link_prefix: 'laravel' } } } });
    expect(config.warnings).toMatchInlineSnapshot(`
      [
        "\`sets.laravel.route.link_prefix: 'laravel'\` has no effect: it is the set's own prefix, so links under it are served as written. Set it to the prefix the pages were written for (\`docs\` for links such as /docs/{{version}}/routing), or remove it.",
      ]
    `);
    expect(resolve({ sets: { laravel: { route: { prefix: 'laravel', link_prefix: 'docs' } } } }).warnings).toEqual([]);
  });

  it('keep a written middleware list whole, including an empty one', () => {
    expect(resolve({ sets: { docs: { route: { middleware: [] } } } }).sets.docs!.route.middleware).toEqual([]);
    expect(
      resolve({ sets: { docs: { route: { middleware: ['web', 'auth:token'] } } } }).sets.docs!.route.middleware,
    ).toEqual(['web', 'auth:token']);
  });

  it('keep analytics integrations as written', () => {
    const analytics = { plausible: { domain: 'example.com', src: 'https://stats.example.com/js/script.js' } };
    expect(resolve({ sets: { docs: { integrations: { analytics } } } }).sets.docs!.integrations).toEqual({ analytics });
  });
});

describe('the default set', () => {
  it('is docs when docs exists', () => {
    expect(resolve({ sets: { api: {}, docs: {} } }).default).toBe('docs');
  });

  it('is the first set when no set is keyed docs and none is named', () => {
    expect(resolve({ sets: { handbook: {}, api: {} } }).default).toBe('handbook');
  });

  it('is the written one, which must exist', () => {
    expect(resolve({ default: 'api', sets: { docs: {}, api: {} } }).default).toBe('api');
    expect(messageOf({ default: 'guide', sets: { docs: {}, guides: {} } })).toMatchInlineSnapshot(
      `"config.invalid: \`default\` names the set \`guide\`, which \`sets\` does not declare (did you mean \`guides\`?); the sets are \`docs\`, \`guides\`"`,
    );
  });
});

describe('per-set merge', () => {
  it('merges every shared group into each set, the set value winning key by key', () => {
    const config = resolve({
      review: 'auto',
      search: { driver: 'server', budget_kb: 500 },
      ai: { ask: { enabled: true, max_steps: 4 } },
      mcp: { web: { path: 'agents', rate_limit: '30,1' } },
      agents: { llms_full: false, sitemap: false },
      sets: {
        docs: {},
        api: {
          review: 'required',
          search: { budget_kb: 100 },
          ai: { ask: { max_steps: 2 } },
          mcp: { web: { rate_limit: '5,1' } },
          agents: { sitemap: true },
        },
      },
    });
    const docs = config.sets.docs!;
    const api = config.sets.api!;
    expect([docs.review, api.review]).toEqual(['auto', 'required']);
    expect(docs.search).toEqual({ driver: 'server', budget_kb: 500 });
    expect(api.search).toEqual({ driver: 'server', budget_kb: 100 });
    expect([docs.ai.ask.enabled, docs.ai.ask.max_steps, api.ai.ask.enabled, api.ai.ask.max_steps]).toEqual([
      true,
      4,
      true,
      2,
    ]);
    expect(api.mcp.web).toEqual({
      enabled: true,
      path: 'agents',
      author_tools: false,
      middleware: [],
      rate_limit: '5,1',
    });
    expect([docs.agents.llms_full, docs.agents.sitemap, api.agents.llms_full, api.agents.sitemap]).toEqual([
      false,
      false,
      false,
      true,
    ]);
  });

  it('reads feedback.enabled and snippets.root from the set first', () => {
    const config = resolve({
      feedback: { enabled: false },
      snippets: { root: 'examples' },
      sets: { docs: {}, api: { feedback: { enabled: true }, snippets: { root: '/srv/snippets' } } },
    });
    expect(config.sets.docs!.feedback.enabled).toBe(false);
    expect(config.sets.api!.feedback.enabled).toBe(true);
    expect(config.sets.docs!.snippets.root).toBe('/app/examples');
    expect(config.sets.api!.snippets.root).toBe('/srv/snippets');
  });

  it('replaces an ai.ask.provider map whole rather than merging the two maps', () => {
    const config = resolve({
      ai: { ask: { provider: { openai: 'gpt-4o' } } },
      sets: { docs: { ai: { ask: { provider: { anthropic: 'claude-sonnet' } } } } },
    });
    expect(config.sets.docs!.ai.ask.provider).toEqual({ anthropic: 'claude-sonnet' });
  });

  it('replaces lists whole, so a set can empty mcp.web.middleware', () => {
    const config = resolve({
      mcp: { web: { middleware: ['auth:token'] } },
      sets: { docs: { mcp: { web: { middleware: [] } } } },
    });
    expect(config.mcp.web.middleware).toEqual(['auth:token']);
    expect(config.sets.docs!.mcp.web.middleware).toEqual([]);
  });

  it('normalizes mcp.web.path slashes', () => {
    expect(resolve({ mcp: { web: { path: '/agents/mcp/' } } }).sets.docs!.mcp.web.path).toBe('agents/mcp');
  });
});

describe('keys read from the top level only', () => {
  const input = {
    ai: { ask: { rate_limit: '10,1' }, sync: { max_pages: 20 } },
    mcp: { local: true },
    cache: { store: null },
    feedback: { rate_limit: '20,1' },
    sets: {
      docs: {
        ai: { ask: { rate_limit: '99,1' }, sync: { max_pages: 1 } },
        mcp: { local: false },
        cache: { store: 'memory' },
        feedback: { rate_limit: '1,1' },
        references: { routes: { allow: ['x'] } },
        migrations: { path: 'elsewhere', skip_in_tests: true },
      },
    },
  } as unknown as KitConfigInput;

  it('ignore a set value for ai.ask.rate_limit, ai.sync, mcp.local, cache.store, feedback.rate_limit, references and migrations', () => {
    const docs = resolve(input).sets.docs!;
    expect(docs.ai.ask.rate_limit).toBe('10,1');
    expect(docs.ai.sync.max_pages).toBe(20);
    expect(docs.mcp.local).toBe(true);
    expect(docs.cache.store).toBeNull();
    expect(docs.feedback.rate_limit).toBe('20,1');
    expect(docs.references.routes.allow).toBeNull();
    expect(docs.migrations).toEqual({ path: '/app/migrations/docs', skip_in_tests: false });
  });

  it('warn about each ignored set value', () => {
    expect(resolve(input).warnings).toMatchInlineSnapshot(`
      [
        "\`sets.docs.ai.ask.rate_limit\` has no effect in a set: only the top-level value is read.",
        "\`sets.docs.ai.sync\` has no effect in a set: only the top-level value is read.",
        "\`sets.docs.mcp.local\` has no effect in a set: only the top-level value is read.",
        "\`sets.docs.cache.store\` has no effect in a set: only the top-level value is read; a database set names its own store with \`source.cache\`.",
        "\`sets.docs.feedback.rate_limit\` has no effect in a set: only the top-level value is read.",
        "\`sets.docs.references\` has no effect in a set: only the top-level value is read.",
        "\`sets.docs.migrations\` has no effect in a set: only the top-level value is read.",
      ]
    `);
  });

  it('take the top-level value into every set', () => {
    const config = resolve({
      ai: { ask: { rate_limit: '3,1' } },
      mcp: { local: false },
      references: { models: { allow: ['users'] } },
      migrations: { path: 'db/docs' },
      sets: { docs: {}, api: {} },
    });
    for (const set of Object.values(config.sets)) {
      expect(set.ai.ask.rate_limit).toBe('3,1');
      expect(set.mcp.local).toBe(false);
      expect(set.references.models.allow).toEqual(['users']);
      expect(set.migrations.path).toBe('/app/db/docs');
    }
  });
});

describe('database sets', () => {
  it('always escape raw HTML, with a warning when allow is written', () => {
    const config = resolve({ sets: { docs: { source: { driver: 'database' }, html_input: 'allow' } } });
    expect(config.sets.docs!.html_input).toBe('escape');
    expect(config.warnings).toMatchInlineSnapshot(`
      [
        "\`sets.docs.html_input: 'allow'\` has no effect: a database set always escapes raw HTML.",
      ]
    `);
  });

  it('let a repository set allow raw HTML', () => {
    expect(resolve({ sets: { docs: { html_input: 'allow' } } }).sets.docs!.html_input).toBe('allow');
  });

  it('read their own source.cache before cache.store, then memory', () => {
    const config = resolve({
      cache: { store: 'shared' },
      stores: {
        shared: { driver: 'redis', url: 'redis://127.0.0.1:6379' },
        pages: { driver: 'memory', max_entries: 500 },
      },
      sets: {
        docs: { source: { driver: 'database', cache: 'pages' } },
        api: { source: { driver: 'database' } },
        guides: {},
      },
    });
    expect(cacheStoreFor(config, 'docs')).toEqual({ name: 'pages', store: { driver: 'memory', max_entries: 500 } });
    expect(cacheStoreFor(config, 'api').name).toBe('shared');
    expect(cacheStoreFor(config, 'guides').name).toBe('shared');
    expect(cacheStoreFor(resolve({}), 'docs')).toEqual({ name: 'memory', store: { driver: 'memory' } });
  });

  it('refuse a source.cache, connection or disk that is not declared', () => {
    expect(
      messageOf({
        sets: { docs: { source: { driver: 'database', cache: 'redis', connection: 'main', disk: 'locl' } } },
      }),
    ).toMatchInlineSnapshot(`
      "config.invalid: 3 problems in the config:
      - \`sets.docs.source.cache\` names the store \`redis\`, which \`stores\` does not declare; fix the name or declare it, e.g. \`stores: { redis: { driver: 'redis', url: 'redis://127.0.0.1:6379' } }\`
      - \`sets.docs.source.connection\` names the connection \`main\`, which \`connections\` does not declare; fix the name or declare it, e.g. \`connections: { main: { url: process.env.DATABASE_URL } }\`
      - \`sets.docs.source.disk\` names the disk \`locl\`, which \`disks\` does not declare (did you mean \`local\`?); fix the name or declare it, e.g. \`disks: { locl: { root: 'storage/docs' } }\`"
    `);
  });

  it('warn that source.connection, cache and disk do nothing on a repository set', () => {
    expect(resolve({ sets: { docs: { source: { connection: 'default' } } } }).warnings).toMatchInlineSnapshot(`
      [
        "\`sets.docs.source.connection\` has no effect: it is read for database sets only.",
      ]
    `);
  });

  it('warn that web author tools never apply to a repository set', () => {
    expect(resolve({ mcp: { web: { author_tools: true } } }).warnings).toMatchInlineSnapshot(`
      [
        "\`mcp.web.author_tools\` is on for \`sets.docs\`, a repository set: a repository set never serves author tools on the web.",
      ]
    `);
  });
});

describe('test-only stores', () => {
  it('refuse array and null stores outside tests', () => {
    expect(messageOf({ stores: { fast: { driver: 'array' } } })).toMatchInlineSnapshot(
      `"config.invalid: \`stores.fast.driver: 'array'\` is a test store, refused outside tests (NODE_ENV=test or VITEST); use 'memory' or 'redis'"`,
    );
    expect(messageOf({ cache: { store: 'null' } })).toMatchInlineSnapshot(
      `"config.invalid: \`cache.store\` names the \`null\` store, a test store refused outside tests (NODE_ENV=test or VITEST); use \`memory\` or declare a redis store in \`stores\`"`,
    );
  });

  it('accept array and null stores under NODE_ENV=test or VITEST, declared or not', () => {
    expect(resolve({ cache: { store: 'array' } }, { NODE_ENV: 'test' }).stores.array).toEqual({ driver: 'array' });
    expect(resolve({ stores: { fast: { driver: 'null' } } }, { VITEST: 'true' }).stores.fast).toEqual({
      driver: 'null',
    });
  });

  it('require a url for a redis store', () => {
    expect(messageOf({ stores: { shared: { driver: 'redis' } } })).toMatchInlineSnapshot(
      `"config.invalid: \`stores.shared\` uses the redis driver and needs \`url\`, such as 'redis://127.0.0.1:6379'"`,
    );
  });
});

describe('connections, disks and queues', () => {
  it('keep the built-in defaults beside declared entries', () => {
    const config = resolve({
      connections: { main: { url: 'postgres://db/app' } },
      disks: { assets: { root: 'storage/assets' } },
      queues: { fast: { driver: 'redis', url: 'redis://127.0.0.1:6379' } },
    });
    expect(config.connections).toEqual({ default: {}, main: { url: 'postgres://db/app' } });
    expect(config.disks).toEqual({
      local: { driver: 'local', root: '/app/.kit/assets' },
      assets: { driver: 'local', root: '/app/storage/assets' },
    });
    expect(Object.keys(config.queues!)).toEqual(['default', 'fast']);
  });

  it('let the application replace the default connection and local disk', () => {
    const config = resolve({
      connections: { default: { url: 'postgres://db/app' } },
      disks: { local: { root: '/var/docs' } },
    });
    expect(config.connections.default).toEqual({ url: 'postgres://db/app' });
    expect(config.disks!.local).toEqual({ driver: 'local', root: '/var/docs' });
  });

  it('refuse a postgres queue on an undeclared connection', () => {
    expect(messageOf({ queues: { sync: { driver: 'postgres', connection: 'reports' } } })).toMatchInlineSnapshot(
      `"config.invalid: \`queues.sync.connection\` names the connection \`reports\`, which \`connections\` does not declare; fix the name or declare it, e.g. \`connections: { reports: { url: process.env.DATABASE_URL } }\`"`,
    );
  });
});

describe('application hooks', () => {
  it('pass gates, the user resolver, middleware and search drivers through unchanged', () => {
    const viewKit = () => true;
    const resolveUser = () => null;
    const web = async () => {};
    const algolia = () => ({ name: 'algolia', index: async () => {}, search: async () => [] });
    const config = resolve({ gates: { viewKit }, resolveUser, middleware: { web }, searchDrivers: { algolia } });
    expect(config.gates.viewKit).toBe(viewKit);
    expect(config.resolveUser).toBe(resolveUser);
    expect(config.middleware!.web).toBe(web);
    expect(config.searchDrivers!.algolia).toBe(algolia);
  });

  it('keep swapped model tables as given', () => {
    class PagesTable {}
    const page = new PagesTable();
    expect(resolve({ models: { page } }).models.page).toBe(page);
  });
});

describe('paths', () => {
  it('resolve against the root option, relative to the working directory when relative', () => {
    const config = resolveConfig({}, { env: {}, root: 'site' });
    expect(config.root).toBe(`${process.cwd()}/site`);
    expect(config.sets.docs!.source.path).toBe(`${process.cwd()}/site/docs`);
  });

  it('resolve instructions.file, migrations.path and snippets.root', () => {
    const config = resolve({
      instructions: { file: 'CLAUDE.md' },
      migrations: { path: 'db/docs' },
      snippets: { root: '.' },
    });
    expect(config.instructions.file).toBe('/app/CLAUDE.md');
    expect(config.migrations.path).toBe('/app/db/docs');
    expect(config.snippets.root).toBe('/app');
  });
});
