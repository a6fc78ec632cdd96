import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOPBACK_HOSTS } from '@kit/http-hono';
import { createReferenceServer } from '../src/server.js';

type ReferenceServer = Awaited<ReturnType<typeof createReferenceServer>>;

/** The environment handed to the server: no KIT_* from the shell leaks in. */
function cleanEnv(): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('KIT_')));
}

function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((item) => item.text ?? '').join('\n');
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** A raw POST with any Host and Origin (fetch would not send a forged Host). */
function rawPost(port: number, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/docs/mcp',
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.once('error', reject);
    req.end(initialize);
  });
}

describe('the reference server MCP endpoint over real HTTP with the SDK client', () => {
  let server: ReferenceServer;
  let listener: ServerType;
  let port = 0;
  let endpoint: URL;
  let client: Client;

  beforeAll(async () => {
    // As main.ts serves it on a loopback address: loopback host names only.
    server = await createReferenceServer({ env: cleanEnv(), allowedHosts: [...LOOPBACK_HOSTS] });
    listener = await new Promise<ServerType>((resolve) => {
      const started = serve({ fetch: server.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
    });
    port = (listener.address() as AddressInfo).port;
    endpoint = new URL(`http://127.0.0.1:${port}/docs/mcp`);
    client = new Client({ name: 'kit-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(endpoint));
  });
  afterAll(async () => {
    await client?.close();
    await new Promise<void>((resolve) => (listener ? listener.close(() => resolve()) : resolve()));
    await server?.close();
  });

  it('initializes as the kit server with the workflow instructions', () => {
    expect(client.getServerVersion()?.name).toBe('kit');
    const instructions = client.getInstructions() ?? '';
    expect(instructions).toContain('search_docs');
    expect(instructions).toContain('submit_feedback');
  });

  it('lists exactly the four guest tools, read tools annotated read-only', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'list_pages',
      'read_page',
      'search_docs',
      'submit_feedback',
    ]);
    const search = tools.find((tool) => tool.name === 'search_docs')!;
    expect(search.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
    expect(tools.find((tool) => tool.name === 'submit_feedback')!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
    });
  });

  it('search_docs finds the MCP page with absolute URLs in structured results', async () => {
    const result = await client.callTool({ name: 'search_docs', arguments: { query: 'MCP server tools', limit: 5 } });
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as {
      set: string;
      results: Array<{ path: string; url: string; markdown_url: string }>;
    };
    expect(structured.set).toBe('docs');
    expect(structured.results.length).toBeGreaterThan(0);
    expect(structured.results.length).toBeLessThanOrEqual(5);
    expect(structured.results.map((hit) => hit.path)).toContain('agents/mcp');
    expect(structured.results[0]!.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/docs\//);
  });

  it('read_page returns the agent Markdown ending with its content hash, the same hash in _meta', async () => {
    const result = await client.callTool({ name: 'read_page', arguments: { path: 'agents/mcp' } });
    expect(result.isError).toBeFalsy();
    const meta = result._meta as { content_hash: string; path: string; version: string; markdown_url: string };
    expect(meta.path).toBe('agents/mcp');
    expect(meta.version).toBe('current');
    expect(meta.markdown_url).toMatch(/\/docs\/agents\/mcp\.md$/);
    expect(meta.content_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(textOf(result).trimEnd().endsWith(`content_hash: ${meta.content_hash}`)).toBe(true);
  });

  it('read_page also takes the page URL and one section', async () => {
    const result = await client.callTool({
      name: 'read_page',
      arguments: { path: `http://127.0.0.1:${port}/docs/agents/mcp.md`, section: 'Resource template' },
    });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('docs://{set}/{version}/{path}');
    expect(textOf(result)).not.toContain('## Prompts');
  });

  it('list_pages lists the navigation groups with their pages', async () => {
    const result = await client.callTool({ name: 'list_pages', arguments: {} });
    const listing = result.structuredContent as { groups: Array<{ label: string; pages: Array<{ path: string }> }> };
    const paths = listing.groups.flatMap((group) => group.pages.map((page) => page.path));
    expect(paths).toEqual(expect.arrayContaining(['agents/mcp', 'getting-started/quick-start']));
  });

  it('submit_feedback fires FeedbackSubmitted with source agent', async () => {
    const seen: unknown[] = [];
    const off = server.kit.events.on('FeedbackSubmitted', (payload) => {
      seen.push(payload);
    });
    const result = await client.callTool({
      name: 'submit_feedback',
      arguments: { path: 'agents/mcp', helpful: false, comment: 'Rate limit section is short.' },
    });
    (off as (() => void) | undefined)?.();
    expect(result.isError).toBeFalsy();
    expect(seen).toEqual([expect.objectContaining({ source: 'agent', set: 'docs' })]);
  });

  it('refuses validate_docs to a guest: it is not offered', async () => {
    // A tool the caller is not offered is an unknown tool: JSON-RPC -32602, as for any unknown name.
    const error = await client.callTool({ name: 'validate_docs', arguments: {} }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: -32602, data: { code: 'argument.invalid' } });
  });

  it('offers the docs-page resource template only and reads a page through it', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      expect.objectContaining({ name: 'docs-page', uriTemplate: 'docs://{set}/{version}/{path}' }),
    ]);
    expect((await client.listResources()).resources).toEqual([]);
    const { contents } = await client.readResource({ uri: 'docs://docs/current/agents/mcp' });
    expect(contents[0]).toMatchObject({ mimeType: 'text/markdown' });
    expect((contents[0] as { text: string }).text).toContain('# MCP server');
  });

  it('serves both prompts with the given topic and change', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name).sort()).toEqual(['document-change', 'write-docs-page']);
    const write = await client.getPrompt({ name: 'write-docs-page', arguments: { topic: 'Webhooks' } });
    expect(JSON.stringify(write.messages)).toContain('Webhooks');
    const change = await client.getPrompt({ name: 'document-change', arguments: { change: 'Renamed --foo to --bar' } });
    expect(JSON.stringify(change.messages)).toContain('Renamed --foo to --bar');
  });

  it('is bound to its own set: a call or resource naming another set is refused', async () => {
    const search = await client.callTool({ name: 'search_docs', arguments: { query: 'routing', set: 'laravel' } });
    expect(search.isError).toBe(true);
    expect(textOf(search)).toContain('only the set "docs"');
    const own = await client.callTool({ name: 'list_pages', arguments: { set: 'docs' } });
    expect(own.isError).toBeFalsy();
    await expect(client.readResource({ uri: 'docs://laravel/13.x/routing' })).rejects.toThrow();
  });

  it('refuses a foreign Origin before MCP runs, for the SDK client and a raw request alike', async () => {
    const foreign = new Client({ name: 'kit-e2e-foreign', version: '1.0.0' });
    await expect(
      foreign.connect(
        new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { Origin: 'https://evil.example' } } }),
      ),
    ).rejects.toThrow(/403|Origin/);
    const raw = await rawPost(port, { Origin: 'https://evil.example' });
    expect(raw.status).toBe(403);
    expect(JSON.parse(raw.body).error.message).toContain('Origin https://evil.example');
    const own = await rawPost(port, { Origin: `http://127.0.0.1:${port}` });
    expect(own.status).toBe(200);
  });

  it('refuses a rebinding Host (a foreign name resolved to 127.0.0.1) and serves localhost on any port', async () => {
    expect((await rawPost(port, { Host: `evil.example:${port}` })).status).toBe(403);
    expect((await rawPost(port, { Host: `localhost:${port}` })).status).toBe(200);
  });
});
