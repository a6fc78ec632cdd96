import { createRenderer } from '@kit/render';
import { createServerSearch } from '@kit/search';
import { createFsSource } from '@kit/source-fs';
import { describe, expect, it } from 'vitest';
import type { AffectedPages, ValidateDocs } from './context.js';
import { admin, connectClient, fixtureKitFactory, guest, recordEvents, staff, textOf } from './testing/fixtures.js';

const createFixtureKit = fixtureKitFactory({ createRenderer, createServerSearch, createFsSource });

const validate: ValidateDocs = async ({ set, version }) => ({
  set,
  version: version ?? null,
  ok: true,
  issues: [],
});

const web = { kind: 'web', set: 'docs' } as const;
const local = { kind: 'local' } as const;

describe('tool lists', () => {
  it('shows a guest on a public set exactly search_docs, read_page, list_pages and submit_feedback', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest, validate });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['search_docs', 'read_page', 'list_pages', 'submit_feedback']);
  });

  it('adds validate_docs on the web only for a caller manageKit allows', async () => {
    const kit = createFixtureKit();
    const forStaff = await connectClient({ kit, scope: web, viewer: staff, validate });
    const forAdmin = await connectClient({ kit, scope: web, viewer: admin, validate });
    expect((await forStaff.listTools()).tools.map((t) => t.name)).not.toContain('validate_docs');
    expect((await forAdmin.listTools()).tools.map((t) => t.name)).toContain('validate_docs');
  });

  it('offers validate_docs locally only once a validate function is handed in', async () => {
    const kit = createFixtureKit();
    const without = await connectClient({ kit, scope: local, viewer: admin });
    const withCheck = await connectClient({ kit, scope: local, viewer: admin, validate });
    expect((await without.listTools()).tools.map((t) => t.name)).toEqual([
      'search_docs',
      'read_page',
      'list_pages',
      'submit_feedback',
    ]);
    expect((await withCheck.listTools()).tools.map((t) => t.name)).toContain('validate_docs');
  });

  it('leaves submit_feedback out when feedback is off for every set served', async () => {
    const kit = createFixtureKit();
    const client = await connectClient({ kit, scope: { kind: 'web', set: 'api' }, viewer: guest });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['search_docs', 'read_page', 'list_pages']);
  });

  it('annotates read tools and submit_feedback as the specification says', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: local, viewer: admin, validate });
    const byName = Object.fromEntries((await client.listTools()).tools.map((tool) => [tool.name, tool]));
    for (const name of ['search_docs', 'read_page', 'list_pages', 'validate_docs']) {
      expect(byName[name]!.annotations).toMatchObject({
        readOnlyHint: true,
        idempotentHint: true,
        openWorldHint: false,
      });
    }
    expect(byName.submit_feedback!.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    });
  });

  it('describes the arguments, the search limit and its default in the input schemas', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: local, viewer: admin });
    const byName = Object.fromEntries((await client.listTools()).tools.map((tool) => [tool.name, tool]));
    const search = byName.search_docs!.inputSchema as {
      properties: Record<string, Record<string, unknown>>;
      required: string[];
    };
    expect(Object.keys(search.properties)).toEqual(['query', 'version', 'locale', 'limit', 'sections', 'set']);
    expect(search.required).toEqual(['query']);
    expect(search.properties.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 20, default: 8 });
    expect(Object.keys((byName.read_page!.inputSchema as { properties: object }).properties)).toEqual([
      'path',
      'version',
      'locale',
      'section',
      'subsections',
      'max_chars',
      'cursor',
      'set',
    ]);
    expect(byName.submit_feedback!.inputSchema).toMatchObject({
      properties: { comment: { maxLength: 2000 } },
      required: ['path', 'helpful'],
    });
    expect(byName.search_docs!.outputSchema).toBeDefined();
    expect(byName.list_pages!.outputSchema).toBeDefined();
  });
});

