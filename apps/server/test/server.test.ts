import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceServer } from '../src/server.js';

type ReferenceServer = Awaited<ReturnType<typeof createReferenceServer>>;

/** The environment a test hands the server: no KIT_* from the shell leaks in. */
function cleanEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('KIT_')) env[key] = value;
  return { ...env, ...extra };
}

describe('the reference server with its own docs only', () => {
  let server: ReferenceServer;

  beforeAll(async () => {
    server = await createReferenceServer({ env: cleanEnv() });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('sends the site root to the docs set', async () => {
    const response = await server.app.request('/');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/docs');
  });

  it('serves the docs landing page as HTML that links its Markdown twin', async () => {
    const response = await server.app.request('/docs');
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html).toContain('<title>');
    expect(html).toContain('type="text/markdown" href="/docs/index.md"');
    expect(html).toContain('href="/docs/guides/reader-site"');
  });

  it('serves the Markdown twin of a docs page ending with its content hash', async () => {
    const response = await server.app.request('/docs/guides/reader-site.md');
    const markdown = await response.text();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(markdown).toContain('# The reader site');
    expect(markdown.trimEnd()).toMatch(/content_hash: sha256:[0-9a-f]{64}$/);
  });

  it('serves llms.txt listing the docs pages by their Markdown twins', async () => {
    const response = await server.app.request('/docs/llms.txt');
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text).toMatch(/^# Kit/);
    expect(text).toContain('/docs/guides/reader-site.md');
  });

  it('answers a search made right after start, while the docs are being prepared, with the right page', async () => {
    const warming = server.warm();
    const response = await server.app.request('/docs/_kit/search?q=reader+site+performance');
    expect(response.status).toBe(200);
    const { results } = (await response.json()) as { results: Array<{ path: string }> };
    expect(results.map((hit) => hit.path)).toContain('guides/reader-site');
    await warming;
    expect(server.warm()).toBe(warming);
  });

  it("names, as Kit's own manifest $schema, the manifest schema this server serves", async () => {
    const manifest = JSON.parse(readFileSync(new URL('../../site/kit.json', import.meta.url), 'utf8'));
    // {base_url}/schemas/3.x/kit.json, with the address `pnpm start` listens on (port 3000 by default).
    const address = new URL(manifest.$schema);
    expect(address.origin).toBe('http://localhost:3000');
    const response = await server.app.request(address.pathname);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/schema+json');
    expect(((await response.json()) as { $id: string }).$id).toMatch(/\/schemas\/3\.x\/kit\.json$/);
  });

  it('has no Laravel set unless the environment asks for it', async () => {
    expect([...server.kit.sets.keys()]).toEqual(['docs']);
    expect((await server.app.request('/laravel')).status).toBe(404);
  });
});

describe('the reference server with KIT_LARAVEL in the environment it is given', () => {
  let server: ReferenceServer;

  beforeAll(async () => {
    server = await createReferenceServer({ env: cleanEnv({ KIT_LARAVEL: '1' }) });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it('adds the Laravel set beside the docs', () => {
    expect([...server.kit.sets.keys()].sort()).toEqual(['docs', 'laravel']);
  });

  it('serves the Laravel landing page, another version and a Markdown twin', { timeout: 120_000 }, async () => {
    const landing = await server.app.request('/laravel');
    expect(landing.status).toBe(200);
    expect(await landing.text()).toContain('Laravel');
    const older = await server.app.request('/laravel/11.x/routing');
    expect(older.status).toBe(200);
    expect(await older.text()).toContain('href="/laravel/routing"');
    const twin = await server.app.request('/laravel/12.x/routing.md');
    expect(twin.status).toBe(200);
    expect(twin.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await twin.text()).toContain('# Routing');
  });

  it("serves a Laravel page's /docs/{{version}}/... links as Laravel pages that answer 200, in its HTML and its Markdown twin", {
    timeout: 120_000,
  }, async () => {
    const html = await (await server.app.request('/laravel/12.x/routing')).text();
    const twin = await (await server.app.request('/laravel/12.x/routing.md')).text();
    // The corpus writes `[middleware](/docs/{{version}}/middleware)`; /docs is Kit's own docs here.
    expect(html).not.toMatch(/href="\/docs\/12\.x\//);
    expect(twin).not.toMatch(/\]\(\/docs\/12\.x\//);
    const htmlLinks = [...html.matchAll(/href="(\/laravel\/12\.x\/middleware[^"]*)"/g)].map((match) => match[1]!);
    const twinLinks = [...twin.matchAll(/\]\((?:https?:\/\/[^/)]+)?(\/laravel\/12\.x\/middleware[^)]*)\)/g)].map(
      (match) => match[1]!,
    );
    expect(htmlLinks).toContain('/laravel/12.x/middleware#laravels-default-middleware-groups');
    expect(twinLinks).toContain('/laravel/12.x/middleware#laravels-default-middleware-groups');
    for (const link of [...htmlLinks, ...twinLinks]) {
      const target = await server.app.request(link.replace(/#.*$/, ''));
      expect(target.status, link).toBe(200);
      expect(await target.text()).toContain('Middleware');
    }
  });

  it('gives read_page the same working Laravel links as the Markdown twin', async () => {
    const read = await server.kit.set('laravel').readPage({ path: 'routing', version: '12.x' }, { user: null });
    expect(read.text).toMatch(
      /\]\((?:https?:\/\/[^/)]+)?\/laravel\/12\.x\/middleware#laravels-default-middleware-groups\)/,
    );
    expect(read.text).not.toMatch(/\]\(\/docs\/12\.x\//);
  });

  it('serves the Laravel llms.txt', async () => {
    const response = await server.app.request('/laravel/llms.txt');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('/laravel/routing.md');
  });
});
