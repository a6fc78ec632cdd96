import { createRenderer } from '@kit/render';
import { createServerSearch } from '@kit/search';
import { createFsSource } from '@kit/source-fs';
import { describe, expect, it } from 'vitest';
import { StatelessJsonTransport } from './json-transport.js';
import { buildMcpServer } from './server.js';
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