describe('search_docs', () => {
  it('returns the search result table as structured content with absolute URLs, plus a readable text', async () => {
    const client = await connectClient({
      kit: createFixtureKit(),
      scope: web,
      viewer: guest,
      origin: 'https://acme.test',
    });
    const result = await client.callTool({ name: 'search_docs', arguments: { query: 'retry' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      set: 'docs',
      version: '3.x',
      query: 'retry',
      results: [
        {
          title: 'Queues',
          path: 'queues',
          url: expect.stringMatching(/^https:\/\/acme\.test\/docs\/queues(#[\w-]+)?$/),
          markdown_url: 'https://acme.test/docs/queues.md',
          description: 'Run jobs in the background.',
        },
      ],
    });
    expect(textOf(result)).toContain('https://acme.test/docs/queues');
  });

  it('searches the version and set it is asked for on the local server', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: local, viewer: guest });
    const old = await client.callTool({ name: 'search_docs', arguments: { query: 'retry', version: '2.x' } });
    expect(old.structuredContent).toMatchObject({ version: '2.x', results: [{ title: 'Queues (2.x)' }] });
    const api = await client.callTool({ name: 'search_docs', arguments: { query: 'tokens', set: 'api' } });
    expect(api.structuredContent).toMatchObject({ set: 'api', version: 'current', results: [{ path: 'tokens' }] });
  });

  it('refuses a limit above 20 with a message saying what to send', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    const result = await client.callTool({ name: 'search_docs', arguments: { query: 'queue', limit: 50 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'argument.invalid: Invalid arguments for search_docs. `limit` must be a whole number from 1 to 20; omit it for 8 results.',
    );
  });

  it('says when nothing matches', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    const result = await client.callTool({ name: 'search_docs', arguments: { query: 'kubernetes' } });
    expect(result.structuredContent).toMatchObject({ results: [] });
    expect(textOf(result)).toMatch(
      /^Nothing in the docs 3\.x docs matches "kubernetes": these docs may not cover it\./,
    );
  });

  it('answers nothing for a random token and for a question from another field', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    for (const query of ['xK9qvT2mLp8RzW4nB7cY', 'kubernetes pod autoscaling yaml', 'how do I bake a chocolate cake']) {
      const result = await client.callTool({ name: 'search_docs', arguments: { query } });
      expect(result.structuredContent, query).toMatchObject({ results: [] });
    }
  });

  it('lists other matching sections of a page with its best one, and one section a page when asked', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    const result = await client.callTool({ name: 'search_docs', arguments: { query: 'jobs' } });
    const [first] = (
      result.structuredContent as {
        results: Array<{ path: string; heading: string; sections: Array<{ heading: string; url: string }> }>;
      }
    ).results;
    expect(first).toMatchObject({ path: 'queues', heading: 'Retrying Jobs' });
    expect(first!.sections.length).toBeGreaterThan(0);
    expect(first!.sections[0]!.url).toMatch(/\/docs\/queues/);
    expect(textOf(result)).toContain('Also on this page:');
    const one = await client.callTool({ name: 'search_docs', arguments: { query: 'jobs', sections: 1 } });
    for (const hit of (one.structuredContent as { results: Array<{ sections: unknown[] }> }).results) {
      expect(hit.sections).toEqual([]);
    }
    const bad = await client.callTool({ name: 'search_docs', arguments: { query: 'queues', sections: 9 } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/`sections` must be a whole number from 1 to 5/);
  });

  it('fires SearchPerformed with source mcp through the DocSet', async () => {
    const kit = createFixtureKit();
    const searches = recordEvents(kit, 'SearchPerformed');
    const client = await connectClient({ kit, scope: web, viewer: guest });
    await client.callTool({ name: 'search_docs', arguments: { query: 'queue', limit: 1 } });
    expect(searches).toMatchObject([{ set: 'docs', query: 'queue', results: 1, source: 'mcp' }]);
  });
});

describe('argument descriptions', () => {
  const describedVersion = async (client: Awaited<ReturnType<typeof connectClient>>) => {
    const search = (await client.listTools()).tools.find((tool) => tool.name === 'search_docs')!;
    const properties = search.inputSchema.properties as Record<string, { description: string }>;
    return { version: properties.version!.description, locale: properties.locale!.description };
  };

  it("quote the set's own versions and locales, only those the caller may see", async () => {
    const guestClient = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    const seen = await describedVersion(guestClient);
    expect(seen.version).toMatch(/^Docs version, e\.g\. "3\.x"/);
    expect(seen.version).toContain('"2.x"');
    expect(seen.version).not.toContain('4.x');
    expect(seen.locale).toContain('"ar"');
    const adminClient = await connectClient({ kit: createFixtureKit(), scope: web, viewer: admin });
    expect((await describedVersion(adminClient)).version).toContain('"4.x"');
  });

  it('quote no version for a set without versions', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: { kind: 'web', set: 'api' }, viewer: guest });
    const seen = await describedVersion(client);
    expect(seen.version).toBe('Docs version. Default: the current version.');
  });
});

