import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { KitError, type PageRenderer, type RenderContext } from '@kit/core';
import { createRenderer } from '@kit/render';
import { beforeAll, describe, expect, it } from 'vitest';
import { createKitApp } from './app.js';
import { prefersMarkdown } from './request/negotiation.js';
import { withQuery } from './routes/pages.js';
import { fixtureKit, recordEvents } from './testing/fixture.js';

const kit = fixtureKit();
const app = createKitApp({ kit });
const staff = { Authorization: 'Bearer staff' };

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await app.request(path, { headers });
  return { response, text: await response.text() };
}

beforeAll(async () => {
  // Build the reader assets once before the timed-out tests start.
  await app.request('/docs');
});

describe('pages', () => {
  it('serves the default version and locale without segments and other versions with theirs', async () => {
    const home = await get('/docs');
    expect(home.response.status).toBe(200);
    expect(home.response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(home.text).toContain('Acme is a queue runner.');
    const explicit = await get('/docs/3.x/installation');
    expect(explicit.text).toContain('npm install acme');
    const old = await get('/docs/2.x/queues');
    expect(old.response.status).toBe(200);
    expect(old.text).toContain('Old queues retry once.');
  });

  it('serves a localized page right-to-left', async () => {
    const { response, text } = await get('/docs/ar');
    expect(response.status).toBe(200);
    expect(text).toMatch(/<html[^>]*dir="rtl"/);
    expect(text).toMatch(/<html[^>]*lang="ar"/);
    expect(text).toContain('مرحبا بكم');
  });

  it('serves a root-mounted unversioned set at the domain root', async () => {
    const { response, text } = await get('/tokens');
    expect(response.status).toBe(200);
    expect(text).toContain('Create API tokens in settings.');
  });

  it('serves the Markdown twin as text/markdown ending with the content hash line', async () => {
    const { response, text } = await get('/docs/queues.md');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(text).toContain('Failed jobs retry three times');
    expect(text.trimEnd()).toMatch(/content_hash: sha256:[0-9a-f]{64}$/);
  });

  it('answers Accept: text/markdown with the twin and plain browsers with HTML', async () => {
    const agent = await get('/docs/queues', { Accept: 'text/markdown' });
    expect(agent.response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(agent.response.headers.get('vary')).toContain('Accept');
    const browser = await get('/docs/queues', { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    expect(browser.response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('points each page at its Markdown twin and llms.txt in the Link header and the head', async () => {
    const { response, text } = await get('/docs/2.x/queues');
    const link = response.headers.get('link') ?? '';
    expect(link).toContain('</docs/2.x/queues.md>; rel="alternate"; type="text/markdown"');
    expect(link).toContain('</docs/2.x/llms.txt>; rel="describedby"');
    expect(text).toContain('rel="alternate" type="text/markdown" href="/docs/2.x/queues.md"');
  });

  it('keeps the reader on the same page when the version switcher offers another version', async () => {
    const { text } = await get('/docs/queues');
    expect(text).toContain('href="/docs/2.x/queues"');
    // installation does not exist in 2.x: its switcher entry leads to the 2.x landing page.
    const installation = await get('/docs/installation');
    expect(installation.text).not.toContain('href="/docs/2.x/installation"');
    expect(installation.text).toContain('href="/docs/2.x"');
  });

  it("checks the switcher's other versions page by page instead of listing their pages", async () => {
    const fresh = fixtureKit();
    const source = fresh.set('docs').source;
    const listed: string[] = [];
    const listPages = source.listPages.bind(source);
    source.listPages = (version, locale) => {
      listed.push(version);
      return listPages(version, locale);
    };
    const text = await (await createKitApp({ kit: fresh }).request('/docs/queues')).text();
    expect(text).toContain('href="/docs/2.x/queues"');
    expect(listed).not.toContain('2.x');
  });

  it('sends a page whose code grammar is still loading unhighlighted and keeps it out of every cache', async () => {
    let ready = false;
    const contexts: RenderContext[] = [];
    const base = createRenderer();
    const renderer: PageRenderer = {
      render: (page, context) => {
        contexts.push(context);
        return base.render(page, context);
      },
      highlightReady: () => ready,
    };
    const fresh = fixtureKit({}, { renderer, watch: true });
    try {
      const freshApp = createKitApp({ kit: fresh });
      const early = await freshApp.request('/docs/queues');
      expect(early.status).toBe(200);
      expect(early.headers.get('cache-control')).toBe('no-store');
      expect(await early.text()).toContain('Queues run jobs.');
      expect(contexts.map((context) => context.highlight)).toEqual([false]);

      ready = true;
      const later = await freshApp.request('/docs/queues');
      expect(later.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
      // Rendered again with highlighting: the plain page was not answered from the response cache.
      expect(contexts.map((context) => context.highlight)).toEqual([false, undefined]);
      await freshApp.request('/docs/queues');
      expect(contexts).toHaveLength(2);
    } finally {
      await Promise.all([...fresh.sets.values()].map((set) => (set as { close?: () => Promise<void> }).close?.()));
    }
  });

  it('answers a not-found error thrown while serving a page with the HTML 404 page to a browser', async () => {
    const base = createRenderer();
    const renderer: PageRenderer = {
      render: (page, context) => {
        if (page.path === 'queues') throw new KitError('page.not_found', 'The page vanished while rendering.');
        return base.render(page, context);
      },
    };
    const failing = createKitApp({ kit: fixtureKit({}, { renderer }), cacheDir: null });
    const browser = await failing.request('/docs/queues', { headers: { Accept: 'text/html,*/*;q=0.8' } });
    expect(browser.status).toBe(404);
    expect(browser.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await browser.text()).toContain('/docs/queues');
    const api = await failing.request('/docs/queues', { headers: { Accept: 'application/json' } });
    expect(api.status).toBe(404);
    expect((await api.json()).error).toBe('page.not_found');
  });

  it('answers a missing page with a real 404 page', async () => {
    const { response, text } = await get('/docs/no-such-page');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(text).toContain('Acme Docs');
    expect(text).toContain('/docs/no-such-page');
  });

  it('keeps a reader lost inside a version or a language in it on the 404 page', async () => {
    const older = await get('/docs/2.x/no-such-page');
    expect(older.response.status).toBe(404);
    expect(older.text).toMatch(/"version":"2\.x"/);
    const arabic = await get('/docs/ar/no-such-page');
    expect(arabic.response.status).toBe(404);
    expect(arabic.text).toContain('<html lang="ar" dir="rtl">');
  });
});

describe('redirects', () => {
  it('redirects an old URL and keeps the reader in their version', async () => {
    const current = await app.request('/docs/old-queues');
    expect(current.status).toBe(301);
    expect(current.headers.get('location')).toBe('/docs/queues');
    const older = await app.request('/docs/2.x/old-queues');
    expect(older.status).toBe(301);
    expect(older.headers.get('location')).toBe('/docs/2.x/queues');
  });

  it('sends a trailing slash to the canonical URL', async () => {
    const response = await app.request('/docs/queues/');
    expect(response.status).toBe(308);
    expect(response.headers.get('location')).toBe('/docs/queues');
  });

  it('keeps the query string on the trailing-slash and manifest redirects', async () => {
    const slash = await app.request('/docs/queues/?tab=1&q=a%20b');
    expect(slash.status).toBe(308);
    expect(slash.headers.get('location')).toBe('/docs/queues?tab=1&q=a%20b');
    const manifest = await app.request('/docs/2.x/old-queues?tab=1');
    expect(manifest.status).toBe(301);
    expect(manifest.headers.get('location')).toBe('/docs/2.x/queues?tab=1');
    expect((await app.request('/tokens/?x=1')).headers.get('location')).toBe('/tokens?x=1');
  });

  it('keeps the fragment of a manifest redirect after the added query', async () => {
    const root = mkdtempSync(join(tmpdir(), 'kit-http-redirect-'));
    mkdirSync(join(root, 'docs'));
    writeFileSync(
      join(root, 'docs/kit.json'),
      JSON.stringify({ name: 'Fragments', redirects: [{ from: '/docs/retries', to: 'queues#retrying-jobs' }] }),
    );
    writeFileSync(join(root, 'docs/index.md'), '# Home\n');
    writeFileSync(join(root, 'docs/queues.md'), '# Queues\n\n## Retrying Jobs\n');
    try {
      const fragments = createKitApp({
        kit: fixtureKit({ sets: { docs: { route: { prefix: 'docs' }, source: { path: 'docs' } } } }, { root }),
        cacheDir: null,
      });
      const response = await fragments.request('/docs/retries?tab=1');
      expect(response.status).toBe(301);
      expect(response.headers.get('location')).toBe('/docs/queues?tab=1#retrying-jobs');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('adds the query after a query of the target and before its fragment', () => {
    expect(withQuery('/docs/queues#retries', '?tab=1')).toBe('/docs/queues?tab=1#retries');
    expect(withQuery('/docs/queues?from=old#retries', '?tab=1')).toBe('/docs/queues?from=old&tab=1#retries');
    expect(withQuery('https://example.com/x', '?a=1')).toBe('https://example.com/x?a=1');
    expect(withQuery('/docs/queues#retries', '')).toBe('/docs/queues#retries');
  });

  it('marks a redirect only a signed-in reader gets private, and a guest redirect revalidated', async () => {
    // Only staff see 4.x: for a guest these paths do not exist, so a shared cache must never keep them.
    for (const path of ['/docs/4.x/old-queues', '/docs/4.x/queues/']) {
      const forStaff = await app.request(path, { headers: staff });
      expect(forStaff.status).toBeGreaterThanOrEqual(301);
      expect(forStaff.headers.get('location')).toBe('/docs/4.x/queues');
      expect(forStaff.headers.get('cache-control')).toBe('private, no-cache');
      expect((await app.request(path)).status).toBe(404);
    }
    const guest = await app.request('/docs/old-queues');
    expect(guest.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
  });
});

describe('private content', () => {
  const secrets = ['hyperdrive', 'zeppelin', '4.x', 'Roadmap'];

  it('answers a private version and a private page to a guest exactly like a missing page', async () => {
    // Each hidden path beside a missing one of the same shape (the 404 page suggests pages by path).
    for (const [path, absent] of [
      ['/docs/4.x/queues', '/docs/5.x/queues'],
      ['/docs/4.x', '/docs/5.x'],
      ['/docs/internal/roadmap', '/docs/internal/roadmaq'],
    ] as const) {
      const hidden = await get(path);
      const missing = await get(absent);
      expect(hidden.response.status).toBe(404);
      expect(hidden.text.replaceAll(path, '')).toBe(missing.text.replaceAll(absent, ''));
    }
    for (const path of ['/docs/4.x/queues.md', '/docs/internal/roadmap.md']) {
      expect((await get(path)).response.status).toBe(404);
    }
  });

  it('never shows a private version or page to a guest in navigation, switchers or search', async () => {
    const pages = await Promise.all(['/docs', '/docs/queues', '/docs/2.x/queues', '/docs/ar'].map((path) => get(path)));
    const search = await get('/docs/_kit/search?q=hyperdrive%20zeppelin%20roadmap');
    for (const { text } of pages) {
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
    expect(JSON.parse(search.text).results).toEqual([]);
    const ordinary = await get('/docs/_kit/search?q=queues');
    expect(JSON.parse(ordinary.text).results.map((hit: { path: string }) => hit.path)).not.toContain(
      'internal/roadmap',
    );
    for (const secret of secrets) expect(ordinary.text).not.toContain(secret);
  });

  it("keeps a signed-in reader's 404 page, which lists their navigation, out of shared caches", async () => {
    const forStaff = await get('/docs/no-such-page', staff);
    expect(forStaff.response.status).toBe(404);
    expect(forStaff.text).toContain('Roadmap');
    expect(forStaff.response.headers.get('cache-control')).toBe('private, no-cache');
    const forGuest = await get('/docs/no-such-page');
    expect(forGuest.response.headers.get('cache-control')).toBe('no-cache');
    const twin = await get('/docs/no-such-page.md', staff);
    expect(twin.response.headers.get('cache-control')).toBe('private, no-cache');
  });

  it('shows private content to a viewer the viewKit gate admits, marked Cache-Control: private', async () => {
    const { response, text } = await get('/docs/4.x/queues', staff);
    expect(response.status).toBe(200);
    expect(text).toContain('Unreleased hyperdrive queues.');
    expect(response.headers.get('cache-control')).toContain('private');
    expect(response.headers.get('etag')).toBeNull();
    const roadmap = await get('/docs/internal/roadmap', staff);
    expect(roadmap.text).toContain('zeppelin');
  });
});

describe('caching and compression', () => {
  it('gives public pages an ETag and answers If-None-Match with 304', async () => {
    const first = await app.request('/docs/queues');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(first.headers.get('cache-control')).toContain('public');
    const second = await app.request('/docs/queues', { headers: { 'If-None-Match': etag! } });
    expect(second.status).toBe(304);
    expect(await second.text()).toBe('');
  });

  it('compresses bodies for clients that accept gzip', async () => {
    const response = await app.request('/docs/queues', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(response.headers.get('content-encoding')).toBe('gzip');
    const html = gunzipSync(Buffer.from(await response.arrayBuffer())).toString('utf8');
    expect(html).toContain('Failed jobs retry three times');
  });
});

describe('schemas and stylesheets', () => {
  it('serves each JSON schema at the set path and the versioned path with the specified headers', async () => {
    for (const path of ['/docs/schemas/larecipe.json', '/schemas/3.x/navigation.json', '/docs/schemas/validate.json']) {
      const response = await app.request(path, { headers: { Host: 'docs.example.com' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/schema+json');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    }
    const manifest = await (await app.request('http://docs.example.com/docs/schemas/larecipe.json')).json();
    expect(manifest.$id).toBe('http://docs.example.com/schemas/3.x/kit.json');
    expect((await app.request('/docs/schemas/secrets.json')).status).toBe(404);
  });

  it('resolves the manifest schema at its own $id and under the set as kit.json', async () => {
    const byId = await app.request('http://docs.example.com/schemas/3.x/kit.json');
    expect(byId.status).toBe(200);
    expect(byId.headers.get('content-type')).toBe('application/schema+json');
    const schema = await byId.json();
    expect(schema.$id).toBe('http://docs.example.com/schemas/3.x/kit.json');
    const underSet = await app.request('http://docs.example.com/docs/schemas/kit.json');
    expect(await underSet.json()).toEqual(schema);
    expect(await (await app.request('http://docs.example.com/schemas/3.x/larecipe.json')).json()).toEqual(schema);
    expect((await app.request('/schemas/3.x/kit')).status).toBe(404);
  });

  it('runs the web middleware on every schema route', async () => {
    const bare = createKitApp({
      kit: fixtureKit({
        sets: { docs: { route: { prefix: 'docs', middleware: [] }, source: { path: 'docs' } } },
      }),
    });
    for (const path of ['/schemas/3.x/kit.json', '/schemas/3.x/navigation.json', '/docs/schemas/frontmatter.json']) {
      for (const served of [app, bare]) {
        const response = await served.request(path);
        expect(response.status).toBe(200);
        expect(response.headers.get('x-content-type-options')).toBe('nosniff');
        expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      }
    }
  });

  it('links the set stylesheet with a content hash in the URL and serves it', async () => {
    const { text } = await get('/docs/queues');
    const href = /href="(\/docs\/_kit\/css\/[0-9a-f]{12}\/brand\.css)"/.exec(text)?.[1];
    expect(href).toBeDefined();
    const css = await app.request(href!);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await css.text()).toContain('rebeccapurple');
    expect((await app.request('/docs/_kit/css/000000000000/kit.json')).status).toBe(404);
  });

  it('serves the reader script and stylesheet under content-hashed names', async () => {
    const { text } = await get('/docs/queues');
    const script = /src="(\/docs\/_kit\/reader\.[^"]+\.js)"/.exec(text)?.[1];
    expect(script).toBeDefined();
    const response = await app.request(script!);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toContain('immutable');
  });
});

describe('feedback', () => {
  it('fires FeedbackSubmitted from the widget endpoint and stores nothing', async () => {
    const seen = recordEvents(kit, 'FeedbackSubmitted');
    const response = await app.request('/docs/_kit/feedback', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ path: 'queues', helpful: false, comment: 'Explain backoff.' }),
    });
    expect(response.status).toBe(200);
    expect(seen).toEqual([
      expect.objectContaining({
        set: 'docs',
        path: 'queues',
        helpful: false,
        comment: 'Explain backoff.',
        source: 'widget',
      }),
    ]);
  });

  it('refuses a comment over 2000 characters and malformed bodies with a message', async () => {
    const long = await app.request('/docs/_kit/feedback', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ path: 'queues', helpful: true, comment: 'x'.repeat(2001) }),
    });
    expect(long.status).toBe(400);
    expect((await long.json()).message).toContain('2000');
    const broken = await app.request('/docs/_kit/feedback', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{nope',
    });
    expect(broken.status).toBe(400);
  });

  it('limits feedback per reader with 429 and Retry-After', async () => {
    const limited = createKitApp({ kit: fixtureKit({ feedback: { rate_limit: '2,1' } }) });
    const send = () =>
      limited.request('/docs/_kit/feedback', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '198.51.100.7' },
        body: JSON.stringify({ path: 'queues', helpful: true }),
      });
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(200);
    const third = await send();
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('search route', () => {
  it('answers the search result shape of the specification', async () => {
    const response = await app.request('/docs/_kit/search?q=retry%20backoff&limit=3');
    const body = await response.json();
    expect(body).toMatchObject({ set: 'docs', version: '3.x', query: 'retry backoff' });
    expect(body.results[0]).toMatchObject({ title: 'Queues', path: 'queues' });
    for (const key of ['title', 'path', 'url', 'markdown_url', 'heading', 'snippet', 'description', 'score']) {
      expect(body.results[0]).toHaveProperty(key);
    }
  });

  it('refuses a limit outside 1 to 20 with a message', async () => {
    const response = await app.request('/docs/_kit/search?q=queues&limit=50');
    expect(response.status).toBe(400);
    expect((await response.json()).message).toContain('1 to 20');
  });

  it('serves the client index of the default version for the browser', async () => {
    const response = await app.request('/docs/_kit/search-index/3.x/en.json');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('queues');
    expect((await app.request('/docs/_kit/search-index/4.x/en.json')).status).toBe(404);
  });
});

describe('page files with spaces in their names', () => {
  it('lists them in navigation and links every address of them encoded once', async () => {
    const root = mkdtempSync(join(tmpdir(), 'kit-http-spaces-'));
    mkdirSync(join(root, 'docs/guides'), { recursive: true });
    writeFileSync(join(root, 'docs/kit.json'), JSON.stringify({ name: 'Spaces' }));
    writeFileSync(
      join(root, 'docs/navigation.json'),
      JSON.stringify({
        groups: [
          { label: 'Start', pages: ['index', 'getting started', { path: 'guides/first steps', title: 'First' }] },
        ],
      }),
    );
    writeFileSync(join(root, 'docs/index.md'), '# Home\n\nRead [the start](getting%20started.md) first.\n');
    writeFileSync(join(root, 'docs/getting started.md'), '# Getting started\n\nInstall it.\n');
    writeFileSync(join(root, 'docs/guides/first steps.md'), '# First steps\n\nSee [home](<../index.md>).\n');
    try {
      const kit = fixtureKit({ sets: { docs: { route: { prefix: 'docs' }, source: { path: 'docs' } } } }, { root });
      const spaced = createKitApp({ kit, cacheDir: null });
      expect(await kit.sets.get('docs')!.problems()).toEqual([]);

      const home = await (await spaced.request('http://localhost/docs')).text();
      expect(home).toContain('href="/docs/getting%20started"');
      expect(home).toContain('href="/docs/guides/first%20steps"');
      // The sidebar lists both pages, and the page's own Markdown link is encoded once, not twice.
      expect(home).not.toContain('%2520');

      const page = await spaced.request('http://localhost/docs/getting%20started');
      expect(page.status).toBe(200);
      expect(page.headers.get('link')).toContain('</docs/getting%20started.md>; rel="alternate"');
      const html = await page.text();
      expect(html).toContain('<link rel="alternate" type="text/markdown" href="/docs/getting%20started.md">');
      expect(html).toContain('<link rel="canonical" href="http://localhost/docs/getting%20started">');

      const twin = await spaced.request('http://localhost/docs/guides/first%20steps.md');
      expect(twin.status).toBe(200);
      expect(await twin.text()).toContain('# First steps');

      const llms = await (await spaced.request('http://localhost/docs/llms.txt')).text();
      expect(llms).toContain('(http://localhost/docs/getting%20started.md)');
      expect(llms).toContain('(http://localhost/docs/guides/first%20steps.md)');
      const sitemap = await (await spaced.request('http://localhost/docs/sitemap.xml')).text();
      expect(sitemap).toContain('<loc>http://localhost/docs/getting%20started</loc>');
      expect(sitemap).toContain('<loc>http://localhost/docs/guides/first%20steps</loc>');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('access modes and middleware', () => {
  it('with access.mode auth, asks guests to sign in and shows signed-in readers the set', async () => {
    const authApp = createKitApp({
      kit: fixtureKit({
        sets: { docs: { route: { prefix: 'docs' }, source: { path: 'docs' }, access: { mode: 'auth' } } },
      }),
    });
    for (const path of ['/docs/queues', '/docs', '/docs/no-such-page']) {
      const guest = await authApp.request(path, { headers: { Accept: 'text/html,*/*;q=0.8' } });
      expect(guest.status).toBe(401);
      expect(guest.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(guest.headers.get('cache-control')).toBe('private, no-cache');
      expect(guest.headers.get('www-authenticate')).toBe('Bearer realm="kit"');
      const html = await guest.text();
      expect(html).toContain('Sign in required');
      expect(html).toContain('sign_in_required');
      for (const secret of ['Acme', 'Queues', 'Installation', 'version.not_found']) expect(html).not.toContain(secret);
    }
    const agent = await authApp.request('/docs/queues.md');
    expect(agent.status).toBe(401);
    expect(agent.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await agent.text()).toContain('# Sign in required');
    const signedIn = await authApp.request('/docs/queues', { headers: { Authorization: 'Bearer reader' } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get('cache-control')).toContain('private');
    const missing = await authApp.request('/docs/no-such-page', { headers: { Authorization: 'Bearer reader' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('with access.mode gate, answers a refused reader with the HTML 404 page and no navigation', async () => {
    const gateApp = createKitApp({
      kit: fixtureKit({
        sets: { docs: { route: { prefix: 'docs' }, source: { path: 'docs' }, access: { mode: 'gate' } } },
      }),
    });
    const callers: Array<Record<string, string>> = [{}, { Authorization: 'Bearer reader' }];
    for (const headers of callers) {
      const refused = await gateApp.request('/docs/queues', { headers: { ...headers, Accept: 'text/html' } });
      expect(refused.status).toBe(404);
      expect(refused.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(refused.headers.get('cache-control')).toBe('private, no-cache');
      const html = await refused.text();
      expect(html).toContain('/docs/queues');
      for (const secret of ['Installation', 'Getting Started', '2.x', 'version.not_found']) {
        expect(html).not.toContain(secret);
      }
    }
    expect((await gateApp.request('/docs/queues', { headers: staff })).status).toBe(200);
  });

  it('runs route.middleware by name and refuses an unknown name at start-up', async () => {
    const guarded = createKitApp({
      kit: fixtureKit({
        sets: { docs: { route: { prefix: 'docs', middleware: ['web', 'auth'] }, source: { path: 'docs' } } },
      }),
    });
    expect((await guarded.request('/docs/queues')).status).toBe(401);
    expect((await guarded.request('/docs/queues', { headers: { Authorization: 'Bearer reader' } })).status).toBe(200);
    expect(() =>
      createKitApp({
        kit: fixtureKit({
          sets: { docs: { route: { prefix: 'docs', middleware: ['session'] }, source: { path: 'docs' } } },
        }),
      }),
    ).toThrowError(/middleware `session`.*not registered/);
  });

  it('answers a browser refused by the auth middleware with the sign-in page of the auth access mode', async () => {
    const guarded = createKitApp({
      kit: fixtureKit({
        sets: { docs: { route: { prefix: 'docs', middleware: ['web', 'auth'] }, source: { path: 'docs' } } },
      }),
    });
    const authMode = createKitApp({
      kit: fixtureKit({
        sets: { docs: { route: { prefix: 'docs' }, source: { path: 'docs' }, access: { mode: 'auth' } } },
      }),
    });
    const browser = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
    const refused = await guarded.request('/docs/queues', { headers: browser });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(refused.headers.get('cache-control')).toBe('private, no-cache');
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="kit"');
    expect(refused.headers.get('vary')).toContain('Accept');
    const html = await refused.text();
    expect(html).toContain('<h1>Sign in required</h1>');
    expect(html).toContain('<code>/docs/queues</code>');
    for (const secret of ['Acme', 'Queues', 'Installation', 'unauthenticated']) expect(html).not.toContain(secret);
    // The very page the access mode shows, styled by the reader stylesheet a guest may load.
    expect(html).toBe(await (await authMode.request('/docs/queues', { headers: browser })).text());
    const stylesheet = /<link rel="stylesheet" href="([^"]+)">/.exec(html)![1]!;
    expect((await guarded.request(stylesheet)).status).toBe(200);
    const signedIn = await guarded.request('/docs/queues', { headers: { ...browser, Authorization: 'Bearer reader' } });
    expect(signedIn.status).toBe(200);
  });

  it('answers agents and API clients refused by the auth middleware with JSON and the bearer challenge', async () => {
    const guarded = createKitApp({
      kit: fixtureKit({
        sets: {
          docs: {
            route: { prefix: 'docs', middleware: ['web', 'auth'] },
            source: { path: 'docs' },
            mcp: { web: { middleware: ['auth'] } },
          },
        },
      }),
    });
    const requests: Array<[string, Record<string, string>]> = [
      ['/docs/queues', {}],
      ['/docs/queues', { Accept: 'application/json' }],
      ['/docs/queues', { Accept: 'text/markdown' }],
      ['/docs/queues', { Accept: '*/*' }],
      ['/docs/queues.md', { Accept: 'text/html' }],
      ['/docs/llms.txt', { Accept: 'text/plain' }],
      ['/docs/_kit/search?q=queue', { Accept: 'application/json' }],
    ];
    for (const [path, headers] of requests) {
      const refused = await guarded.request(path, { headers });
      expect(refused.status, `${path} ${JSON.stringify(headers)}`).toBe(401);
      expect(refused.headers.get('content-type')).toContain('application/json');
      expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="kit"');
      expect(await refused.json()).toMatchObject({ error: 'unauthenticated' });
    }
    // A browser opening the search or feedback API itself still gets the API's JSON answer.
    const browser = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
    for (const [path, method] of [
      ['/docs/_kit/search?q=queue', 'GET'],
      ['/docs/_kit/search-index/current/en.json', 'GET'],
      ['/docs/_kit/feedback', 'POST'],
    ] as const) {
      const refused = await guarded.request(path, { method, headers: browser });
      expect(refused.status, path).toBe(401);
      expect(refused.headers.get('content-type'), path).toContain('application/json');
    }
    // The MCP endpoint answers as MCP does, whatever Accept a caller sends.
    const mcp = await guarded.request('/docs/mcp', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/html, application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get('www-authenticate')).toBe('Bearer realm="kit"');
    expect(await mcp.json()).toMatchObject({ jsonrpc: '2.0' });
  });

  it('serves a set bound to route.domain on that domain only', async () => {
    const bound = createKitApp({
      kit: fixtureKit({
        sets: { docs: { route: { prefix: 'docs', domain: 'docs.example.com' }, source: { path: 'docs' } } },
      }),
    });
    expect((await bound.request('http://docs.example.com/docs/queues')).status).toBe(200);
    expect((await bound.request('http://other.example.com/docs/queues')).status).toBe(404);
  });
});

describe('/.well-known/agent-skills/index.json', () => {
  type Index = { skills: Array<{ name: string; url: string }> };
  const urls = async (response: Response) => ((await response.json()) as Index).skills.map((skill) => skill.url);

  it('lists only the sets served on the request host, each at a URL that answers there', async () => {
    const bound = createKitApp({
      kit: fixtureKit({
        sets: {
          docs: { route: { prefix: 'docs', domain: 'docs.example.com' }, source: { path: 'docs' } },
          api: { route: { prefix: '' }, source: { path: 'api' }, search: { driver: 'server' } },
        },
      }),
    });
    const elsewhere = await urls(await bound.request('http://other.example.com/.well-known/agent-skills/index.json'));
    expect(elsewhere).toEqual(['http://other.example.com/skill.md']);
    const home = await urls(await bound.request('http://docs.example.com/.well-known/agent-skills/index.json'));
    expect(home).toContain('http://docs.example.com/docs/skill.md');
    for (const url of [...elsewhere, ...home]) expect((await bound.request(url)).status).toBe(200);
  });

  it('leaves out a set whose route middleware refuses the caller, and keeps the index out of shared caches', async () => {
    const guarded = createKitApp({
      kit: fixtureKit({
        sets: {
          docs: { route: { prefix: 'docs', middleware: ['web', 'auth'] }, source: { path: 'docs' } },
          api: { route: { prefix: '' }, source: { path: 'api' }, search: { driver: 'server' } },
        },
      }),
    });
    const guest = await guarded.request('http://localhost/.well-known/agent-skills/index.json');
    expect(guest.headers.get('cache-control')).toBe('private, no-cache');
    expect(guest.headers.get('etag')).toBeNull();
    expect(await urls(guest)).toEqual(['http://localhost/skill.md']);
    expect((await guarded.request('http://localhost/docs/skill.md')).status).toBe(401);
    const reader = await guarded.request('http://localhost/.well-known/agent-skills/index.json', {
      headers: { Authorization: 'Bearer reader' },
    });
    expect(await urls(reader)).toContain('http://localhost/docs/skill.md');
  });

  it('lists only the sets the app serves, and stays public for guests of public sets', async () => {
    const apiOnly = createKitApp({ kit: fixtureKit(), sets: ['api'] });
    const response = await apiOnly.request('http://localhost/.well-known/agent-skills/index.json');
    expect(response.headers.get('cache-control')).toContain('public');
    expect(response.headers.get('etag')).not.toBeNull();
    expect(await urls(response)).toEqual(['http://localhost/skill.md']);
  });
});

describe('MCP endpoint', () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  };
  const post = (target: ReturnType<typeof createKitApp>, headers: Record<string, string> = {}) =>
    target.request('http://localhost/docs/mcp', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'X-Forwarded-For': '192.0.2.1',
        ...headers,
      },
      body: JSON.stringify(initialize),
    });

  it('answers MCP at /{prefix}/mcp and limits each caller with 429 and Retry-After', async () => {
    // Callers told apart by X-Forwarded-For: app.request has no socket, so the header is trusted on purpose.
    const limited = createKitApp({
      kit: fixtureKit({ mcp: { web: { rate_limit: '2,1' } }, http: { trusted_proxies: true } }),
    });
    expect((await post(limited)).status).toBe(200);
    expect((await post(limited)).status).toBe(200);
    const refused = await post(limited);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another caller has its own count.
    expect((await post(limited, { 'X-Forwarded-For': '192.0.2.2' })).status).toBe(200);
  });

  it('refuses a foreign Origin', async () => {
    const response = await post(app, { Origin: 'https://evil.example' });
    expect(response.status).toBe(403);
  });

  it('shows a page that lives at the endpoint path to a browser, and keeps the endpoint for MCP', async () => {
    const root = mkdtempSync(join(tmpdir(), 'kit-http-mcp-page-'));
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'docs/index.md'), '# Home\n');
    writeFileSync(join(root, 'docs/mcp.md'), '# Model Context Protocol\n\nConnect agents.\n');
    try {
      const withPage = createKitApp({
        kit: fixtureKit({ sets: { docs: { route: { prefix: 'docs' }, source: { path: 'docs' } } } }, { root }),
        cacheDir: null,
      });
      const page = await withPage.request('http://localhost/docs/mcp', { headers: { Accept: 'text/html' } });
      expect(page.status).toBe(200);
      const stream = await withPage.request('http://localhost/docs/mcp', { headers: { Accept: 'text/event-stream' } });
      expect(stream.status).toBe(405);
      expect(stream.headers.get('allow')).toBe('POST');
      expect(await page.text()).toContain('Connect agents.');
      expect((await post(withPage)).status).toBe(200);
      const twin = await withPage.request('http://localhost/docs/mcp.md');
      expect(await twin.text()).toContain('Connect agents.');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
    const noPage = await app.request('http://localhost/docs/mcp');
    expect(noPage.status).toBe(405);
  });

  it('is off when mcp.web.enabled is false, and says so as a JSON-RPC error', async () => {
    const off = createKitApp({ kit: fixtureKit({ mcp: { web: { enabled: false } } }) });
    const response = await post(off);
    expect(response.status).toBe(404);
    const body = (await response.json()) as { jsonrpc: string; error: { message: string } };
    expect(body.jsonrpc).toBe('2.0');
    expect(body.error.message).toContain('mcp.web.enabled');
  });

  it('turns a refusal of mcp.web.middleware into a JSON-RPC error with the bearer challenge', async () => {
    const guarded = createKitApp({
      kit: fixtureKit({
        sets: {
          docs: { route: { prefix: 'docs' }, source: { path: 'docs' }, mcp: { web: { middleware: ['auth:token'] } } },
        },
      }),
    });
    const refused = await post(guarded);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('WWW-Authenticate')).toBe('Bearer realm="kit"');
    const body = (await refused.json()) as { jsonrpc: string; error: { code: number; message: string } };
    expect(body).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    expect(body.error.message).toContain('credentials');
    expect((await post(guarded, { Authorization: 'Bearer reader' })).status).toBe(200);
  });
});

describe('prefersMarkdown', () => {
  it('reads q-values and prefers HTML when both are equally wanted and HTML comes from a browser', () => {
    expect(prefersMarkdown('text/markdown')).toBe(true);
    expect(prefersMarkdown('text/markdown, text/html;q=0.9')).toBe(true);
    expect(prefersMarkdown('text/html, text/markdown;q=0.5')).toBe(false);
    expect(prefersMarkdown('text/html,application/xhtml+xml,*/*;q=0.8')).toBe(false);
    expect(prefersMarkdown(undefined)).toBe(false);
  });
});
