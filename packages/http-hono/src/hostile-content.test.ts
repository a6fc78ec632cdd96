import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateDocSet } from '@kit/core';
import { createRenderer } from '@kit/render';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKitApp } from './app.js';
import { fixtureKit } from './testing/fixture.js';
import { HOSTILE_CONSTRUCTS, LIGHT_PAGE } from './testing/hostile-pages.js';

// One set holding a light page beside a page for every hostile construct: the hostile pages must
// get their degraded answer and every other page and surface must keep answering. Render times and
// memory are measured in bench/hostile, not asserted here.

let root = '';
let app: ReturnType<typeof createKitApp>;
let kit: ReturnType<typeof fixtureKit>;
const renderer = createRenderer();

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'kit-hostile-'));
  mkdirSync(join(root, 'docs/hostile'), { recursive: true });
  writeFileSync(join(root, 'docs/kit.json'), JSON.stringify({ name: 'Hostile Docs' }));
  writeFileSync(join(root, 'docs/index.md'), '# Home\n\nRead about [retries](retries.md).\n');
  writeFileSync(join(root, 'docs/retries.md'), LIGHT_PAGE);
  for (const construct of HOSTILE_CONSTRUCTS) {
    writeFileSync(join(root, `docs/hostile/${construct.name}.md`), construct.hostile);
  }
  kit = fixtureKit(
    { sets: { docs: { route: { prefix: 'docs' }, source: { path: 'docs' }, search: { driver: 'server' } } } },
    { root, renderer },
  );
  app = createKitApp({ kit, cacheDir: null });
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const get = (path: string, headers: Record<string, string> = {}) => app.request(`http://localhost${path}`, { headers });

async function searchDocs(query: string): Promise<{ isError?: boolean; text: string }> {
  const response = await app.request('http://localhost/docs/mcp', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'search_docs', arguments: { query } },
    }),
  });
  expect(response.status).toBe(200);
  const reply = (await response.json()) as {
    result?: { isError?: boolean; content: Array<{ text: string }> };
    error?: unknown;
  };
  expect(reply.error).toBeUndefined();
  return { isError: reply.result?.isError, text: reply.result?.content.map((part) => part.text).join('\n') ?? '' };
}

describe('a set holding hostile pages', () => {
  const degraded = HOSTILE_CONSTRUCTS.filter((construct) => construct.names !== null);

  it.each(degraded.map((construct) => [construct.name, construct] as const))(
    'answers the %s page with its text and a "too complex" notice naming the construct',
    async (_name, construct) => {
      const response = await get(`/docs/hostile/${construct.name}`);
      expect(response.status).toBe(200);
      const html = await response.text();
      const notice = /<p class="kit-unparsed-notice" role="note">([^<]*)<\/p>/.exec(html)?.[1] ?? '';
      expect(notice).toContain('This page is too complex to render');
      expect(notice).toMatch(construct.names as RegExp);
      expect(html).toMatch(/<pre class="kit-unparsed"[^>]*>/);

      const twin = await get(`/docs/hostile/${construct.name}.md`);
      expect(twin.status).toBe(200);
      expect(twin.headers.get('content-type')).toContain('text/markdown');
      // Agents get the page as written.
      expect(await twin.text()).toContain(construct.hostile.trim().slice(0, 200));
    },
  );

  it('renders the pages it can bound (code spans, a huge code block, thousands of code blocks) as Markdown', async () => {
    for (const name of ['code-spans', 'code-block', 'code-blocks']) {
      const response = await get(`/docs/hostile/${name}`);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).not.toContain('kit-unparsed');
      expect(html).toContain(name === 'code-spans' ? '<code>' : 'const a = 1;');
    }
  });

  it('serves a page whose frontmatter is a YAML alias bomb without its frontmatter', async () => {
    const response = await get('/docs/hostile/yaml-alias-bomb');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('The body is fine.');
    expect(html).not.toContain('lol');
    const twin = await get('/docs/hostile/yaml-alias-bomb.md');
    expect(twin.status).toBe(200);
    expect(await twin.text()).toContain('# Laughs');
  });

  it('keeps the light page, llms.txt, llms-full.txt and search answering while every hostile page is asked for', async () => {
    const hostile = HOSTILE_CONSTRUCTS.flatMap((construct) => [
      get(`/docs/hostile/${construct.name}`),
      get(`/docs/hostile/${construct.name}.md`),
    ]);
    const [light, twin, llms, llmsFull, search, ...rest] = await Promise.all([
      get('/docs/retries'),
      get('/docs/retries.md'),
      get('/docs/llms.txt'),
      get('/docs/llms-full.txt'),
      get('/docs/_kit/search?q=exponential%20backoff'),
      ...hostile,
    ]);
    expect(rest.map((response) => response.status)).toEqual(hostile.map(() => 200));
    expect(light?.status).toBe(200);
    expect(await light?.text()).toContain('Failed jobs retry with exponential backoff.');
    expect(twin?.status).toBe(200);
    expect(llms?.status).toBe(200);
    const index = (await llms?.text()) ?? '';
    expect(index).toContain('retries');
    for (const construct of HOSTILE_CONSTRUCTS) expect(index).toContain(`hostile/${construct.name}`);
    // The hostile pages make the full text long enough to be split per navigation group.
    expect(llmsFull?.status).toBe(200);
    expect(await llmsFull?.text()).toContain('/docs/llms-full/overview.txt');
    const overview = await get('/docs/llms-full/overview.txt');
    expect(overview.status).toBe(200);
    expect(await overview.text()).toContain('Failed jobs retry with exponential backoff.');
    expect(search?.status).toBe(200);
    const results = JSON.stringify(await search?.json());
    expect(results).toContain('/docs/retries');
  });

  it('answers search_docs over MCP with the light page, the hostile pages searched as plain text', async () => {
    const light = await searchDocs('exponential backoff');
    expect(light.isError).toBeFalsy();
    expect(light.text).toContain('retries');
    const hostile = await searchDocs('lol laughs body fine');
    expect(hostile.isError).toBeFalsy();
    expect(hostile.text).toContain('yaml-alias-bomb');
  });

  it('reports each hostile page to kit validate with its rule, and nothing on the light page', async () => {
    const report = await validateDocSet({ docSet: kit.set('docs'), renderer });
    const issuesOf = (name: string) => report.issues.filter((issue) => issue.page === `hostile/${name}`);
    for (const construct of degraded) {
      expect(issuesOf(construct.name)).toContainEqual(
        expect.objectContaining({
          rule: 'markdown.complexity',
          severity: 'warning',
          message: expect.stringMatching(construct.names as RegExp),
          fix: expect.any(String),
        }),
      );
    }
    expect(issuesOf('yaml-alias-bomb')).toContainEqual(
      expect.objectContaining({
        rule: 'frontmatter.schema',
        severity: 'error',
        message: expect.stringContaining('Excessive alias count'),
      }),
    );
    for (const name of ['code-spans', 'code-block', 'code-blocks']) {
      expect(issuesOf(name).filter((issue) => issue.rule === 'markdown.complexity')).toEqual([]);
    }
    expect(report.issues.filter((issue) => issue.page === 'retries' && issue.severity === 'error')).toEqual([]);
  });
});