describe('a page URL of another set', () => {
  it('is refused on a web endpoint with set.foreign naming that set and its endpoint', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    for (const path of ['/api/tokens', '/api/tokens.md', '/api']) {
      const result = await client.callTool({ name: 'read_page', arguments: { path } });
      expect(result.isError, path).toBe(true);
      expect(textOf(result)).toMatch(/^set\.foreign: ".*" is a page of the set "api", not of "docs".*\/api\/mcp/);
    }
    const feedback = await client.callTool({
      name: 'submit_feedback',
      arguments: { path: '/api/tokens', helpful: true },
    });
    expect(textOf(feedback)).toMatch(/^set\.foreign: /);
    // The endpoint's own URLs still read.
    const own = await client.callTool({ name: 'read_page', arguments: { path: '/docs/installation.md' } });
    expect(own.isError).toBeFalsy();
  });

  it('is read from its own set on the local server', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: local, viewer: admin });
    const result = await client.callTool({ name: 'read_page', arguments: { path: '/api/tokens' } });
    expect(result._meta).toMatchObject({ path: 'tokens', url: '/api/tokens' });
    const clash = await client.callTool({ name: 'read_page', arguments: { path: '/api/tokens', set: 'docs' } });
    expect(textOf(clash)).toMatch(/^set\.foreign: "\/api\/tokens" is a page of the set "api", not of "docs"/);
  });
});

describe('read_page', () => {
  it('returns agent Markdown ending with the content_hash line and the page facts in _meta', async () => {
    const client = await connectClient({
      kit: createFixtureKit(),
      scope: web,
      viewer: guest,
      origin: 'https://acme.test/',
    });
    const result = await client.callTool({ name: 'read_page', arguments: { path: 'queues' } });
    const text = textOf(result);
    expect(text.startsWith('# Queues\n')).toBe(true);
    expect(text).toMatch(/\n\ncontent_hash: sha256:[0-9a-f]{64}\n$/);
    expect(result._meta).toEqual({
      title: 'Queues',
      path: 'queues',
      version: '3.x',
      locale: 'en',
      url: 'https://acme.test/docs/queues',
      markdown_url: 'https://acme.test/docs/queues.md',
      content_hash: text.match(/content_hash: (sha256:[0-9a-f]{64})/)![1],
    });
  });

  it('accepts a page URL, a .md URL and an absolute URL whose fragment names the section', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    const byUrl = await client.callTool({ name: 'read_page', arguments: { path: '/docs/2.x/queues' } });
    expect(byUrl._meta).toMatchObject({ path: 'queues', version: '2.x' });
    const byMarkdownUrl = await client.callTool({ name: 'read_page', arguments: { path: '/docs/installation.md' } });
    expect(byMarkdownUrl._meta).toMatchObject({ path: 'installation', version: '3.x' });
    const bySection = await client.callTool({
      name: 'read_page',
      arguments: { path: 'https://acme.test/docs/queues#retrying-jobs' },
    });
    expect(textOf(bySection)).toMatch(
      /^## Retrying Jobs\n\nFailed jobs retry three times with exponential backoff\.\n\ncontent_hash: /,
    );
  });

  it('returns one section by heading text', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    const result = await client.callTool({ name: 'read_page', arguments: { path: 'queues', section: 'Priorities' } });
    expect(textOf(result)).toMatch(/^## Priorities\n\nHigh jobs run first\.\n/);
    expect(textOf(result)).not.toContain('Retrying');
  });

  it('reads a page in another locale', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    const result = await client.callTool({ name: 'read_page', arguments: { path: 'intro', locale: 'ar' } });
    expect(result._meta).toMatchObject({ locale: 'ar', url: expect.stringMatching(/\/docs\/ar\/intro$/) });
  });

  it('answers a missing page with a tool error that names the fix', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    const result = await client.callTool({ name: 'read_page', arguments: { path: 'nope' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^page\.not_found: .*list_pages/);
  });

  it('asks for a path when it is missing and for known arguments when one is unknown', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    const missing = await client.callTool({ name: 'read_page', arguments: {} });
    expect(textOf(missing)).toBe(
      'argument.invalid: Invalid arguments for read_page. Send `path`: the page path ("routing", "index" for the landing page), its URL or its .md URL.',
    );
    const unknown = await client.callTool({ name: 'read_page', arguments: { page: 'queues' } });
    expect(textOf(unknown)).toBe(
      'argument.invalid: Invalid arguments for read_page. Send `path`: the page path ("routing", "index" for the landing page), its URL or its .md URL. Unknown argument for read_page; it takes only: path, version, locale, section, subsections, max_chars, cursor, set.',
    );
  });
});

