import { createRenderer } from '@kit/render';
import { createServerSearch } from '@kit/search';
import { createFsSource } from '@kit/source-fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Kit, Viewer } from '@kit/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleMcpHttpRequest, type McpHttpOptions } from './http.js';
import { admin, fixtureKitFactory, guest, reader, recordEvents, staff, textOf } from './testing/fixtures.js';

const createFixtureKit = fixtureKitFactory({ createRenderer, createServerSearch, createFsSource });

const bearers: Record<string, Viewer> = { admin, staff, reader };

async function toRequest(message: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of message) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    if (typeof value === 'string') headers.set(name, value);
  }
  const hasBody = message.method !== 'GET' && message.method !== 'HEAD';
  return new Request(`${origin}${message.url}`, {
    method: message.method,
    headers,
    body: hasBody ? Buffer.concat(chunks) : undefined,
  });
}

/** Serves the endpoint of each set at `/{set}/mcp` on 127.0.0.1; a bearer token names the test user. */
async function serve(kit: Kit, extra: Partial<McpHttpOptions> = {}): Promise<{ server: Server; base: string }> {
  const server = createServer((message, reply) => {
    const origin = `http://${message.headers.host}`;
    void (async () => {
      const request = await toRequest(message, origin);
      const token = request.headers.get('authorization')?.replace(/^Bearer /, '');
      const viewer = (token && bearers[token]) || { ...guest, ip: message.socket.remoteAddress };
      const set = new URL(request.url).pathname.split('/')[1]!;
      const response = await handleMcpHttpRequest(request, {
        kit,
        set,
        viewer,
        validate: async ({ set: key }) => ({ set: key, issues: [] }),
        ...extra,
      });
      reply.writeHead(response.status, Object.fromEntries(response.headers));
      reply.end(Buffer.from(await response.arrayBuffer()));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function connect(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'kit-http-test', version: '1.0.0' });
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

describe('the web MCP endpoint over real HTTP', () => {
  const kit = createFixtureKit();
  const gated = createFixtureKit({ docsAccess: 'gate' });
  let open: Server[] = [];
  let base = '';
  let gatedBase = '';

  beforeAll(async () => {
    const served = await serve(kit);
    const servedGated = await serve(gated);
    open = [served.server, servedGated.server];
    base = served.base;
    gatedBase = servedGated.base;
  });

  afterAll(async () => {
    await Promise.all(open.map((server) => new Promise((resolve) => server.close(resolve))));
  });

  it('serves a guest the four public tools and reads a page with absolute URLs', async () => {
    const calls = recordEvents(kit, 'McpToolCalled');
    const client = await connect(`${base}/docs/mcp`);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      'search_docs',
      'read_page',
      'list_pages',
      'submit_feedback',
    ]);
    const page = await client.callTool({ name: 'read_page', arguments: { path: 'queues', section: 'Priorities' } });
    expect(textOf(page)).toMatch(/^## Priorities\n/);
    expect(page._meta).toMatchObject({ url: `${base}/docs/queues`, markdown_url: `${base}/docs/queues.md` });
    const search = await client.callTool({ name: 'search_docs', arguments: { query: 'retry' } });
    expect(search.structuredContent).toMatchObject({ results: [{ url: `${base}/docs/queues#retrying-jobs` }] });
    expect(calls.map((call) => [call.tool, call.transport, call.ok])).toEqual([
      ['read_page', 'http', true],
      ['search_docs', 'http', true],
    ]);
    await client.close();
  });

  it('computes the tool list per caller: a manager also gets validate_docs', async () => {
    const client = await connect(`${base}/docs/mcp`, 'admin');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('validate_docs');
    const report = await client.callTool({ name: 'validate_docs', arguments: {} });
    expect(report.structuredContent).toEqual({ set: 'docs', issues: [] });
    await client.close();
  });

  it('binds each endpoint to its own set', async () => {
    const client = await connect(`${base}/api/mcp`);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      'search_docs',
      'read_page',
      'list_pages',
    ]);
    const foreign = await client.callTool({ name: 'read_page', arguments: { path: 'queues', set: 'docs' } });
    expect(textOf(foreign)).toMatch(/^set\.foreign: /);
    await client.close();
  });

  it('refuses a foreign Origin with 403 before MCP runs', async () => {
    const response = await fetch(`${base}/docs/mcp`, {
      method: 'POST',
      headers: {
        Origin: 'https://evil.example',
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: initialize,
    });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
      'Origin https://evil.example may not call this MCP endpoint',
    );
  });

  it('admits the request own origin', async () => {
    const response = await fetch(`${base}/docs/mcp`, {
      method: 'POST',
      headers: { Origin: base, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: initialize,
    });
    expect(response.status).toBe(200);
  });

  it('answers GET and DELETE with 405 and Allow: POST', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${base}/docs/mcp`, { method });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const response = await fetch(`${base}/docs/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(1024 * 1024) } }),
    });
    expect(response.status).toBe(413);
  });

  it('refuses a chunked body that grows past 1 MiB without a Content-Length', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 20) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = await fetch(`${base}/docs/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  it('refuses a body longer than the Content-Length it declares, as only an in-process Request can send', async () => {
    const request = new Request(`${base}/docs/mcp`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'Content-Length': '64',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(1024 * 1024) } }),
    });
    const response = await handleMcpHttpRequest(request, { kit, set: 'docs', viewer: guest });
    expect(response.status).toBe(413);
  });

  it('answers a body that is not JSON with a JSON-RPC parse error', async () => {
    const response = await fetch(`${base}/docs/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: -32700 } });
  });

  it('serves a client that accepts only JSON', async () => {
    const response = await fetch(`${base}/docs/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'list_pages', arguments: { group: 'Guides' } },
      }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { result: { structuredContent: { groups: unknown[] } } };
    expect(body.result.structuredContent.groups).toHaveLength(1);
  });

  it('answers a tools/call of a tool it does not have with JSON-RPC error -32602 over HTTP', async () => {
    const response = await fetch(`${base}/docs/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 4,
        method: 'tools/call',
        params: { name: 'serch_docs', arguments: { query: 'queues' } },
      }),
    });
    const body = (await response.json()) as {
      error?: { code: number; message: string; data?: unknown };
      result?: unknown;
    };
    expect(body.result).toBeUndefined();
    expect(body.error).toMatchObject({ code: -32602, data: { code: 'argument.invalid' } });
    expect(body.error?.message).toMatch(/^argument\.invalid: There is no tool "serch_docs"/);
  });

  for (const bad of ['queues', 42, ['queues'], null]) {
    it(`answers tools/call with arguments ${JSON.stringify(bad)} (not an object) with -32602 naming the fix`, async () => {
      const response = await fetch(`${base}/docs/mcp`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 3,
          method: 'tools/call',
          params: { name: 'read_page', arguments: bad },
        }),
      });
      const body = (await response.json()) as { error?: { code: number; message: string } };
      expect(body.error?.code).toBe(-32602);
      expect(body.error?.message).toMatch(/arguments/);
      expect(body.error?.message).toMatch(/object/);
      // A validation dump would quote the schema library's issue list.
      expect(body.error?.message).not.toMatch(/"code":|invalid_type|\[\s*\{/);
    });
  }

  it('answers a guest on a gated set with 401 and a signed-in stranger with 403', async () => {
    const asGuest = await fetch(`${gatedBase}/docs/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: initialize,
    });
    expect(asGuest.status).toBe(401);
    expect(asGuest.headers.get('www-authenticate')).toBe('Bearer realm="kit"');
    const asReader = await fetch(`${gatedBase}/docs/mcp`, {
      method: 'POST',
      headers: {
        Authorization: 'Bearer reader',
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: initialize,
    });
    expect(asReader.status).toBe(403);
    const client = await connect(`${gatedBase}/docs/mcp`, 'staff');
    const page = await client.callTool({ name: 'read_page', arguments: { path: 'queues', version: '4.x' } });
    expect(textOf(page)).toContain('Unreleased queue engine.');
    await client.close();
  });

  it('serves protocol 2026-07-28 requests, marking lists shareable only for a guest of a public set', async () => {
    const listTools = async (url: string, token?: string) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          'MCP-Protocol-Version': '2026-07-28',
          'Mcp-Method': 'tools/list',
          ...(token && { Authorization: `Bearer ${token}` }),
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/list',
          params: {
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        }),
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { result: { cacheScope: string; tools: { name: string }[] } };
      return [body.result.cacheScope, body.result.tools.some((tool) => tool.name === 'validate_docs')];
    };
    expect(await listTools(`${base}/docs/mcp`)).toEqual(['public', false]);
    expect(await listTools(`${base}/docs/mcp`, 'staff')).toEqual(['private', false]);
    expect(await listTools(`${base}/docs/mcp`, 'admin')).toEqual(['private', true]);
    expect(await listTools(`${gatedBase}/docs/mcp`, 'staff')).toEqual(['private', false]);
    // The caller is still refused before MCP runs, whatever revision it speaks.
    const refused = await fetch(`${gatedBase}/docs/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'ping' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(refused.status).toBe(401);
  });

  it('acts for each request’s own caller when servers are reused between requests', async () => {
    const staffClient = await connect(`${base}/docs/mcp`, 'staff');
    const guestClient = await connect(`${base}/docs/mcp`);
    const read = { name: 'read_page', arguments: { path: 'queues', version: '4.x' } };
    for (let round = 0; round < 3; round++) {
      expect(textOf(await staffClient.callTool(read))).toContain('Unreleased queue engine.');
      const asGuest = await guestClient.callTool(read);
      expect(asGuest.isError).toBe(true);
      expect(textOf(asGuest)).not.toContain('Unreleased');
    }
    const adminClient = await connect(`${base}/docs/mcp`, 'admin');
    expect((await adminClient.listTools()).tools.map((tool) => tool.name)).toContain('validate_docs');
    expect((await guestClient.listTools()).tools.map((tool) => tool.name)).not.toContain('validate_docs');
    await Promise.all([staffClient.close(), guestClient.close(), adminClient.close()]);
  });
});

