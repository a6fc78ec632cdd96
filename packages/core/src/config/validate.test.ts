import { describe, expect, it } from 'vitest';
import { isKitError } from '../errors/kit-error.js';
import { resolveConfig } from './resolve.js';
import { checkConfig } from './validate.js';

const resolve = (input: unknown) => resolveConfig(input as never, { env: {}, root: '/app' });

function messageOf(input: unknown): string {
  try {
    resolve(input);
  } catch (error) {
    if (isKitError(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
  throw new Error('expected the config to be refused');
}

describe('unknown keys', () => {
  it('name the full key path and suggest the nearest known key', () => {
    expect(messageOf({ agents: { llm_txt: false } })).toMatchInlineSnapshot(
      `"config.unknown_key: unknown key \`agents.llm_txt\`; did you mean \`agents.llms_txt\`?"`,
    );
  });

  it('are found at the top level', () => {
    expect(messageOf({ serach: { driver: 'server' } })).toMatchInlineSnapshot(
      `"config.unknown_key: unknown key \`serach\`; did you mean \`search\`?"`,
    );
  });

  it('are found inside a set, with the set key in the path', () => {
    expect(messageOf({ sets: { guides: { rout: { prefix: 'g' } } } })).toMatchInlineSnapshot(
      `"config.unknown_key: unknown key \`sets.guides.rout\`; did you mean \`sets.guides.route\`?"`,
    );
    expect(messageOf({ sets: { docs: { mcp: { web: { author_tool: true } } } } })).toMatchInlineSnapshot(
      `"config.unknown_key: unknown key \`sets.docs.mcp.web.author_tool\`; did you mean \`sets.docs.mcp.web.author_tools\`?"`,
    );
  });

  it('match camelCase spellings to the snake_case keys', () => {
    expect(messageOf({ ai: { ask: { maxSteps: 3 } } })).toMatchInlineSnapshot(
      `"config.unknown_key: unknown key \`ai.ask.maxSteps\`; did you mean \`ai.ask.max_steps\`?"`,
    );
  });

  it('list the accepted keys when nothing is close', () => {
    expect(messageOf({ ui: { colour: 'red' } })).toMatchInlineSnapshot(
      `"config.unknown_key: unknown key \`ui.colour\`; the keys \`ui\` accepts are \`fresh_days\`, \`dev_server\`"`,
    );
  });

  it('say a set key written at the top level belongs to a set', () => {
    expect(messageOf({ route: { prefix: 'x' } })).toMatchInlineSnapshot(
      `"config.unknown_key: unknown key \`route\`; \`route\` belongs to a set: write it as \`sets.docs.route\` (or under your set's key)"`,
    );
  });

  it('say a top-level-only group written in a set must move out', () => {
    expect(messageOf({ sets: { docs: { hooks: { enabled: false } } } })).toMatchInlineSnapshot(
      `"config.unknown_key: \`sets.docs.hooks\` is read from the top level only; move it out of \`sets.docs\` to \`hooks\`"`,
    );
  });

  it('suggest gate names', () => {
    expect(messageOf({ gates: { viewkit: () => true } })).toMatchInlineSnapshot(
      `"config.unknown_key: unknown key \`gates.viewkit\`; did you mean \`gates.viewKit\`?"`,
    );
  });

  it('carry the code config.unknown_key and every problem in details', () => {
    try {
      resolve({ agents: { llm_txt: false }, serach: {} });
      expect.unreachable();
    } catch (error) {
      expect(isKitError(error, 'config.unknown_key')).toBe(true);
      expect(
        (error as { details: { issues: Array<{ path: string }> } }).details.issues.map((issue) => issue.path),
      ).toEqual(['agents.llm_txt', 'serach']);
    }
  });
});

describe('mistyped values', () => {
  it('name the key, what it must be and what was written', () => {
    expect(messageOf({ search: { budget_kb: '300' } })).toMatchInlineSnapshot(
      `"config.invalid: \`search.budget_kb\` must be a positive integer; got "300" (a string)"`,
    );
    expect(messageOf({ review: 'sometimes' })).toMatchInlineSnapshot(
      `"config.invalid: \`review\` must be 'required' or 'auto'; got "sometimes" (a string)"`,
    );
  });

  it('refuse an unknown access mode and html_input', () => {
    expect(messageOf({ sets: { docs: { access: { mode: 'private' } } } })).toMatchInlineSnapshot(
      `"config.invalid: \`sets.docs.access.mode\` must be 'public', 'auth' or 'gate'; got "private" (a string)"`,
    );
    expect(messageOf({ sets: { docs: { html_input: 'raw' } } })).toMatchInlineSnapshot(
      `"config.invalid: \`sets.docs.html_input\` must be 'escape' or 'allow'; got "raw" (a string)"`,
    );
  });

  it('refuse a hook failure policy other than block or allow', () => {
    expect(messageOf({ hooks: { on_failure: 'ignore' } })).toMatchInlineSnapshot(
      `"config.invalid: \`hooks.on_failure\` must be 'block' or 'allow'; got "ignore" (a string)"`,
    );
  });

  it('refuse a source driver other than repository or database', () => {
    expect(messageOf({ sets: { docs: { source: { driver: 'git' } } } })).toMatchInlineSnapshot(
      `"config.invalid: \`sets.docs.source.driver\` must be 'repository' or 'database'; got "git" (a string)"`,
    );
  });

  it('refuse rate limits that are not two positive integers', () => {
    expect(messageOf({ mcp: { web: { rate_limit: '60' } } })).toMatchInlineSnapshot(
      `"config.invalid: \`mcp.web.rate_limit\` must be a string 'requests,minutes' of two positive integers, such as '60,1'; got "60" (a string)"`,
    );
    expect(messageOf({ feedback: { rate_limit: '0,1' } })).toMatchInlineSnapshot(
      `"config.invalid: \`feedback.rate_limit\` must be a string 'requests,minutes' of two positive integers, such as '60,1'; got "0,1" (a string)"`,
    );
    expect(messageOf({ ai: { ask: { rate_limit: 10 } } })).toMatchInlineSnapshot(
      `"config.invalid: \`ai.ask.rate_limit\` must be a string 'requests,minutes' of two positive integers, such as '60,1'; got 10 (a number)"`,
    );
  });

  it('accept rate limits with spaces around the comma', () => {
    expect(resolve({ mcp: { web: { rate_limit: '120, 5' } } }).mcp.web.rate_limit).toBe('120, 5');
  });

  it('refuse instructions.index_max_bytes below 1024', () => {
    expect(messageOf({ instructions: { index_max_bytes: 1000 } })).toMatchInlineSnapshot(
      `"config.invalid: \`instructions.index_max_bytes\` must be an integer of at least 1024; got 1000 (a number)"`,
    );
    expect(resolve({ instructions: { index_max_bytes: 1024 } }).instructions.index_max_bytes).toBe(1024);
  });

  it('refuse a negative ui.fresh_days and accept 0', () => {
    expect(messageOf({ ui: { fresh_days: -1 } })).toMatchInlineSnapshot(
      `"config.invalid: \`ui.fresh_days\` must be a number of days, 0 or more; got -1 (a number)"`,
    );
    expect(resolve({ ui: { fresh_days: 0 } }).ui.fresh_days).toBe(0);
    expect(resolve({ ui: { fresh_days: 0.5 } }).ui.fresh_days).toBe(0.5);
  });

  it('refuse a group written as something other than an object', () => {
    expect(messageOf({ agents: true })).toMatchInlineSnapshot(
      `"config.invalid: \`agents\` must be an object with the keys \`markdown\`, \`llms_txt\`, \`llms_full\`, \`skill_md\`, \`well_known_skills\`, \`sitemap\`, \`ask_endpoint\`, \`llms_txt_limit\`, \`llms_full_limit\`, \`markdown_budget\`; got true (a boolean)"`,
    );
  });

  it('refuse a set key that cannot be a folder name and URL segment', () => {
    expect(messageOf({ sets: { 'my docs': {} } })).toMatchInlineSnapshot(
      `"config.invalid: \`sets.my docs\`: the name \`my docs\` must be letters, digits, \`-\` and \`_\`, starting with a letter or digit"`,
    );
  });

  it('refuse an empty sets object', () => {
    expect(messageOf({ sets: {} })).toMatchInlineSnapshot(
      `"config.invalid: \`sets\` declares no set; remove \`sets\` to serve one set \`docs\` from \`<root>/docs\`, or add a set such as \`sets: { docs: {} }\`"`,
    );
  });

  it('refuse an unknown event name, naming the nearest one', () => {
    expect(messageOf({ events: { SearchPerfomed: () => {} } })).toMatchInlineSnapshot(
      `"config.unknown_key: unknown key \`events.SearchPerfomed\`; did you mean \`events.SearchPerformed\`?"`,
    );
    expect(messageOf({ events: { PageViewed: () => {} } })).toMatchInlineSnapshot(
      `"config.unknown_key: unknown key \`events.PageViewed\`; the keys \`events\` accepts are \`FeedbackSubmitted\`, \`McpToolCalled\`, \`SearchPerformed\`, \`DraftPublished\`, \`DraftDiscarded\`, \`PageRestored\`"`,
    );
  });

  it('refuse an event listener that is not a function, and events written in a set', () => {
    expect(messageOf({ events: { SearchPerformed: 'log' } })).toMatchInlineSnapshot(
      `"config.invalid: \`events.SearchPerformed\` must be a function or a list of functions, each given the SearchPerformed payload, e.g. \`SearchPerformed: (payload) => log(payload)\`; got "log" (a string)"`,
    );
    expect(messageOf({ events: { FeedbackSubmitted: [() => {}, null] } })).toMatchInlineSnapshot(
      `"config.invalid: \`events.FeedbackSubmitted\` must be a function or a list of functions, each given the FeedbackSubmitted payload, e.g. \`FeedbackSubmitted: (payload) => log(payload)\`; got a list ([null,null]): item 2 of the list is not a function"`,
    );
    expect(messageOf({ sets: { docs: { events: {} } } })).toMatchInlineSnapshot(
      `"config.unknown_key: \`sets.docs.events\` is read from the top level only; move it out of \`sets.docs\` to \`events\`"`,
    );
  });

  it('keep event listeners, one or a list per event', () => {
    const one = () => {};
    const two = [() => {}, async () => {}];
    expect(resolve({ events: { SearchPerformed: one, McpToolCalled: two } }).events).toEqual({
      SearchPerformed: one,
      McpToolCalled: two,
    });
    expect(resolve({}).events).toBeUndefined();
  });

  it('refuse a gate that is not a function', () => {
    expect(messageOf({ gates: { viewKit: true } })).toMatchInlineSnapshot(
      `"config.invalid: \`gates.viewKit\` must be a function; got true (a boolean)"`,
    );
  });

  it('accept every ai.ask.provider form and refuse others', () => {
    for (const provider of [null, 'openai', ['openai', 'anthropic'], { openai: 'gpt-4o', anthropic: 'claude' }]) {
      expect(resolve({ ai: { ask: { provider } } }).ai.ask.provider).toEqual(provider);
    }
    expect(messageOf({ ai: { ask: { provider: 42 } } })).toMatchInlineSnapshot(
      `"config.invalid: \`ai.ask.provider\` must be a provider name, a list of provider names, a map of provider name to model, or null; got 42 (a number)"`,
    );
  });

  it('never echo the credentials of a mistyped URL', () => {
    const message = messageOf({ connections: { main: { url: 'mysql://admin:hunter2@db:3306/app' } } });
    expect(message).not.toContain('hunter2');
    expect(message).toMatchInlineSnapshot(
      `"config.invalid: \`connections.main.url\` must be a \`postgres://\` or \`postgresql://\` URL; got "mysql://***@db:3306/app" (a string)"`,
    );
  });

  it('take a schema for a connection and a queue, refusing a name that is not plain lower case and a queue name pg-boss refuses', () => {
    const config = resolve({
      connections: { default: { url: 'postgres://db/app', schema: 'docs' } },
      queues: { default: { driver: 'postgres', connection: 'default', schema: 'docs_queue' } },
    });
    expect(config.connections.default).toEqual({ url: 'postgres://db/app', schema: 'docs' });
    expect(config.queues!.default).toEqual({ driver: 'postgres', connection: 'default', schema: 'docs_queue' });
    expect(
      messageOf({
        connections: { default: { schema: 'docs; DROP TABLE kit_pages' }, main: { schema: 'Docs' } },
        queues: {
          default: { driver: 'postgres', connection: 'default', schema: 'pg_queue' },
          'nightly sync': { driver: 'postgres', connection: 'default' },
        },
      }),
    ).toMatchInlineSnapshot(`
      "config.invalid: 4 problems in the config:
      - \`connections.default.schema\` must be a PostgreSQL schema name: lower-case letters, digits and underscores, not starting with a digit or \`pg_\`, at most 63 characters; got "docs; DROP TABLE kit_pages" (a string)
      - \`connections.main.schema\` must be a PostgreSQL schema name: lower-case letters, digits and underscores, not starting with a digit or \`pg_\`, at most 63 characters; got "Docs" (a string): write it in lower case ('docs')
      - \`queues.default.schema\` must be a PostgreSQL schema name: lower-case letters, digits and underscores, not starting with a digit or \`pg_\`, at most 63 characters; got "pg_queue" (a string): names starting with \`pg_\` are reserved by PostgreSQL
      - \`queues.nightly sync\`: the name \`nightly sync\` must be letters, digits, underscores, hyphens or periods"
    `);
  });

  it('report every problem at once', () => {
    expect(messageOf({ review: 'x', search: { budget_kb: 0 }, agents: { llm_txt: true } })).toMatchInlineSnapshot(`
      "config.invalid: 3 problems in the config:
      - \`review\` must be 'required' or 'auto'; got "x" (a string)
      - \`search.budget_kb\` must be a positive integer; got 0 (a number)
      - unknown key \`agents.llm_txt\`; did you mean \`agents.llms_txt\`?"
    `);
  });

  it('refuse a config that is not an object', () => {
    expect(messageOf([])).toMatchInlineSnapshot(
      `"config.invalid: the config must be an object (\`export default defineConfig({ ... })\`); got a list ([])"`,
    );
  });
});

describe('checkConfig', () => {
  it('accepts a config using every group', () => {
    const check = checkConfig({
      default: 'docs',
      review: 'auto',
      cache: { store: null },
      search: { driver: 'server', budget_kb: 500 },
      snippets: { root: 'examples' },
      ai: { ask: { enabled: true, rate_limit: '5,1' }, sync: { deny: ['secrets/**'] } },
      mcp: { web: { middleware: ['auth:token'] }, local: false },
      agents: { llms_full: false },
      feedback: { enabled: false, rate_limit: '5,1' },
      hooks: { push_commands: ['git push'], on_failure: 'allow' },
      instructions: { file: 'CLAUDE.md' },
      references: { routes: { allow: ['api.*'] } },
      ui: { dev_server: 'http://localhost:5173' },
      migrations: { skip_in_tests: true },
      models: { page: {} },
      connections: { default: { url: 'postgres://localhost/app' } },
      stores: { redis: { driver: 'redis', url: 'redis://localhost:6379' } },
      disks: { local: { root: 'storage/docs' } },
      queues: { sync: { driver: 'redis', url: 'redis://localhost:6379' } },
      gates: { viewKit: () => true },
      resolveUser: () => null,
      middleware: { web: async () => {} },
      searchDrivers: { algolia: () => ({}) },
      sets: {
        docs: {
          route: { prefix: '', domain: 'docs.example.com', middleware: [] },
          source: { driver: 'database', connection: 'default', cache: 'redis', disk: 'local' },
          access: { mode: 'gate' },
          html_input: 'escape',
          integrations: {
            analytics: {
              ga4: { measurementId: 'G-1' },
              custom: { src: 'https://x.test/a.js', attributes: { 'data-site': 'x' } },
            },
          },
        },
      },
    });
    expect(check.issues).toEqual([]);
  });
});