describe('list_pages', () => {
  it('returns groups then pages with title, path and description as structured content and text', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    const result = await client.callTool({ name: 'list_pages', arguments: {} });
    expect(result.structuredContent).toEqual({
      set: 'docs',
      version: '3.x',
      locale: 'en',
      groups: [
        {
          label: 'Getting Started',
          pages: [
            { title: 'Welcome', path: 'index', description: null },
            { title: 'Installation', path: 'installation', description: 'Install Acme with npm.' },
          ],
        },
        { label: 'Guides', pages: [{ title: 'Queues', path: 'queues', description: 'Run jobs in the background.' }] },
      ],
    });
    expect(textOf(result)).toContain('## Guides\n- Queues (path: queues): Run jobs in the background.');
  });

  it('keeps only the group asked for and names the groups when the label is unknown', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    const guides = await client.callTool({ name: 'list_pages', arguments: { group: 'Guides' } });
    expect(textOf(guides)).toMatch(/^docs 3\.x \(en\): 1 page in 1 group\.\n/);
    expect((guides.structuredContent as { groups: Array<{ label: string }> }).groups.map((g) => g.label)).toEqual([
      'Guides',
    ]);
    const unknown = await client.callTool({ name: 'list_pages', arguments: { group: 'Recipes' } });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/^navigation\.group_not_found: .*Getting Started.*Guides/);
  });
});

describe('submit_feedback', () => {
  it('fires FeedbackSubmitted with source agent and confirms briefly', async () => {
    const kit = createFixtureKit();
    const feedback = recordEvents(kit, 'FeedbackSubmitted');
    const client = await connectClient({ kit, scope: web, viewer: staff });
    const result = await client.callTool({
      name: 'submit_feedback',
      arguments: { path: '/docs/queues', helpful: false, comment: 'Retry backoff is not explained.' },
    });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('sent to the docs team');
    expect(feedback).toEqual([
      {
        set: 'docs',
        version: '3.x',
        locale: 'en',
        path: 'queues',
        helpful: false,
        comment: 'Retry backoff is not explained.',
        source: 'agent',
        user: staff.user,
      },
    ]);
  });

  it('refuses a comment over 2000 characters and sends nothing', async () => {
    const kit = createFixtureKit();
    const feedback = recordEvents(kit, 'FeedbackSubmitted');
    const client = await connectClient({ kit, scope: web, viewer: guest });
    const result = await client.callTool({
      name: 'submit_feedback',
      arguments: { path: 'queues', helpful: false, comment: 'x'.repeat(2001) },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('`comment` must be at most 2000 characters');
    expect(feedback).toEqual([]);
  });

  it('asks for a boolean when helpful is sent as a string', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    const result = await client.callTool({ name: 'submit_feedback', arguments: { path: 'queues', helpful: 'yes' } });
    expect(textOf(result)).toContain('`helpful` must be true or false');
  });

  it('refuses feedback locally for a set that has feedback turned off', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: local, viewer: admin });
    const result = await client.callTool({
      name: 'submit_feedback',
      arguments: { path: 'tokens', helpful: true, set: 'api' },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('feedback.enabled is false');
  });
});

