import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOPBACK_HOSTS } from '@kit/http-hono';
import { createReferenceServer } from '../src/server.js';

type ReferenceServer = Awaited<ReturnType<typeof createReferenceServer>>;

function cleanEnv(extra: Record<string, string>): Record<string, string | undefined> {
  return { ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('KIT_'))), ...extra };
}

// The Laravel docs have a page named `mcp`, so /laravel/mcp is both a page and the set's MCP endpoint.
describe('an MCP endpoint whose path is also a page (Laravel /laravel/mcp) over real HTTP', () => {
  let server: ReferenceServer;
  let listener: ServerType;
  let endpoint: URL;
  const getsByAccept: string[] = [];

  beforeAll(async () => {
    server = await createReferenceServer({ env: cleanEnv({ KIT_LARAVEL: '1' }), allowedHosts: [...LOOPBACK_HOSTS] });
    const fetchCounting = (request: Request) => {
      if (request.method === 'GET' && new URL(request.url).pathname === '/laravel/mcp') {
        getsByAccept.push(request.headers.get('accept') ?? '');
      }
      return server.app.fetch(request);
    };
    listener = await new Promise<ServerType>((resolve) => {
      const started = serve({ fetch: fetchCounting, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
    });
    endpoint = new URL(`http://127.0.0.1:${(listener.address() as AddressInfo).port}/laravel/mcp`);
  }, 180_000);
  afterAll(async () => {
    await new Promise<void>((resolve) => (listener ? listener.close(() => resolve()) : resolve()));
    await server?.close();
  });

  it('lets the SDK client connect and call a tool without reconnecting its GET stream in a loop', {
    timeout: 60_000,
  }, async () => {
    const client = new Client({ name: 'kit-mcp-page-path', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(endpoint));
    try {
      const result = await client.callTool({ name: 'read_page', arguments: { path: 'routing' } });
      expect(result.isError).toBeFalsy();
      // Laravel's method headings carry `{.collection-method}`: the section is found by its clean name.
      const retry = await client.callTool({ name: 'read_page', arguments: { path: 'helpers', section: 'retry()' } });
      expect(retry.isError).toBeFalsy();
      const retryText = (retry.content as Array<{ text?: string }>).map((item) => item.text ?? '').join('\n');
      expect(retryText.startsWith('#### `retry()` {#method-retry}\n')).toBe(true);
      expect(retryText).toContain('The `retry` function attempts to execute the given callback');
      expect(retryText).not.toContain('{.collection-method}');
      // The client opens its optional event stream with GET after connecting; answered 405 it stops.
      // Before the fix it got the HTML page, read it as an empty stream and reconnected (5 GETs in 5 s).
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      expect(getsByAccept.length).toBeLessThanOrEqual(1);
      expect(getsByAccept.every((accept) => accept.includes('text/event-stream'))).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('answers an MCP GET with 405 and Allow: POST, and a browser with the page', { timeout: 60_000 }, async () => {
    const stream = await fetch(endpoint, { headers: { Accept: 'text/event-stream' } });
    expect(stream.status).toBe(405);
    expect(stream.headers.get('allow')).toBe('POST');
    await stream.body?.cancel();
    const bare = await fetch(endpoint, { headers: { Accept: '*/*' } });
    expect(bare.status).toBe(405);
    await bare.body?.cancel();
    const browser = await fetch(endpoint, { headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(browser.status).toBe(200);
    expect(browser.headers.get('content-type')).toContain('text/html');
    expect(await browser.text()).toContain('Laravel MCP');
  });
});
