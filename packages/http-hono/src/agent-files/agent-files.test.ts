import { createHash } from 'node:crypto';
import { agentLinksFor, buildLlmsFullTxt, buildLlmsTxt, buildSitemap, type Kit, type KitConfigInput } from '@kit/core';
import { createFsSource } from '@kit/source-fs';
import type { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  agentApp,
  buildKit,
  commitTree,
  get,
  guest,
  ORIGIN,
  referenceFiles,
  useFsSource,
  writeTree,
} from './__fixtures__/kit.js';
import { validateXsd } from './__fixtures__/xsd.js';
import { agentLinkHeader } from './index.js';

useFsSource(createFsSource);

const STAFF = { authorization: 'Bearer staff' };

function sets(overrides: { docs?: object; big?: object } = {}): KitConfigInput {
  return {
    default: 'docs',
    sets: {
      docs: { source: { path: 'docs' }, agents: { ask_endpoint: true }, ...(overrides.docs ?? {}) },
      api: { source: { path: 'api' }, route: { prefix: '' } },
      big: { source: { path: 'big' }, ...(overrides.big ?? {}) },
    },
  } as KitConfigInput;
}

let root: string;
let kit: Kit;
let app: Hono;
beforeAll(() => {
  root = writeTree(referenceFiles);
  kit = buildKit(root, sets());
  app = agentApp(kit);
});

/** Every `.md` URL a text links to, with how often. */
function mdLinks(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const match of text.matchAll(/\]\((https:\/\/docs\.test\/[^)\s]+\.md)\)/g)) {
    counts.set(match[1]!, (counts.get(match[1]!) ?? 0) + 1);
  }
  return counts;
}