describe('validate_docs', () => {
  it('returns the report of the validate function for the set and version asked for', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: local, viewer: admin, validate });
    const result = await client.callTool({ name: 'validate_docs', arguments: { set: 'api' } });
    expect(result.structuredContent).toEqual({ set: 'api', version: null, ok: true, issues: [] });
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
    const versioned = await client.callTool({ name: 'validate_docs', arguments: { version: '2.x' } });
    expect(versioned.structuredContent).toMatchObject({ set: 'docs', version: '2.x' });
  });

  it('is refused to a web caller manageKit does not allow', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: staff, validate });
    const error = await client.callTool({ name: 'validate_docs', arguments: {} }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: -32602, data: { code: 'argument.invalid' } });
    expect((error as Error).message).toMatch(/argument\.invalid: There is no tool "validate_docs" for you/);
  });
});

describe('a tool name the server does not have', () => {
  it('answers with JSON-RPC error -32602 (invalid params, as the MCP specification says) naming the tool and tools/list', async () => {
    const kit = createFixtureKit();
    const calls: Array<{ tool: string; ok: boolean }> = [];
    kit.events.on('McpToolCalled', (payload) => {
      calls.push({ tool: payload.tool, ok: payload.ok });
    });
    const client = await connectClient({ kit, scope: web, viewer: staff, validate });
    const error = await client
      .callTool({ name: 'serch_docs', arguments: { query: 'queues' } })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: -32602, data: { code: 'argument.invalid' } });
    expect((error as Error).message).toMatch(
      /argument\.invalid: There is no tool "serch_docs" for you on this server\. Call tools\/list/,
    );
    expect(calls).toEqual([{ tool: 'serch_docs', ok: false }]);
    // The connection goes on: the next call is answered.
    const next = await client.callTool({ name: 'search_docs', arguments: { query: 'queues' } });
    expect(next.isError).toBeFalsy();
  });
});

describe('affected_pages', () => {
  const affected: AffectedPages = async (input) => ({
    base: input.base ?? 'main',
    head: input.head ?? 'HEAD',
    uncommitted: input.uncommitted ?? true,
    changed: ['src/queue.ts'],
    pages: [{ set: input.set ?? 'docs', path: 'queues', status: 'stale' }],
  });

  it('is offered on the local server with its annotations and passes its arguments through', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: local, viewer: admin, affected });
    const tool = (await client.listTools()).tools.find((candidate) => candidate.name === 'affected_pages');
    expect(tool?.annotations).toMatchObject({ readOnlyHint: true });
    const result = await client.callTool({ name: 'affected_pages', arguments: { base: 'release', drift: true } });
    expect(result.structuredContent).toMatchObject({ base: 'release', pages: [{ path: 'queues', status: 'stale' }] });
  });

  it('is never offered on a web endpoint, even to a manager', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: admin, validate, affected });
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('affected_pages');
  });

  it('refuses an unknown set and unknown arguments with what to send instead', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: local, viewer: admin, affected });
    const unknownSet = await client.callTool({ name: 'affected_pages', arguments: { set: 'nope' } });
    expect(unknownSet.isError).toBe(true);
    expect(textOf(unknownSet)).toContain('docs');
    const unknownArgument = await client.callTool({ name: 'affected_pages', arguments: { since: 'main' } });
    expect(unknownArgument.isError).toBe(true);
    expect(textOf(unknownArgument)).toContain('base');
  });
});

describe('set binding', () => {
  it('refuses on the web a call that names another set', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    for (const [name, args] of [
      ['search_docs', { query: 'tokens', set: 'api' }],
      ['read_page', { path: 'tokens', set: 'api' }],
      ['list_pages', { set: 'api' }],
      ['submit_feedback', { path: 'tokens', helpful: true, set: 'api' }],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, name).toBe(true);
      expect(textOf(result), name).toMatch(/^set\.foreign: This endpoint serves only the set "docs"/);
    }
    const own = await client.callTool({ name: 'list_pages', arguments: { set: 'docs' } });
    expect(own.isError).toBeFalsy();
  });

  it('reads any set locally and lists the keys for an unknown one', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: local, viewer: admin });
    const api = await client.callTool({ name: 'read_page', arguments: { path: 'tokens', set: 'api' } });
    expect(api._meta).toMatchObject({ path: 'tokens', version: 'current', url: '/api/tokens' });
    const unknown = await client.callTool({ name: 'list_pages', arguments: { set: 'blog' } });
    expect(textOf(unknown)).toMatch(/^set\.not_found: .*docs, api/);
  });

  it('refuses a call once the caller may no longer read the set', async () => {
    const kit = createFixtureKit({ docsAccess: 'gate' });
    const client = await connectClient({ kit, scope: web, viewer: guest });
    const result = await client.callTool({ name: 'list_pages', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^access\.denied: /);
  });
});

