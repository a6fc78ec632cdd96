import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createDocSet, createEvents, createKit, type Kit, resolveConfig } from '@kit/core';
import { createRenderer } from '@kit/render';
import { createServerSearch } from '@kit/search';
import { createFsSource } from '@kit/source-fs';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKitApp } from './app.js';
import { pageResponseCache } from './page-cache.js';

let root: string;
let kit: Kit;
let app: Hono;
let pageReads = 0;
let closeSource: () => Promise<void>;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'kit-page-cache-'));
  mkdirSync(join(root, 'docs'));
  writeFileSync(join(root, 'docs/kit.json'), JSON.stringify({ name: 'Cache Docs' }));
  writeFileSync(join(root, 'docs/index.md'), '---\ntitle: Home\n---\n# Home\n\nWelcome.\n');
  writeFileSync(join(root, 'docs/guide.md'), `---\ntitle: Guide\n---\n# Guide\n\n${'First edition. '.repeat(200)}\n`);
  const config = resolveConfig(
    {
      sets: { docs: { route: { prefix: 'docs' }, source: { path: 'docs' } } },
      resolveUser: (request) => (request.headers.get('authorization') === 'Bearer ada' ? { id: 'ada' } : null),
    },
    { root, env: {} },
  );
  const source = createFsSource({ root: join(root, 'docs'), setKey: 'docs', git: false, watch: true });
  await source.ready?.();
  const getPage = source.getPage.bind(source);
  source.getPage = (...args) => {
    pageReads += 1;
    return getPage(...args);
  };
  closeSource = async () => source.close?.();
  const events = createEvents();
  kit = createKit({
    config,
    events,
    sets: [
      createDocSet({
        config: config.sets.docs!,
        source,
        renderer: createRenderer(),
        search: createServerSearch(),
        events,
      }),
    ],
  });
  app = createKitApp({ kit }) as unknown as Hono;
  await app.request('/docs'); // builds the reader assets outside the tests' time
});

afterAll(async () => {
  await kit?.close();
  await closeSource?.();
  rmSync(root, { recursive: true, force: true });
});

describe('the page response cache of a watched set', () => {
  it('answers a repeat guest request from the cache with the same bytes, ETag and headers', async () => {
    const first = await app.request('/docs/guide');
    const firstBody = await first.text();
    const readsAfterFirst = pageReads;
    const second = await app.request('/docs/guide');
    expect(await second.text()).toBe(firstBody);
    expect(pageReads).toBe(readsAfterFirst);
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(second.headers.get('x-content-type-options')).toBe('nosniff');
    expect(second.headers.get('vary')).toBe('Accept, Accept-Encoding');
    expect(second.headers.get('link')).toContain('</docs/guide.md>; rel="alternate"');
    const revalidated = await app.request('/docs/guide', { headers: { 'If-None-Match': first.headers.get('etag')! } });
    expect(revalidated.status).toBe(304);
  });

  it('keeps the HTML page and the Markdown twin of a path apart', async () => {
    const html = await app.request('/docs/guide');
    const markdown = await app.request('/docs/guide', { headers: { Accept: 'text/markdown' } });
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(markdown.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await markdown.text()).toMatch(/^# Guide/m);
  });

  it('sends gzip made once, with a weak ETag that still revalidates', async () => {
    const plain = await app.request('/docs/guide');
    const plainBody = await plain.text();
    const zipped = await app.request('/docs/guide', { headers: { 'Accept-Encoding': 'gzip, deflate' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('etag')).toBe(`W/${plain.headers.get('etag')}`);
    expect(gunzipSync(Buffer.from(await zipped.arrayBuffer())).toString('utf8')).toBe(plainBody);
    const revalidated = await app.request('/docs/guide', {
      headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': zipped.headers.get('etag')! },
    });
    expect(revalidated.status).toBe(304);
    const refused = await app.request('/docs/guide', { headers: { 'Accept-Encoding': 'gzip;q=0' } });
    expect(refused.headers.get('content-encoding')).toBeNull();
  });

  it("never hands a signed-in reader the guests' kept response", async () => {
    const guest = await app.request('/docs/guide');
    expect(guest.headers.get('etag')).not.toBeNull();
    const response = await app.request('/docs/guide', { headers: { Authorization: 'Bearer ada' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-cache');
    expect(response.headers.get('etag')).toBeNull();
    expect(await response.text()).toContain('First edition.');
  });

  it('serves the new text once the page file changes', async () => {
    expect(await (await app.request('/docs/guide')).text()).toContain('First edition.');
    writeFileSync(join(root, 'docs/guide.md'), '---\ntitle: Guide\n---\n# Guide\n\nSecond edition.\n');
    await expect
      .poll(async () => (await app.request('/docs/guide')).text(), { timeout: 10_000 })
      .toContain('Second edition.');
    expect(await (await app.request('/docs/guide.md')).text()).toContain('Second edition.');
  });
});

describe('pageResponseCache', () => {
  const setOn = (source: Record<string, unknown>) => ({ source }) as unknown as Parameters<typeof pageResponseCache>[0];
  const watch = () => () => {};

  it('drops the page used longest ago when full, keeping one read since', () => {
    const cache = pageResponseCache(setOn({ kind: 'repository', watch }), 3 * 1024)!;
    const page = (text: string) => ({
      body: new TextEncoder().encode(text.repeat(1024)),
      contentType: 'text/html',
      headers: {},
    });
    cache.set('a', 0, page('a'));
    cache.set('b', 0, page('b'));
    cache.set('c', 0, page('c'));
    expect(cache.get('a')).toBeDefined();
    cache.set('d', 0, page('d'));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    expect(cache.get('d')).toBeDefined();
  });

  it('keeps responses for a watched source and none for a shared one, whose writers are other processes', () => {
    expect(pageResponseCache(setOn({ kind: 'repository', watch }))).not.toBeNull();
    expect(pageResponseCache(setOn({ kind: 'repository' }))).toBeNull();
    expect(pageResponseCache(setOn({ kind: 'database', shared: true, watch }))).toBeNull();
  });
});
