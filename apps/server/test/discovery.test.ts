import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceServer } from '../src/server.js';

type ReferenceServer = Awaited<ReturnType<typeof createReferenceServer>>;

function cleanEnv(extra: Record<string, string>): Record<string, string | undefined> {
  return { ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('KIT_'))), ...extra };
}

const ORIGIN = 'http://localhost';

interface Card {
  $schema: string;
  name: string;
  title: string;
  remotes: Array<{ type: string; url: string; supportedProtocolVersions: string[] }>;
  _meta: Record<string, { tools: Array<{ name: string; description?: string }>; prompts: Array<{ name: string }> }>;
}

describe('discovery at the root of the reference server (Kit docs and Laravel)', () => {
  let server: ReferenceServer;
  const request = (path: string, init?: RequestInit) => server.app.request(`${ORIGIN}${path}`, init);

  beforeAll(async () => {
    server = await createReferenceServer({
      env: cleanEnv({ KIT_LARAVEL: '1' }),
      origin: ORIGIN,
      watch: false,
      renderPool: false,
    });
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  it('answers /llms.txt naming both sets’ llms.txt, each of which answers', async () => {
    const response = await request('/llms.txt');
    expect(response.status).toBe(200);
    const text = await response.text();
    const links = [...text.matchAll(/\]\((http:\/\/localhost\/[^)]+\/llms\.txt)\)/g)].map((match) => match[1]!);
    expect(links).toEqual(['http://localhost/docs/llms.txt', 'http://localhost/laravel/llms.txt']);
    for (const link of links) expect((await request(new URL(link).pathname)).status).toBe(200);
  });

  it('answers /robots.txt with a Sitemap line per set, each sitemap served', async () => {
    const text = await (await request('/robots.txt')).text();
    const sitemaps = [...text.matchAll(/^Sitemap: (.+)$/gm)].map((match) => match[1]!);
    expect(sitemaps).toEqual(['http://localhost/docs/sitemap.xml', 'http://localhost/laravel/sitemap.xml']);
    for (const sitemap of sitemaps) {
      const response = await request(new URL(sitemap).pathname);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('<urlset');
    }
  });

  it('lists a server card per set whose tools are those a real MCP client is offered at the endpoint', {
    timeout: 120_000,
  }, async () => {
    const catalog = (await (await request('/.well-known/mcp')).json()) as { entries: Array<{ url: string }> };
    expect(catalog.entries.map((entry) => entry.url)).toEqual([
      'http://localhost/docs/mcp/server-card',
      'http://localhost/laravel/mcp/server-card',
    ]);
    for (const entry of catalog.entries) {
      const response = await request(new URL(entry.url).pathname, {
        headers: { Accept: 'application/mcp-server+json' },
      });
      expect(response.status).toBe(200);
      const card = (await response.json()) as Card;
      expect(card.$schema).toBe('https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json');
      expect(card.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
      const remote = card.remotes[0]!;
      expect(remote.type).toBe('streamable-http');
      expect(remote.supportedProtocolVersions).toEqual(expect.arrayContaining(['2026-07-28', '2025-11-25']));

      const client = new Client({ name: 'kit-discovery-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(remote.url), {
          fetch: async (url, init) => server.app.fetch(new Request(url, init)),
        }),
      );
      try {
        const { tools } = await client.listTools();
        const { prompts } = await client.listPrompts();
        const offer = card._meta['dev.kit/offer']!;
        expect(offer.tools.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name));
        expect(offer.tools.map((tool) => tool.description)).toEqual(tools.map((tool) => tool.description));
        expect(offer.prompts.map((prompt) => prompt.name)).toEqual(prompts.map((prompt) => prompt.name));
        expect(tools.map((tool) => tool.name)).toContain('read_page');
      } finally {
        await client.close();
      }
    }
  });

  it('writes one URL per page in the agent Markdown: the default version carries no segment', async () => {
    const markdown = await (await request('/laravel/queues.md')).text();
    expect(markdown).toContain('](http://localhost/laravel/horizon)');
    expect(markdown).not.toContain('/laravel/13.x/');
    // Another version keeps its segment.
    const older = await (await request('/laravel/12.x/queues.md')).text();
    expect(older).toContain('](http://localhost/laravel/12.x/horizon)');
    // Under its title, the twin names the set's llms.txt.
    expect(markdown.split('\n').slice(0, 3).join('\n')).toBe(
      '# Queues\n\n> For AI agents: the index of these docs is at [llms.txt](http://localhost/laravel/llms.txt); every page is also served as Markdown at its URL with .md added.',
    );
  });
});