describe('private versions and pages', () => {
  it('are invisible to a guest through every tool and the resource template', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    const calls = [
      ['search_docs', { query: 'queue', version: '4.x' }],
      ['read_page', { path: 'queues', version: '4.x' }],
      ['read_page', { path: '/docs/4.x/queues.md' }],
      ['list_pages', { version: '4.x' }],
      ['submit_feedback', { path: 'queues', version: '4.x', helpful: true }],
      ['read_page', { path: 'internal/roadmap' }],
    ] as const;
    for (const [name, args] of calls) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(textOf(result)).not.toContain('Unreleased');
      expect(textOf(result)).not.toContain('4.x,');
    }
    const search = await client.callTool({ name: 'search_docs', arguments: { query: 'secret plans' } });
    expect(search.structuredContent).toMatchObject({ results: [] });
    const listing = JSON.stringify((await client.callTool({ name: 'list_pages', arguments: {} })).structuredContent);
    expect(listing).not.toContain('roadmap');
    await expect(client.readResource({ uri: 'docs://docs/4.x/queues' })).rejects.toThrow(/version\.not_found/);
    await expect(client.readResource({ uri: 'docs://docs/3.x/internal/roadmap' })).rejects.toThrow(/page\.not_found/);
  });

  it('are visible to a caller viewKit allows', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: staff });
    const result = await client.callTool({ name: 'read_page', arguments: { path: 'queues', version: '4.x' } });
    expect(textOf(result)).toContain('Unreleased queue engine.');
    const roadmap = await client.readResource({ uri: 'docs://docs/3.x/internal/roadmap' });
    expect(roadmap.contents[0]).toMatchObject({ mimeType: 'text/markdown' });
  });
});

describe('docs-page resource template', () => {
  it('is offered as a template only: resources/list is empty', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    expect((await client.listResources()).resources).toEqual([]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      expect.objectContaining({
        name: 'docs-page',
        uriTemplate: 'docs://{set}/{version}/{path}',
        mimeType: 'text/markdown',
      }),
    ]);
  });

  it('reads pages by version, by locale in front of the path and with current for an unversioned set', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: local, viewer: admin });
    const page = await client.readResource({ uri: 'docs://docs/2.x/queues' });
    expect(page.contents[0]).toMatchObject({ uri: 'docs://docs/2.x/queues', mimeType: 'text/markdown' });
    expect((page.contents[0] as { text: string }).text).toMatch(/^# Queues \(2\.x\)\n[\s\S]*content_hash: sha256:/);
    const arabic = await client.readResource({ uri: 'docs://docs/3.x/ar/intro' });
    expect(arabic.contents[0]!._meta).toMatchObject({ locale: 'ar', path: 'intro' });
    const nested = await client.readResource({ uri: 'docs://docs/4.x/queues' });
    expect((nested.contents[0] as { text: string }).text).toContain('Unreleased');
    const unversioned = await client.readResource({ uri: 'docs://api/current/tokens' });
    expect(unversioned.contents[0]!._meta).toMatchObject({ version: 'current', path: 'tokens' });
  });

  it('reads only its own set on a web endpoint', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    await expect(client.readResource({ uri: 'docs://api/current/tokens' })).rejects.toThrow(/set\.foreign/);
    const own = await client.readResource({ uri: 'docs://docs/3.x/installation' });
    expect((own.contents[0] as { text: string }).text).toContain('npm install acme');
  });
});

