import { createKitApp } from '@kit/http-hono';
import { type LoadedKit, loadKit } from '@kit/node';
import { type DbContentSource, listRevisions, publishRevision, writePage } from '@kit/source-db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempProject, writeFiles } from './__fixtures__/kit-binary.js';

// The web endpoint of a database set with mcp.web.author_tools on: the whole path from an HTTP
// request with a bearer token through the MCP endpoint, core's rules and the database writer.
const config = (review: 'required' | 'auto') => `
const users = { ada: { id: 'ada', role: 'admin' }, rita: { id: 'rita', role: 'reader' } };
export default {
  review: '${review}',
  sets: {
    docs: { source: { driver: 'database' }, mcp: { web: { author_tools: true } } },
    guide: { route: { prefix: 'guide' }, source: { path: 'guide' }, mcp: { web: { author_tools: true } } },
  },
  gates: { manageKit: (user) => user?.role === 'admin' },
  resolveUser: (request) => users[/^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1] ?? ''] ?? null,
};
`;

async function rpc(
  app: ReturnType<typeof createKitApp>,
  prefix: string,
  token: string | null,
  method: string,
  params: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const response = await app.request(`http://localhost/${prefix}/mcp`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2025-06-18',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: Record<string, unknown>; error?: unknown };
  if (!body.result) throw new Error(`${method} failed: ${JSON.stringify(body.error)}`);
  return body.result;
}

async function toolNames(app: ReturnType<typeof createKitApp>, prefix: string, token: string | null) {
  const result = await rpc(app, prefix, token, 'tools/list');
  return (result.tools as Array<{ name: string }>).map((tool) => tool.name);
}

function projectWith(review: 'required' | 'auto') {
  let project: Awaited<ReturnType<typeof tempProject>>;
  let kit: LoadedKit;
  let app: ReturnType<typeof createKitApp>;
  beforeAll(async () => {
    project = await tempProject('kit-web-author-');
    await writeFiles(project.dir, {
      'kit.config.mjs': config(review),
      'guide/kit.json': '{ "name": "Guide" }',
      'guide/index.md': '# Guide\n',
    });
    kit = await loadKit({ cwd: project.dir, env: {} });
    const source = kit.set('docs').source as DbContentSource;
    await writePage(source.db, 'docs', {
      version: 'current',
      locale: 'en',
      path: 'index',
      frontmatter: { title: 'Home' },
      body: '# Home\n\nWelcome.\n',
    });
    app = createKitApp({ kit, cacheDir: null });
  }, 180_000);
  afterAll(async () => {
    await kit?.close();
    await project?.cleanup();
  });
  return {
    get kit() {
      return kit;
    },
    get app() {
      return app;
    },
  };
}

describe('web author tools on a database set, review required', () => {
  const setup = projectWith('required');

  it('are offered only to a signed-in caller manageKit allows, and never on a repository set', async () => {
    expect(await toolNames(setup.app, 'docs', null)).not.toContain('write_page');
    expect(await toolNames(setup.app, 'docs', 'rita')).not.toContain('write_page');
    expect(await toolNames(setup.app, 'docs', 'ada')).toEqual(
      expect.arrayContaining(['write_page', 'move_page', 'delete_page', 'update_navigation', 'update_manifest']),
    );
    expect(await toolNames(setup.app, 'guide', 'ada')).not.toContain('write_page');
  });

  it('refuses a write from a caller the tools are not offered to', async () => {
    // Not offered means unknown to this caller: JSON-RPC -32602, and nothing is written.
    await expect(
      rpc(setup.app, 'docs', 'rita', 'tools/call', {
        name: 'write_page',
        arguments: { path: 'index', body: '# Hacked\n' },
      }),
    ).rejects.toThrow(/-32602/);
    const page = await rpc(setup.app, 'docs', null, 'tools/call', { name: 'read_page', arguments: { path: 'index' } });
    expect(JSON.stringify(page.content)).toContain('Welcome.');
  });

  it('drafts an agent change that goes live only when a person publishes it', async () => {
    const read = await rpc(setup.app, 'docs', 'ada', 'tools/call', { name: 'read_page', arguments: { path: 'index' } });
    const basedOn = (read._meta as { content_hash: string }).content_hash;
    const written = await rpc(setup.app, 'docs', 'ada', 'tools/call', {
      name: 'write_page',
      arguments: { path: 'index', body: '# Home\n\nWelcome back.\n', based_on: basedOn, summary: 'Warmer welcome' },
    });
    const result = written.structuredContent as {
      outcome: string;
      revision: { id: string; content_hash: string };
      docs_migration: unknown;
    };
    expect(result.outcome).toBe('drafted');
    expect(result.docs_migration).toBeNull();
    const before = await rpc(setup.app, 'docs', null, 'tools/call', {
      name: 'read_page',
      arguments: { path: 'index' },
    });
    expect(JSON.stringify(before.content)).toContain('Welcome.');

    const db = (setup.kit.set('docs').source as DbContentSource).db;
    const drafts = await listRevisions(db, 'docs', { status: 'draft' });
    expect(drafts.map((draft) => [draft.summary, draft.author])).toEqual([['Warmer welcome', 'ada']]);
    await publishRevision(db, 'docs', result.revision.id);
    const after = await rpc(setup.app, 'docs', null, 'tools/call', { name: 'read_page', arguments: { path: 'index' } });
    expect(JSON.stringify(after.content)).toContain('Welcome back.');
  });
});

describe('web author tools on a database set, review auto', () => {
  const setup = projectWith('auto');

  it('publishes at once and keeps a revision', async () => {
    const written = await rpc(setup.app, 'docs', 'ada', 'tools/call', {
      name: 'write_page',
      arguments: { path: 'webhooks', frontmatter: { title: 'Webhooks' }, body: '# Webhooks\n\nEvents over HTTP.\n' },
    });
    expect((written.structuredContent as { outcome: string }).outcome).toBe('published');
    const page = await rpc(setup.app, 'docs', null, 'tools/call', {
      name: 'read_page',
      arguments: { path: 'webhooks' },
    });
    expect(JSON.stringify(page.content)).toContain('Events over HTTP.');
    const db = (setup.kit.set('docs').source as DbContentSource).db;
    const revisions = await listRevisions(db, 'docs', { path: 'webhooks' });
    expect(revisions.map((revision) => revision.status)).toEqual(['published']);
  });
});