describe('the web MCP endpoint host check', () => {
  it('refuses a Host outside allowedHosts, as a rebinding page would send', async () => {
    const kit = createFixtureKit();
    const request = new Request('http://rebind.example:8080/docs/mcp', {
      method: 'POST',
      headers: { Host: 'rebind.example:8080', 'Content-Type': 'application/json' },
      body: initialize,
    });
    const refused = await handleMcpHttpRequest(request, {
      kit,
      set: 'docs',
      viewer: guest,
      allowedHosts: ['127.0.0.1:8080', 'localhost:8080'],
    });
    expect(refused.status).toBe(403);
  });

  it('matches an allowed host without a port on any port, and still refuses other names', async () => {
    const kit = createFixtureKit();
    const send = (host: string) =>
      handleMcpHttpRequest(
        new Request(`http://${host}/docs/mcp`, {
          method: 'POST',
          headers: { Host: host, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
          body: initialize,
        }),
        { kit, set: 'docs', viewer: guest, allowedHosts: ['localhost', '127.0.0.1', '[::1]'] },
      );
    expect((await send('127.0.0.1:43117')).status).toBe(200);
    expect((await send('[::1]:8080')).status).toBe(200);
    expect((await send('localhost.evil.example:43117')).status).toBe(403);
    expect((await send('evil.example')).status).toBe(403);
  });

  it('answers 404 for a set whose web endpoint is turned off', async () => {
    const kit = createFixtureKit();
    (kit.set('api').config.mcp.web as { enabled: boolean }).enabled = false;
    const response = await handleMcpHttpRequest(
      new Request('http://127.0.0.1/api/mcp', { method: 'POST', body: initialize }),
      { kit, set: 'api', viewer: guest },
    );
    expect(response.status).toBe(404);
  });
});