describe('prompts', () => {
  it('lists write-docs-page and document-change with their arguments', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: local, viewer: admin });
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => [p.name, p.arguments?.map((a) => [a.name, a.required ?? false])])).toEqual([
      [
        'write-docs-page',
        [
          ['topic', true],
          ['path', false],
          ['set', false],
        ],
      ],
      [
        'document-change',
        [
          ['change', true],
          ['set', false],
        ],
      ],
    ]);
  });

  it('gives step-by-step text to write a page from the code and validate it', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: local, viewer: admin });
    const prompt = await client.getPrompt({
      name: 'write-docs-page',
      arguments: { topic: 'retry backoff', path: 'queues/backoff' },
    });
    const text = (prompt.messages[0]!.content as { text: string }).text;
    expect(text).toContain('"retry backoff"');
    expect(text).toMatch(/`\/\S+\/docs\/3\.x\/queues\/backoff\.md`/);
    for (const step of ['search_docs', 'sources:', 'navigation', 'validate_docs']) expect(text).toContain(step);
  });

  it('gives steps to update the docs a change made stale, in the same change', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    const prompt = await client.getPrompt({ name: 'document-change', arguments: { change: 'main..HEAD' } });
    const text = (prompt.messages[0]!.content as { text: string }).text;
    expect(text).toContain('main..HEAD');
    for (const step of ['affected_pages', 'read_page', 'based_on', 'validate_docs', 'same change']) {
      expect(text).toContain(step);
    }
    await expect(client.getPrompt({ name: 'document-change', arguments: {} })).rejects.toThrow(/change/);
    await expect(client.getPrompt({ name: 'document-change', arguments: { change: 'x', set: 'api' } })).rejects.toThrow(
      /serves only the set "docs"/,
    );
  });
});

describe('instructions', () => {
  it('give the workflow and, on a local server with several sets, their keys and names', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: local, viewer: admin });
    const instructions = client.getInstructions()!;
    expect(instructions).toContain('- `docs`: Acme Docs (default)\n- `api`: Acme API');
    // This fixture's sets cannot be written: no author tools, so no writing steps (see author-tools.test.ts).
    for (const step of ['Search first', 'Read before answering', 'Cite page URLs', 'submit_feedback']) {
      expect(instructions).toContain(step);
    }
    expect(instructions).not.toContain('Validate after writing');
  });

  it('name only the endpoint set on the web', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    const instructions = client.getInstructions()!;
    expect(instructions).toContain('Acme Docs documentation (set "docs")');
    expect(instructions).not.toContain('Acme API');
  });

  it('tell a read-only guest nothing about writing or validating', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest, validate });
    const instructions = client.getInstructions()!;
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    expect(tools).not.toContain('validate_docs');
    expect(tools).not.toContain('write_page');
    for (const step of ['Search first', 'Read before answering', 'Cite page URLs'])
      expect(instructions).toContain(step);
    for (const word of ['writing', 'validate', 'based_on', 'change the page']) expect(instructions).not.toContain(word);
  });
});

describe('McpToolCalled', () => {
  it('is fired for every call: success, Kit error and SDK argument error', async () => {
    const kit = createFixtureKit();
    const calls = recordEvents(kit, 'McpToolCalled');
    const client = await connectClient({ kit, scope: local, viewer: guest });
    await client.callTool({ name: 'list_pages', arguments: { set: 'api' } });
    await client.callTool({ name: 'read_page', arguments: { path: 'nope' } });
    await client.callTool({ name: 'search_docs', arguments: { query: 'x', limit: 0 } });
    expect(calls.map(({ durationMs, ...rest }) => rest)).toEqual([
      { set: 'api', tool: 'list_pages', transport: 'stdio', user: null, ok: true },
      { set: 'docs', tool: 'read_page', transport: 'stdio', user: null, ok: false },
      { set: 'docs', tool: 'search_docs', transport: 'stdio', user: null, ok: false },
    ]);
    for (const call of calls) expect(call.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('carries the web caller and the http transport', async () => {
    const kit = createFixtureKit();
    const calls = recordEvents(kit, 'McpToolCalled');
    const client = await connectClient({ kit, scope: web, viewer: staff });
    await client.callTool({ name: 'list_pages', arguments: {} });
    expect(calls).toMatchObject([{ set: 'docs', tool: 'list_pages', transport: 'http', user: staff.user, ok: true }]);
  });
});
