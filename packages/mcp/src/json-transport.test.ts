import { createRenderer } from '@kit/render';
import { createServerSearch } from '@kit/search';
import { createFsSource } from '@kit/source-fs';
import { describe, expect, it } from 'vitest';
import { StatelessJsonTransport } from './json-transport.js';
import { buildMcpServer, MCP_SERVER_INFO } from './server.js';
import { fixtureKitFactory, guest, recordEvents } from './testing/fixtures.js';

const createFixtureKit = fixtureKitFactory({ createRenderer, createServerSearch, createFsSource });

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

function post(headers: Record<string, string> = JSON_HEADERS) {
  return { url: 'http://127.0.0.1/docs/mcp', headers: new Headers(headers) };
}

function call(id: number, name: string, args: Record<string, unknown>) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } };
}

async function connected() {
  const kit = createFixtureKit();
  const built = await buildMcpServer({ kit, scope: { kind: 'web', set: 'docs' }, viewer: guest, transport: 'http' });
  const transport = new StatelessJsonTransport();
  await built.server.connect(transport);
  return { kit, transport };
}

describe('StatelessJsonTransport', () => {
  it('carries one request after another on the same connection, each answered as JSON with its length', async () => {
    const { transport } = await connected();
    for (const id of [1, 2, 1]) {
      const response = await transport.handle(post(), call(id, 'read_page', { path: 'queues', section: 'Priorities' }));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect(response.headers.get('content-length')).toBe(String(bytes.byteLength));
      const reply = JSON.parse(new TextDecoder().decode(bytes)) as {
        id: number;
        result: { content: { text: string }[] };
      };
      expect(reply.id).toBe(id);
      expect(reply.result.content[0]!.text).toMatch(/^## Priorities\n/);
    }
  });

  it('hands requests straight to the server dispatch and still reports each tool call', async () => {
    const { kit, transport } = await connected();
    expect(transport.deliverRequest).toBeTypeOf('function');
    const calls = recordEvents(kit, 'McpToolCalled');
    await transport.handle(post(), call(7, 'search_docs', { query: 'retry' }));
    await transport.handle(post(), call(8, 'read_page', {}));
    expect(calls.map((event) => [event.tool, event.transport, event.ok])).toEqual([
      ['search_docs', 'http', true],
      ['read_page', 'http', false],
    ]);
  });

  it('answers a batch with an array in request order, and notifications alone with 202', async () => {
    const { transport } = await connected();
    const batch = await transport.handle(post(), [
      { jsonrpc: '2.0', id: 'b', method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
    ]);
    expect(await batch.json()).toEqual([
      { jsonrpc: '2.0', id: 'b', result: {} },
      { jsonrpc: '2.0', id: 'a', result: {} },
    ]);
    const notified = await transport.handle(post(), { jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(notified.status).toBe(202);
    expect(await notified.text()).toBe('');
  });

  it('refuses what the SDK transport refuses, with its statuses and JSON-RPC codes', async () => {
    const { transport } = await connected();
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    const cases: Array<[Response, number, number]> = [
      [await transport.handle(post({ ...JSON_HEADERS, accept: 'text/html' }), ping), 406, -32000],
      [await transport.handle(post({ ...JSON_HEADERS, 'content-type': 'text/plain' }), ping), 415, -32000],
      [
        await transport.handle(
          post(),
          Array.from({ length: 101 }, () => ping),
        ),
        400,
        -32600,
      ],
      [await transport.handle(post(), { id: 1, method: 'ping' }), 400, -32700],
      [await transport.handle(post(), [initialize, ping]), 400, -32600],
      [await transport.handle(post({ ...JSON_HEADERS, 'mcp-protocol-version': '1999-01-01' }), ping), 400, -32000],
      [await transport.handle(post(), [ping, ping]), 400, -32600],
    ];
    for (const [response, status, code] of cases) {
      expect(response.status).toBe(status);
      expect(((await response.json()) as { error: { code: number } }).error.code).toBe(code);
    }
    // Refusals leave the transport free for the next request.
    expect((await transport.handle(post(), ping)).status).toBe(200);
  });

  it('initializes whatever MCP-Protocol-Version header comes with initialize', async () => {
    const { transport } = await connected();
    const response = await transport.handle(post({ ...JSON_HEADERS, 'mcp-protocol-version': '1999-01-01' }), {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name).toBe(
      'kit',
    );
  });

  it('refuses a second request while one is under way, and every request once closed', async () => {
    const { transport } = await connected();
    const first = transport.handle(post(), call(1, 'search_docs', { query: 'retry' }));
    expect(() => transport.handle(post(), { jsonrpc: '2.0', id: 2, method: 'ping' })).toThrow(/one request at a time/);
    expect((await first).status).toBe(200);
    await transport.close();
    expect((await transport.handle(post(), { jsonrpc: '2.0', id: 3, method: 'ping' })).status).toBe(404);
  });
});

const MODERN = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };

interface Reply {
  id?: number;
  result?: Record<string, unknown> & { _meta?: Record<string, unknown> };
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

/** A request as a 2026-07-28 client sends it: `_meta` in the body, mirrored in the headers. */
function modern(
  id: number,
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const name = params.name ?? params.uri;
  return [
    post({
      ...JSON_HEADERS,
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(typeof name === 'string' && { 'mcp-name': name }),
      ...headers,
    }),
    { jsonrpc: '2.0', id, method, params: { ...params, _meta: META } },
  ] as const;
}

async function replyOf(response: Promise<Response>): Promise<{ status: number; body: Reply }> {
  const answered = await response;
  return { status: answered.status, body: (await answered.json()) as Reply };
}

describe('StatelessJsonTransport under protocol 2026-07-28', () => {
  it('answers server/discover with the versions, capabilities and instructions of the server, and who answers', async () => {
    const { transport } = await connected();
    const { status, body } = await replyOf(transport.handle(...modern(1, 'server/discover')));
    expect(status).toBe(200);
    expect(body.id).toBe(1);
    expect(body.result).toMatchObject({
      resultType: 'complete',
      capabilities: { tools: {}, resources: {}, prompts: {} },
      instructions: expect.stringContaining('search_docs'),
      ttlMs: 60_000,
      cacheScope: 'private',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'kit', version: MCP_SERVER_INFO.version } },
    });
    expect(body.result!.supportedVersions).toEqual(expect.arrayContaining([MODERN, '2025-11-25', '2025-06-18']));
    // No list-change notifications are ever sent, so none are promised.
    expect(JSON.stringify(body.result!.capabilities)).not.toContain('listChanged');
  });

  it('shapes results for the revision: resultType on all, caching hints on lists and reads', async () => {
    const { kit, transport } = await connected();
    const calls = recordEvents(kit, 'McpToolCalled');
    const tools = await replyOf(transport.handle(...modern(1, 'tools/list'), { cacheScope: 'public' }));
    expect(tools.body.result).toMatchObject({ resultType: 'complete', ttlMs: 60_000, cacheScope: 'public' });
    expect((tools.body.result!.tools as { name: string }[]).map((tool) => tool.name)).toContain('read_page');
    expect(tools.body.result!._meta).toMatchObject({ 'io.modelcontextprotocol/serverInfo': { name: 'kit' } });

    const page = await replyOf(
      transport.handle(...modern(2, 'tools/call', { name: 'read_page', arguments: { path: 'queues' } })),
    );
    expect(page.status).toBe(200);
    expect(page.body.result).toMatchObject({ resultType: 'complete' });
    expect(page.body.result).not.toHaveProperty('ttlMs');
    // The tool's own _meta stays beside the server's identity.
    expect(page.body.result!._meta).toMatchObject({ url: '/docs/queues', 'io.modelcontextprotocol/serverInfo': {} });
    expect(calls.map((call) => [call.tool, call.ok])).toEqual([['read_page', true]]);

    const read = await replyOf(transport.handle(...modern(3, 'resources/read', { uri: 'docs://docs/3.x/queues' })));
    expect(read.body.result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
    expect((read.body.result!.contents as { text: string }[])[0]!.text).toContain('Queues run jobs.');

    for (const method of ['prompts/list', 'resources/list', 'resources/templates/list']) {
      const listed = await replyOf(transport.handle(...modern(4, method)));
      expect(listed.body.result).toMatchObject({ resultType: 'complete', ttlMs: 60_000, cacheScope: 'private' });
    }
    const prompt = await replyOf(
      transport.handle(...modern(5, 'prompts/get', { name: 'write-docs-page', arguments: { topic: 'retries' } })),
    );
    expect(prompt.body.result).toMatchObject({ resultType: 'complete' });
    expect(prompt.body.result).not.toHaveProperty('cacheScope');
  });

  it('refuses headers that do not match the body with 400 and -32020, keeping the request id', async () => {
    const { transport } = await connected();
    const read = { name: 'read_page', arguments: { path: 'queues' } };
    const cases: Array<[string, ReturnType<typeof modern>]> = [
      ['no Mcp-Method', modern(11, 'tools/list', {}, { 'mcp-method': '' })],
      ['another method', modern(12, 'tools/list', {}, { 'mcp-method': 'prompts/list' })],
      ['method values are case-sensitive', modern(13, 'tools/list', {}, { 'mcp-method': 'TOOLS/LIST' })],
      ['another tool name', modern(14, 'tools/call', read, { 'mcp-name': 'search_docs' })],
      ['another version in the header', modern(15, 'tools/list', {}, { 'mcp-protocol-version': '2099-01-01' })],
      ['a name that is not Base64', modern(16, 'tools/call', read, { 'mcp-name': '=?base64?%%%?=' })],
    ];
    // An empty header reads as absent here; a real client omits it.
    cases[0]![1][0].headers.delete('mcp-method');
    const withoutName = modern(17, 'tools/call', read);
    withoutName[0].headers.delete('mcp-name');
    cases.push(['no Mcp-Name on tools/call', withoutName]);
    for (const [label, [request, body]] of cases) {
      const { status, body: reply } = await replyOf(transport.handle(request, body));
      expect([label, status, reply.error?.code, reply.id]).toEqual([label, 400, -32020, body.id]);
    }
  });

  it('accepts a name in Base64 form and whitespace around header values', async () => {
    const { transport } = await connected();
    const read = { name: 'read_page', arguments: { path: 'queues' } };
    const encoded = `=?base64?${btoa('read_page')}?=`;
    for (const name of [encoded, '  read_page\t']) {
      const { status, body } = await replyOf(transport.handle(...modern(1, 'tools/call', read, { 'mcp-name': name })));
      expect(status).toBe(200);
      expect(body.result).toMatchObject({ resultType: 'complete' });
    }
  });

  it('refuses a request without the _meta the revision requires with 400 and -32602', async () => {
    const { transport } = await connected();
    const [request] = modern(1, 'tools/list');
    const metas = [
      undefined,
      { 'io.modelcontextprotocol/clientCapabilities': {} },
      { 'io.modelcontextprotocol/protocolVersion': MODERN },
    ];
    for (const [index, _meta] of metas.entries()) {
      const { status, body } = await replyOf(
        transport.handle(request, { jsonrpc: '2.0', id: index, method: 'tools/list', params: { _meta } }),
      );
      expect([status, body.error?.code, body.id]).toEqual([400, -32602, index]);
      expect(body.error!.message).toContain('params._meta needs');
    }
  });

  it('answers a version it does not serve with 400 and -32022, listing the versions it does', async () => {
    const { transport } = await connected();
    const [request] = modern(9, 'tools/list', {}, { 'mcp-protocol-version': '2099-01-01' });
    const body = {
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/list',
      params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
    };
    const reply = await replyOf(transport.handle(request, body));
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      id: 9,
      error: { code: -32022, data: { requested: '2099-01-01', supported: expect.arrayContaining([MODERN]) } },
    });
  });

  it('answers methods the revision removed, and any it does not know, with 404 and -32601', async () => {
    const { transport } = await connected();
    for (const method of ['initialize', 'ping', 'logging/setLevel', 'subscriptions/listen', 'completion/complete']) {
      const { status, body } = await replyOf(transport.handle(...modern(21, method)));
      expect([method, status, body.error?.code, body.id]).toEqual([method, 404, -32601, 21]);
    }
  });

  it('takes one message per POST: refuses a batch, accepts a notification with 202', async () => {
    const { transport } = await connected();
    const [request, body] = modern(1, 'tools/list');
    const batch = await replyOf(transport.handle(request, [body, { ...body, id: 2 }]));
    expect([batch.status, batch.body.error?.code]).toEqual([400, -32600]);
    const [notifying] = modern(0, 'notifications/cancelled');
    const notified = await transport.handle(notifying, {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 1 },
    });
    expect(notified.status).toBe(202);
  });

  it('keeps the initialize-based answers for clients of earlier revisions', async () => {
    const { transport } = await connected();
    const listed = await replyOf(
      transport.handle(post({ ...JSON_HEADERS, 'mcp-protocol-version': '2025-06-18' }), {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { _meta: META },
      }),
    );
    expect(listed.status).toBe(200);
    expect(listed.body.result).not.toHaveProperty('resultType');
    expect(listed.body.result).not.toHaveProperty('ttlMs');
    const ping = await replyOf(transport.handle(post(), { jsonrpc: '2.0', id: 2, method: 'ping' }));
    expect(ping.body).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
  });
});