const SECRETS = ['Roadmap', 'zeppelin', 'internal/roadmap', '4.x', 'hyperdrive'];
function expectNoSecrets(text: string): void {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

describe('llms.txt', () => {
  it('opens with the name, the summary and the instructions, then one section per navigation group', async () => {
    const response = await get(app, '/docs/llms.txt');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await response.text();
    expect(
      text.startsWith('# Acme Docs\n\n> Acme runs background jobs for Node applications.\n\nPrefer the queues page'),
    ).toBe(true);
    const headings = [...text.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    expect(headings).toEqual(['Getting Started', 'Guides', 'Other pages']);
    expect(text).toContain('- [Installation](https://docs.test/docs/installation.md): Install Acme with npm.\n');
    expect(text).toContain('- [Welcome](https://docs.test/docs/index.md)\n');
    expect(text).toContain('- [Unlisted](https://docs.test/docs/unlisted.md)\n');
    expect(text).toContain('[2.x](https://docs.test/docs/2.x/llms.txt) (deprecated)');
    expect(text).toContain('[العربية](https://docs.test/docs/ar/llms.txt)');
  });

  it('lists every visible page exactly once, even one the navigation lists twice', async () => {
    const text = await (await get(app, '/docs/llms.txt')).text();
    expect([...mdLinks(text).entries()]).toEqual([
      ['https://docs.test/docs/index.md', 1],
      ['https://docs.test/docs/installation.md', 1],
      ['https://docs.test/docs/queues.md', 1],
      ['https://docs.test/docs/unlisted.md', 1],
    ]);
  });

  it('serves a path-scoped file for each version and locale, and says when a version is deprecated or archived', async () => {
    const old = await (await get(app, '/docs/2.x/llms.txt')).text();
    expect(old).toContain('**Version 2.x is deprecated.**');
    expect(old).toContain('https://docs.test/docs/2.x/queues.md');
    const archived = await (await get(app, '/docs/1.x/llms.txt')).text();
    expect(archived).toContain('**Version 1.x is archived and no longer updated.**');
    const arabic = await (await get(app, '/docs/ar/llms.txt')).text();
    expect(arabic).toContain('https://docs.test/docs/ar/queues.md');
    expect((await get(app, '/docs/2.x/ar/llms.txt')).status).toBe(200);
    expect((await get(app, '/docs/9.x/llms.txt')).status).toBe(404);
    expect((await get(app, '/llms.txt')).status).toBe(200);
  });

  it('keeps a private version and a private page out for a guest and answers 404 for the version', async () => {
    expectNoSecrets(await (await get(app, '/docs/llms.txt')).text());
    expect((await get(app, '/docs/4.x/llms.txt')).status).toBe(404);
    expect((await get(app, '/docs/4.x/llms-full.txt')).status).toBe(404);
  });

  it('includes them for a viewer viewKit allows, privately cached', async () => {
    const response = await get(app, '/docs/llms.txt', STAFF);
    expect(response.headers.get('cache-control')).toContain('private');
    const text = await response.text();
    expect(text).toContain('https://docs.test/docs/internal/roadmap.md');
    expect(text).toContain('[4.x](https://docs.test/docs/4.x/llms.txt)');
    const hidden = await get(app, '/docs/4.x/llms.txt', STAFF);
    expect(hidden.status).toBe(200);
    expect(await hidden.text()).toContain('Welcome (4.x)');
  });

  it('gives a guest a public copy with an ETag that answers If-None-Match with 304', async () => {
    const first = await get(app, '/docs/llms.txt');
    expect(first.headers.get('cache-control')).toContain('public');
    const etag = first.headers.get('etag')!;
    expect((await get(app, '/docs/llms.txt', { 'if-none-match': etag })).status).toBe(304);
  });
});

describe('llms-full.txt', () => {
  it('holds every visible page’s agent Markdown once, in navigation order, with its source URL', async () => {
    const text = await (await get(app, '/docs/llms-full.txt')).text();
    expect(text.startsWith('# Acme Docs (full text)\n\n> Acme runs background jobs')).toBe(true);
    const sources = [...text.matchAll(/^Source: (\S+)$/gm)].map((match) => match[1]);
    expect(sources).toEqual([
      'https://docs.test/docs/index.md',
      'https://docs.test/docs/installation.md',
      'https://docs.test/docs/queues.md',
      'https://docs.test/docs/unlisted.md',
    ]);
    expect(text).toContain('Failed jobs retry three times with exponential backoff.');
    expect(text.match(/^content_hash: sha256:[0-9a-f]{64}$/gm)).toHaveLength(4);
    expectNoSecrets(text);
  });

  it('includes the private page for staff', async () => {
    const text = await (await get(app, '/docs/llms-full.txt', STAFF)).text();
    expect(text).toContain('zeppelin');
  });
});

describe('splitting at small limits', () => {
  let small: Hono;
  beforeAll(() => {
    const limits = { agents: { llms_txt_limit: 1500, llms_full_limit: 5000 } };
    small = agentApp(buildKit(root, sets({ big: limits })));
  });

  /** Follows every `.txt` link from the main file; returns each file's text by URL path. */
  async function crawl(start: string, on: Hono = small): Promise<Map<string, string>> {
    const seen = new Map<string, string>();
    const queue = [start];
    while (queue.length > 0) {
      const path = queue.shift()!;
      if (seen.has(path)) continue;
      const response = await get(on, path);
      expect(response.status, path).toBe(200);
      const text = await response.text();
      seen.set(path, text);
      for (const match of text.matchAll(/https:\/\/docs\.test(\/[^\s)]+\.txt)/g)) {
        if (!match[1]!.endsWith('/llms.txt') && !match[1]!.endsWith('/llms-full.txt')) queue.push(match[1]!);
      }
    }
    return seen;
  }

  it('splits llms.txt into an index and group files, none over the limit, each page once', async () => {
    const files = await crawl('/big/llms.txt');
    expect(files.size).toBeGreaterThan(3);
    for (const [path, text] of files) expect(text.length, path).toBeLessThanOrEqual(1500);
    const index = files.get('/big/llms.txt')!;
    expect(index).toContain('## Alpha Guides');
    expect(index).toContain('https://docs.test/big/llms/alpha-guides.txt');
    const counts = new Map<string, number>();
    for (const [path, text] of files) {
      if (path === '/big/llms.txt') continue;
      for (const [url, count] of mdLinks(text)) counts.set(url, (counts.get(url) ?? 0) + count);
    }
    expect(counts.size).toBe(90);
    expect([...counts.values()].every((count) => count === 1)).toBe(true);
  });

  it('splits llms-full.txt by group and continues a group in parts, none over the limit, each page once', async () => {
    const files = await crawl('/big/llms-full.txt');
    expect([...files.keys()]).toContain('/big/llms-full/alpha-guides.2.txt');
    for (const [path, text] of files) expect(text.length, path).toBeLessThanOrEqual(5000);
    const sources = [...files.values()].flatMap((text) => [...text.matchAll(/^Source: (\S+)$/gm)].map((m) => m[1]));
    expect(sources).toHaveLength(90);
    expect(new Set(sources).size).toBe(90);
    const all = [...files.values()].join('');
    expect(all.match(/This paragraph explains the feature at length\./g)).toHaveLength(90 * 20);
  });

  it('cuts a page larger than the limit across parts without losing a page', async () => {
    const tiny = buildKit(root, sets({ big: { agents: { llms_full_limit: 1024 } } }));
    const bundle = await buildLlmsFullTxt(tiny.set('big'), guest, { origin: ORIGIN });
    const files = new Map(bundle.files.map((file) => [file.path, file.text]));
    for (const [path, text] of files) expect(text.length, path).toBeLessThanOrEqual(1024);
    const all = [...files.values()].join('');
    expect(all.match(/^Source: \S+$/gm)).toHaveLength(90);
    expect(all.match(/^content_hash: sha256:[0-9a-f]{64}$/gm)).toHaveLength(90);
    for (const file of bundle.files.slice(1)) expect(all).toContain(`${ORIGIN}${file.path}`);
    expect(files.size).toBeGreaterThan(180);
  });

  it('keeps a set under the limit in one file', async () => {
    const bundle = await buildLlmsTxt(kit.set('docs'), guest, { origin: ORIGIN });
    expect(bundle.split).toBe(false);
    expect(bundle.files).toHaveLength(1);
    expect(bundle.pages.map((page) => page.path)).toEqual(['index', 'installation', 'queues', 'unlisted']);
  });
});

describe('skill.md and skills/', () => {
  it('is in the Agent Skills format and says how to use the docs', async () => {
    const response = await get(app, '/docs/skill.md');
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    const text = await response.text();
    const front = /^---\nname: (.+)\ndescription: (.+)\n---\n/.exec(text);
    expect(front).not.toBeNull();
    expect(front![1]).toBe('acme-docs');
    expect(front![1]).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    const description = JSON.parse(front![2]!) as string;
    expect(description.length).toBeLessThanOrEqual(1024);
    expect(description).toContain('Acme runs background jobs');
    expect(text).toContain('`https://docs.test/docs/mcp`');
    expect(text).toContain('https://docs.test/docs/ask?q=');
    expect(text).toContain('https://docs.test/docs/llms.txt');
    expect(text).toContain('Prefer the queues page for retry questions.');
    expect(text).toContain('[acme-deploy](https://docs.test/docs/skills/deploy.md)');
    expectNoSecrets(text);
  });

  it('serves hand-written skills as written and lets other names fall through to the pages', async () => {
    const response = await get(app, '/docs/skills/deploy.md');
    expect(await response.text()).toBe(referenceFiles['docs/skills/deploy.md']);
    const missing = await get(app, '/docs/skills/nope.md');
    expect(await missing.text()).toBe('fell through to the page routes');
  });
});

describe('/.well-known/agent-skills/index.json', () => {
  it('lists each set’s skill.md and skills with digests of the bytes served', async () => {
    const response = await get(app, '/.well-known/agent-skills/index.json');
    expect(response.status).toBe(200);
    const index = (await response.json()) as { $schema: string; skills: Array<Record<string, string>> };
    expect(index.$schema).toBe('https://schemas.agentskills.io/discovery/0.2.0/schema.json');
    expect(index.skills.map((skill) => skill.name)).toEqual(['acme-docs', 'acme-deploy', 'acme-api', 'big-docs']);
    for (const skill of index.skills) {
      expect(skill.type).toBe('skill-md');
      expect(skill.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(skill.description!.length).toBeGreaterThan(0);
      const served = await get(app, new URL(skill.url!).pathname);
      const bytes = Buffer.from(await served.arrayBuffer());
      expect(skill.digest).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
    }
  });

  it('leaves out a set without both skill keys, and answers 404 when no set has both', async () => {
    const partial = agentApp(
      buildKit(root, {
        sets: {
          docs: { source: { path: 'docs' }, agents: { well_known_skills: false } },
          api: { source: { path: 'api' }, route: { prefix: '' } },
        },
      } as KitConfigInput),
    );
    const index = (await (await get(partial, '/.well-known/agent-skills/index.json')).json()) as {
      skills: Array<{ name: string }>;
    };
    expect(index.skills.map((skill) => skill.name)).toEqual(['acme-api']);
    const none = agentApp(
      buildKit(root, { sets: { docs: { source: { path: 'docs' }, agents: { skill_md: false } } } } as KitConfigInput),
    );
    expect((await get(none, '/.well-known/agent-skills/index.json')).status).toBe(404);
  });
});

describe('sitemap.xml', () => {
  it('validates against the sitemaps.org schema with lastmod and hreflang alternates', async () => {
    const committed = writeTree(referenceFiles);
    commitTree(committed, '2026-03-01T09:00:00Z');
    const response = await get(agentApp(buildKit(committed, sets(), { git: true })), '/docs/sitemap.xml');
    expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    const xml = await response.text();
    const result = await validateXsd(xml, 'sitemap.xsd');
    expect(result.ok, result.output).toBe(true);
    expect(xml).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
    expect(xml).toContain('<lastmod>2026-03-01T09:00:00.000Z</lastmod>');
    expect(xml).toContain('<xhtml:link rel="alternate" hreflang="ar" href="https://docs.test/docs/ar/queues"/>');
    expect(xml).toContain('<xhtml:link rel="alternate" hreflang="x-default" href="https://docs.test/docs/queues"/>');
    expect(xml).toContain('<loc>https://docs.test/docs/2.x/queues</loc>');
  });

  it('is checked by a validator that refuses what the schema forbids', async () => {
    const xml = await (await get(app, '/docs/sitemap.xml')).text();
    const broken = await validateXsd(xml.replace('<loc>', '<location>'), 'sitemap.xsd');
    expect(broken.ok).toBe(false);
    expect(broken.output).toContain('location');
  });

  it('gives no lastmod outside git: a file time is when the file was copied, not when the page changed', async () => {
    const xml = await (await get(app, '/docs/sitemap.xml')).text();
    expect((await validateXsd(xml, 'sitemap.xsd')).ok).toBe(true);
    expect(xml).toContain('<loc>https://docs.test/docs/2.x/queues</loc>');
    expect(xml).not.toContain('<lastmod>');
  });

  it('holds only public pages, even when staff asks', async () => {
    const xml = await (await get(app, '/docs/sitemap.xml', STAFF)).text();
    expectNoSecrets(xml);
    expect(xml).not.toContain('unlisted"');
  });

  it('becomes a sitemap index over the URL limit, each file valid', async () => {
    const files = await buildSitemap(kit.set('docs'), { origin: ORIGIN, maxUrls: 3 });
    expect(files[0]!.path).toBe('/docs/sitemap.xml');
    const index = await validateXsd(files[0]!.text, 'siteindex.xsd');
    expect(index.ok, index.output).toBe(true);
    for (const file of files.slice(1)) {
      const result = await validateXsd(file.text, 'sitemap.xsd');
      expect(result.ok, result.output).toBe(true);
    }
    expect(
      files
        .slice(1)
        .map((file) => file.text.match(/<url>/g)?.length ?? 0)
        .reduce((a, b) => a + b, 0),
    ).toBe((files.length - 2) * 3 + (files.at(-1)!.text.match(/<url>/g)?.length ?? 0));
  });
});

describe('GET /ask', () => {
  it('answers Markdown for agents and JSON on request', async () => {
    const markdown = await get(app, '/docs/ask?q=retry%20jobs');
    expect(markdown.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    const text = await markdown.text();
    expect(text).toContain('# Search results for "retry jobs"');
    expect(text).toContain('(https://docs.test/docs/queues.md)');
    const json = await get(app, '/docs/ask?q=retry&limit=1', { accept: 'application/json' });
    const body = (await json.json()) as { results: Array<{ path: string }> };
    expect(body.results).toHaveLength(1);
    expect(body.results[0]!.path).toBe('queues');
  });

  it('searches another version or locale and never a private version for a guest', async () => {
    const old = (await (await get(app, '/docs/ask?q=queues&version=2.x', { accept: 'application/json' })).json()) as {
      version: string;
    };
    expect(old.version).toBe('2.x');
    expect((await get(app, '/docs/ask?q=hyperdrive&version=4.x')).status).toBe(404);
    const text = await (await get(app, '/docs/ask?q=zeppelin')).text();
    expectNoSecrets(text.replace('# Search results for "zeppelin"', ''));
  });

  it('refuses an empty query with a 400 that says what to send', async () => {
    const response = await get(app, '/docs/ask?q=%20');
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('https://docs.test/docs/ask?q=');
    const json = await get(app, '/docs/ask', { accept: 'application/json' });
    expect(json.status).toBe(400);
    expect(((await json.json()) as { error: string }).error).toBe('search.invalid_query');
    expect((await get(app, '/docs/ask?q=jobs&limit=99')).status).toBe(400);
  });

  it('is off unless agents.ask_endpoint is on', async () => {
    expect((await get(app, '/ask?q=tokens')).status).toBe(404);
  });
});

describe('agents.* keys', () => {
  it('turn each file off with a 404', async () => {
    const off = agentApp(
      buildKit(root, {
        sets: {
          docs: {
            source: { path: 'docs' },
            agents: { llms_txt: false, llms_full: false, skill_md: false, sitemap: false, ask_endpoint: false },
          },
        },
      } as KitConfigInput),
    );
    for (const path of [
      '/docs/llms.txt',
      '/docs/2.x/llms.txt',
      '/docs/llms-full.txt',
      '/docs/skill.md',
      '/docs/sitemap.xml',
      '/docs/ask?q=x',
    ]) {
      expect((await get(off, path)).status, path).toBe(404);
    }
    expect(await (await get(off, '/docs/skills/deploy.md')).text()).toBe('fell through to the page routes');
  });
});

describe('agent links of a page', () => {
  it('point to the Markdown twin and the llms.txt of the page’s version and locale', async () => {
    const links = await agentLinksFor(
      kit.set('docs'),
      { version: '2.x', locale: 'ar', path: 'queues' },
      { origin: ORIGIN },
    );
    expect(links).toEqual({
      markdownUrl: 'https://docs.test/docs/2.x/ar/queues.md',
      llmsTxtUrl: 'https://docs.test/docs/2.x/ar/llms.txt',
    });
    expect(agentLinkHeader(links)).toBe(
      '<https://docs.test/docs/2.x/ar/queues.md>; rel="alternate"; type="text/markdown", <https://docs.test/docs/2.x/ar/llms.txt>; rel="describedby"; type="text/plain"',
    );
    expect(agentLinkHeader({ markdownUrl: '/docs/ünï.md' })).toBe(
      '</docs/%C3%BCn%C3%AF.md>; rel="alternate"; type="text/markdown"',
    );
  });
});
