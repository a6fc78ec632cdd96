// The agent files over the real Laravel corpus (three versions, ~100 pages each), served as its
// owners would (html_input allow). The copy marks 11.x private and adds a private page to 13.x.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildLlmsFullTxt, type Kit, type KitConfigInput } from '@kit/core';
import { createFsSource } from '@kit/source-fs';
import type { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { agentApp, buildKit, get, guest, ORIGIN, useFsSource, writeTree } from './__fixtures__/kit.js';
import { validateXsd } from './__fixtures__/xsd.js';

useFsSource(createFsSource);

const corpus = `${process.env.KIT_SHARED_DIR}/corpora/laravel`;

let root: string;
let kit: Kit;
let app: Hono;
let visible13: string[];

function laravel(agents: Record<string, unknown> = {}): Kit {
  return buildKit(root, {
    sets: { docs: { source: { path: 'laravel' }, html_input: 'allow', agents: { ask_endpoint: true, ...agents } } },
  } as KitConfigInput);
}

beforeAll(async () => {
  root = writeTree(
    {
      'laravel/13.x/internal-notes.md':
        '---\ntitle: Internal Notes\nvisibility: private\n---\n# Internal Notes\n\nThe unicorn release plan.\n',
    },
    { from: corpus, to: 'laravel' },
  );
  const manifest = JSON.parse(readFileSync(join(corpus, 'kit.json'), 'utf8'));
  manifest.versions = manifest.versions.map((version: { id: string }) =>
    version.id === '11.x' ? { ...version, visibility: 'private' } : version,
  );
  writeFileSync(join(root, 'laravel', 'kit.json'), JSON.stringify(manifest));
  kit = laravel();
  app = agentApp(kit);
  visible13 = (await kit.set('docs').visiblePages({}, guest)).map((page) => page.path);
});

function expectNothingPrivate(text: string): void {
  expect(text).not.toContain('/11.x');
  expect(text).not.toContain('internal-notes');
  expect(text).not.toContain('unicorn');
}

describe('agent files of the Laravel docs', () => {
  it('llms.txt has one section per navigation group and every visible page once', async () => {
    const text = await (await get(app, '/docs/llms.txt')).text();
    expect(text.startsWith('# Laravel\n\n> Laravel is a PHP web application framework')).toBe(true);
    const headings = [...text.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    expect(headings.slice(0, 4)).toEqual(['Prologue', 'Getting Started', 'Architecture Concepts', 'The Basics']);
    const links = [...text.matchAll(/\]\((https:\/\/docs\.test\/docs\/[^)]+\.md)\)/g)].map((match) => match[1]);
    expect(links).toHaveLength(visible13.length);
    expect(new Set(links).size).toBe(visible13.length);
    expect(text).toContain('- [Routing](https://docs.test/docs/routing.md)');
    expect(text.length).toBeLessThanOrEqual(50_000);
    expectNothingPrivate(text);
    const deprecated = await get(app, '/docs/12.x/llms.txt');
    expect(deprecated.status).toBe(200);
    expect((await get(app, '/docs/11.x/llms.txt')).status).toBe(404);
  });

  it('llms.txt splits at a small limit with no file over it and each page once', async () => {
    const small = agentApp(laravel({ llms_txt_limit: 2000 }));
    const files = new Map<string, string>();
    const queue = ['/docs/llms.txt'];
    while (queue.length > 0) {
      const path = queue.shift()!;
      if (files.has(path)) continue;
      const response = await get(small, path);
      expect(response.status, path).toBe(200);
      const text = await response.text();
      files.set(path, text);
      for (const match of text.matchAll(/https:\/\/docs\.test(\/docs\/llms\/[^\s)]+\.txt)/g)) queue.push(match[1]!);
    }
    expect(files.size).toBeGreaterThan(5);
    expect(files.has('/docs/llms/the-basics.txt')).toBe(true);
    for (const [path, text] of files) expect(text.length, path).toBeLessThanOrEqual(2000);
    const links = [...files.values()].flatMap((text) =>
      [...text.matchAll(/\]\((https:\/\/docs\.test\/docs\/[^)]+\.md)\)/g)].map((match) => match[1]),
    );
    expect(links.sort()).toEqual([...new Set(links)].sort());
    expect(links).toHaveLength(visible13.length);
  });

  it('llms-full.txt splits the 3 MB version by group under the default limit with every page once', {
    timeout: 180_000,
  }, async () => {
    const bundle = await buildLlmsFullTxt(kit.set('docs'), guest, { origin: ORIGIN });
    expect(bundle.split).toBe(true);
    expect(bundle.limit).toBe(400_000);
    for (const file of bundle.files) expect(file.text.length, file.path).toBeLessThanOrEqual(400_000);
    const all = bundle.files.map((file) => file.text).join('');
    const sources = [...all.matchAll(/^Source: (\S+)$/gm)].map((match) => match[1]);
    expect(sources).toHaveLength(visible13.length);
    expect(new Set(sources).size).toBe(visible13.length);
    expect(all).toContain('Route::get(');
    expectNothingPrivate(all);
    const index = await (await get(app, '/docs/llms-full.txt')).text();
    expect(index).toContain('https://docs.test/docs/llms-full/the-basics.txt');
    const part = await get(app, '/docs/llms-full/the-basics.txt');
    expect(part.status).toBe(200);
    expect((await part.text()).length).toBeLessThanOrEqual(400_000);
  });

  it('sitemap.xml is valid, covers the public versions and leaves the private ones out', async () => {
    const xml = await (await get(app, '/docs/sitemap.xml', { authorization: 'Bearer staff' })).text();
    const result = await validateXsd(xml, 'sitemap.xsd');
    expect(result.ok, result.output).toBe(true);
    expect(xml).toContain('<loc>https://docs.test/docs/routing</loc>');
    expect(xml).toContain('<loc>https://docs.test/docs/12.x/routing</loc>');
    // The copy is in no git repository: its pages have no update date, so no lastmod.
    expect(xml).not.toContain('<lastmod>');
    expectNothingPrivate(xml);
  });

  it('skill.md and the discovery index name only what a guest may see, with digests that match', async () => {
    const skill = await (await get(app, '/docs/skill.md')).text();
    expect(skill).toMatch(/^---\nname: laravel\ndescription: "/);
    expect(skill).toContain('- 12.x (maintained): https://docs.test/docs/12.x/llms.txt');
    expectNothingPrivate(skill);
    const index = (await (await get(app, '/.well-known/agent-skills/index.json')).json()) as {
      skills: Array<{ url: string; digest: string }>;
    };
    expect(index.skills).toHaveLength(1);
    const served = Buffer.from(await (await get(app, new URL(index.skills[0]!.url).pathname)).arrayBuffer());
    expect(index.skills[0]!.digest).toBe(`sha256:${createHash('sha256').update(served).digest('hex')}`);
  });

  it('/ask finds the answer as Markdown and never searches the private version for a guest', {
    timeout: 120_000,
  }, async () => {
    const text = await (await get(app, '/docs/ask?q=retry%20failed%20queued%20jobs')).text();
    expect(text).toMatch(/\]\(https:\/\/docs\.test\/docs\/queues\.md\)/);
    expect((await get(app, '/docs/ask?q=routing&version=11.x')).status).toBe(404);
    expectNothingPrivate(
      (await (await get(app, '/docs/ask?q=unicorn%20release%20plan')).text()).replace(/"unicorn release plan"/, ''),
    );
  });
});
