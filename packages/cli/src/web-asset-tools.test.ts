import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import type { AuthorToolResult } from '@kit/core';
import { createKitApp } from '@kit/http-hono';
import { type LoadedKit, loadKit } from '@kit/node';
import { type DbContentSource, listRevisions, writePage } from '@kit/source-db';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempProject, writeFiles } from './__fixtures__/kit-binary.js';

// write_asset and delete_asset through a set's web MCP endpoint: a real SDK client over HTTP to a
// real server, core's rules, the database writer, drafts published from the review screen, and the
// file served to readers. Once on PGlite, once on PostgreSQL when KIT_TEST_DATABASE_URL is set.
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const PNG = new Uint8Array(Buffer.from(PNG_BASE64, 'base64'));

function webAssetTools(name: string, url: string | undefined) {
  describe(name, () => {
    const key = `assets_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
    let project: Awaited<ReturnType<typeof tempProject>>;
    let kit: LoadedKit;
    let http: { origin: string; server: ServerType };
    const clients: Client[] = [];

    async function connect(token: string | null, prefix = 'docs'): Promise<Client> {
      const client = new Client({ name: token ? `agent-${token}` : 'guest', version: '1.0.0' });
      const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
      const endpoint = new URL(`${http.origin}/${prefix}/mcp`);
      await client.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers } }));
      clients.push(client);
      return client;
    }
    async function author(client: Client, tool: string, args: Record<string, unknown>) {
      const result = await client.callTool({ name: tool, arguments: args });
      expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
      return result.structuredContent as unknown as AuthorToolResult;
    }
    const get = (path: string, token?: string) =>
      fetch(`${http.origin}${path}`, token ? { headers: { Authorization: `Bearer ${token}` } } : {});

    beforeAll(async () => {
      project = await tempProject('kit-web-assets-');
      const connection = url ? `connections: { default: { url: ${JSON.stringify(url)} } },` : '';
      await writeFiles(project.dir, {
        'kit.config.mjs': `const users = { ada: { id: 'ada', role: 'admin' }, rita: { id: 'rita', role: 'reader' }, rev: { id: 'rev', role: 'reviewer' } };
export default {
  ${connection}
  default: '${key}',
  review: 'required',
  sets: {
    ${key}: { route: { prefix: 'docs' }, source: { driver: 'database' }, mcp: { web: { author_tools: true } } },
    guide: { route: { prefix: 'guide' }, source: { path: 'guide' }, mcp: { web: { author_tools: true } } },
  },
  gates: { manageKit: (user) => user?.role === 'admin', reviewKit: (user) => user?.role === 'reviewer' },
  resolveUser: (request) => users[/^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1] ?? ''] ?? null,
};
`,
        'guide/kit.json': '{ "name": "Guide" }',
        'guide/index.md': '# Guide\n',
      });
      kit = await loadKit({ cwd: project.dir, env: {}, git: false });
      const { db } = kit.set(key).source as DbContentSource;
      await writePage(db, key, { version: 'current', locale: 'en', path: 'index', body: '# Home\n' });
      const app = createKitApp({ kit, cacheDir: null });
      http = await new Promise((done) => {
        const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) =>
          done({ origin: `http://127.0.0.1:${info.port}`, server }),
        );
      });
    }, 180_000);
    afterAll(async () => {
      for (const client of clients) await client.close().catch(() => {});
      await new Promise((done) => http?.server.close(done));
      await kit?.close();
      await project?.cleanup();
    });

    it('are offered only to a signed-in caller manageKit allows, never on a repository set', async () => {
      const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);
      expect(await names(await connect(null))).not.toContain('write_asset');
      expect(await names(await connect('rita'))).not.toContain('write_asset');
      expect(await names(await connect('ada'))).toEqual(expect.arrayContaining(['write_asset', 'delete_asset']));
      expect(await names(await connect('ada', 'guide'))).not.toContain('write_asset');
    });

    it('refuse a guest and a reader who call them anyway, writing nothing', async () => {
      for (const token of [null, 'rita']) {
        const client = await connect(token);
        await expect(
          client.callTool({ name: 'write_asset', arguments: { path: 'evil.png', content: PNG_BASE64 } }),
        ).rejects.toThrow(/write_asset/);
      }
      const { db } = kit.set(key).source as DbContentSource;
      expect(await listRevisions(db, key, { kind: 'asset' })).toEqual([]);
      expect((await get('/docs/evil.png')).status).toBe(404);
    });

    it('draft a file that readers see only once a reviewer publishes it from the review screen', async () => {
      const ada = await connect('ada');
      const drafted = await author(ada, 'write_asset', {
        path: 'images/flow.png',
        content: `data:image/png;base64,${PNG_BASE64}`,
        summary: 'Flow diagram',
      });
      expect(drafted.outcome).toBe('drafted');
      expect(drafted.docs_migration).toBeNull();
      expect((await get('/docs/images/flow.png')).status).toBe(404);

      // The screen shows the drafted file, and serves its bytes to the reviewer only, sandboxed.
      const screen = await get('/docs/_kit/review', 'rev');
      const html = await screen.text();
      expect(html).toContain('Change to the file “images/flow.png”');
      const id = drafted.revision!.id!;
      expect(html).toContain(`/docs/_kit/review/file/${id}`);
      const preview = await get(`/docs/_kit/review/file/${id}`, 'rev');
      expect(preview.status).toBe(200);
      expect(preview.headers.get('content-type')).toBe('image/png');
      expect(preview.headers.get('content-security-policy')).toContain('sandbox');
      expect(preview.headers.get('x-content-type-options')).toBe('nosniff');
      expect(new Uint8Array(await preview.arrayBuffer())).toEqual(PNG);
      expect((await get(`/docs/_kit/review/file/${id}`)).status).toBe(404);
      expect((await get(`/docs/_kit/review/file/${id}`, 'rita')).status).toBe(404);
      // The author writes but does not review: the screen is not theirs.
      expect((await get(`/docs/_kit/review/file/${id}`, 'ada')).status).toBe(404);

      // Publishing, by someone other than the author, needs the screen's own form token and cookie.
      const cookie = screen.headers.get('set-cookie')!.split(';')[0]!;
      const token = /name="csrf" value="([^"]+)"/.exec(html)![1]!;
      const forged = await fetch(`${http.origin}/docs/_kit/review/publish`, {
        method: 'POST',
        headers: { Authorization: 'Bearer rev', 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ id, csrf: token }).toString(),
      });
      expect(forged.status).toBe(403);
      expect((await get('/docs/images/flow.png')).status).toBe(404);
      const published = await fetch(`${http.origin}/docs/_kit/review/publish`, {
        method: 'POST',
        headers: {
          Authorization: 'Bearer rev',
          Cookie: cookie,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ id, csrf: token }).toString(),
      });
      expect(published.status).toBe(200);
      const served = await get('/docs/images/flow.png');
      expect(served.status).toBe(200);
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);

      const removal = await author(ada, 'delete_asset', {
        path: 'images/flow.png',
        based_on: drafted.revision!.content_hash,
      });
      expect(removal.outcome).toBe('drafted');
      expect((await get('/docs/images/flow.png')).status).toBe(200);
    });

    it.each([
      ['an SVG with script', { path: 'x.svg', content: btoa('<svg onload="alert(1)"/>') }, 'event-handler'],
      ['a mislabelled type', { path: 'x.png', content: `data:image/png;base64,${btoa('<html>')}` }, 'not a PNG'],
      ['a path with ..', { path: '../../etc/x.png', content: PNG_BASE64 }, 'not a plain relative path'],
      ['a secret in a text file', { path: 'x.txt', content: btoa('aws_access_key_id = AKIAZ3MSJV4WWNK6TQ7H') }, 'AWS'],
    ])('reject %s from an editor, drafting nothing', async (_what, args, message) => {
      const before = (await listRevisions((kit.set(key).source as DbContentSource).db, key, { kind: 'asset' })).length;
      const result = await author(await connect('ada'), 'write_asset', args);
      expect(result.outcome).toBe('rejected');
      expect(result.message).toContain(message);
      const after = await listRevisions((kit.set(key).source as DbContentSource).db, key, { kind: 'asset' });
      expect(after).toHaveLength(before);
    });

    it('refuses a request body over the endpoint limit before reading it whole', async () => {
      const response = await fetch(`${http.origin}/docs/mcp`, {
        method: 'POST',
        headers: {
          Authorization: 'Bearer ada',
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'write_asset', arguments: { path: 'big.png', content: 'A'.repeat(2 * 1024 * 1024) } },
        }),
      });
      expect(response.status).toBe(413);
    });
  });
}

webAssetTools('the web asset tools on PGlite', undefined);
describe.skipIf(!process.env.KIT_TEST_DATABASE_URL)('on PostgreSQL (KIT_TEST_DATABASE_URL)', () => {
  webAssetTools('the web asset tools on PostgreSQL', process.env.KIT_TEST_DATABASE_URL);
});
