import { randomUUID } from 'node:crypto';
import { createServer, type Server, Socket } from 'node:net';
import {
  type CacheStore,
  createDocSet,
  type PageRenderer,
  type ResolvedSetConfig,
  type RuntimeDocSet,
  resolveConfig,
} from '@kit/core';
import { closedPort } from '@kit/core/testing';
import { createNodeRenderer } from '@kit/render/node';
import { createServerSearch } from '@kit/search';
import { createDbSource, deletePage, type KitDatabase, openDatabase, writeManifest, writePage } from '@kit/source-db';
import { freshSetKey, runInChildProcess, testDatabases } from '@kit/source-db/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCacheStore } from './create-cache-store.js';
import { createRedisCacheStore } from './redis-cache-store.js';

// CI sets KIT_TEST_REDIS_URL when Redis answers on 127.0.0.1:6379, as it does for the other Redis tests.
const redisUrl = process.env.KIT_TEST_REDIS_URL;
// This run's own key prefix, so its entries are fresh and removing them touches no one else's keys.
const prefix = `kit:test:cache:${randomUUID()}:`;

async function removeKeys(url: string, pattern: string): Promise<void> {
  const redis = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** A TCP relay in front of Redis that a test can cut and restore, to stage an outage. */
async function relay(target: string) {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let listenPort = 0;
  const start = async () => {
    server = createServer((client) => {
      const upstream = new Socket();
      upstream.connect(Number(port || 6379), hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server!.listen(listenPort, '127.0.0.1', resolve));
    listenPort = (server!.address() as { port: number }).port;
  };
  await start();
  return {
    url: () => `redis://127.0.0.1:${listenPort}`,
    async cut() {
      await new Promise<void>((resolve) => {
        server!.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
    restore: start,
  };
}

describe('a redis cache store that cannot reach Redis', () => {
  it('answers every read with a miss at once, drops writes, and warns once', async () => {
    const warnings: string[] = [];
    const store = createRedisCacheStore({
      url: `redis://:secret@127.0.0.1:${await closedPort()}`,
      warn: (message) => warnings.push(message),
    });
    try {
      const started = performance.now();
      for (let i = 0; i < 5; i++) {
        await store.set(`k${i}`, { i });
        expect(await store.get(`k${i}`)).toBeUndefined();
        await store.delete(`k${i}`);
      }
      expect(performance.now() - started).toBeLessThan(3000);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/Redis cache store .* is unavailable .*reading from the database/);
      // The password never reaches a log.
      expect(warnings[0]).not.toContain('secret');
    } finally {
      await store.close?.();
    }
  });
});

describe('a redis cache store in a process of its own', () => {
  it('lets the process exit as soon as it is closed, also while Redis cannot be reached', async () => {
    const port = await closedPort();
    const script = `
      const { createRedisCacheStore } = await import(${JSON.stringify(new URL('./redis-cache-store.ts', import.meta.url).pathname)});
      const store = createRedisCacheStore({ url: 'redis://127.0.0.1:${port}', warn: () => {} });
      const started = performance.now();
      await store.get('k');
      const firstMiss = performance.now() - started;
      await store.close();
      const closed = performance.now();
      process.on('exit', () => console.log(JSON.stringify({ firstMiss, lingered: performance.now() - closed })));`;
    const { firstMiss, lingered } = (await runInChildProcess(script)) as { firstMiss: number; lingered: number };
    // A refused connection is a miss without waiting for ioredis's connect timeout (10 s by
    // default); once closed, nothing of the client keeps the process alive for ioredis's 2 s
    // disconnect wait. The bounds sit between those waits and what a loaded machine adds.
    expect(firstMiss).toBeLessThan(5_000);
    expect(lingered).toBeLessThan(1_900);
  }, 180_000);
});

describe('createCacheStore', () => {
  it('builds the store each driver names', async () => {
    const memory = createCacheStore({ driver: 'memory', max_entries: 1 });
    await memory.set('a', 1);
    await memory.set('b', 2);
    expect(await memory.get('a')).toBeUndefined();
    expect(await memory.get('b')).toBe(2);

    const array = createCacheStore({ driver: 'array' });
    for (let i = 0; i < 1500; i++) await array.set(`k${i}`, i);
    expect(await array.get('k0')).toBe(0);

    const none = createCacheStore({ driver: 'null' });
    await none.set('a', 1);
    expect(await none.get('a')).toBeUndefined();
  });

  it('refuses a redis store without a url, naming the key and an example', () => {
    expect(() => createCacheStore({ driver: 'redis' }, { name: 'shared' })).toThrowErrorMatchingInlineSnapshot(
      `[KitError: stores.shared uses the redis driver and needs \`url\`, such as 'redis://127.0.0.1:6379'.]`,
    );
  });
});

describe.skipIf(!redisUrl)('the redis cache store on a real Redis (KIT_TEST_REDIS_URL)', () => {
  const stores: CacheStore[] = [];
  const open = (options: { url?: string; keyPrefix?: string; ttlSeconds?: number } = {}) => {
    const store = createRedisCacheStore({ url: redisUrl!, keyPrefix: prefix, ...options });
    stores.push(store);
    return store;
  };
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close?.()));
    await removeKeys(redisUrl!, `${prefix}*`);
  });

  it('keeps strings and JSON values under its prefix, with a time to live, and deletes them', async () => {
    const store = open({ ttlSeconds: 120 });
    await store.set('text', 'hello');
    await store.set('json', { pages: [{ path: 'routing', title: 'Routing' }], count: 1 });
    await store.set('nothing', null);
    await store.set('short', 'soon gone', { ttlSeconds: 5 });
    expect(await store.get('text')).toBe('hello');
    expect(await store.get('json')).toEqual({ pages: [{ path: 'routing', title: 'Routing' }], count: 1 });
    expect(await store.get('nothing')).toBeNull();
    expect(await store.get('missing')).toBeUndefined();

    const raw = new Redis(redisUrl!);
    try {
      expect(await raw.get(`${prefix}text`)).toBe('"hello"');
      const ttl = await raw.ttl(`${prefix}json`);
      expect(ttl).toBeGreaterThan(100);
      expect(ttl).toBeLessThanOrEqual(120);
      expect(await raw.ttl(`${prefix}short`)).toBeLessThanOrEqual(5);
      // Something another program wrote under the key is a miss, not an error.
      await raw.set(`${prefix}garbage`, '{not json', 'EX', 60);
    } finally {
      raw.disconnect();
    }
    expect(await store.get('garbage')).toBeUndefined();
    await store.delete('text');
    expect(await store.get('text')).toBeUndefined();
  });

  it('shares entries between two connections, as between two server processes', async () => {
    const first = open();
    const second = open();
    await first.set('shared', { from: 'first' });
    expect(await second.get('shared')).toEqual({ from: 'first' });
  });

  it('reads through a Redis outage as misses, warns once, and uses Redis again once it is back', async () => {
    const line = await relay(redisUrl!);
    const warnings: string[] = [];
    const store = createRedisCacheStore({ url: line.url(), keyPrefix: prefix, warn: (m) => warnings.push(m) });
    stores.push(store);
    await store.set('outage', 'before');
    expect(await store.get('outage')).toBe('before');

    await line.cut();
    const started = performance.now();
    for (let i = 0; i < 3; i++) expect(await store.get('outage')).toBeUndefined();
    await store.set('outage', 'during');
    expect(performance.now() - started).toBeLessThan(3000);
    expect(warnings).toHaveLength(1);

    await line.restore();
    await expect.poll(() => store.get('outage'), { timeout: 10_000, interval: 200 }).toBe('before');
    await line.cut();
  });
});

/** A renderer that counts its calls, one per doc set, as each server process of one release has its own. */
function countingRenderer(): PageRenderer & { calls: string[] } {
  const inner = createNodeRenderer();
  const calls: string[] = [];
  return {
    calls,
    fingerprint: () => inner.fingerprint(),
    render(page, context) {
      calls.push(`${page.path}:${context.highlight === false ? 'agent' : 'html'}`);
      return inner.render(page, context);
    },
  };
}

/** A store that records the keys it answered, so a test can tell what came from the cache. */
function recording(store: CacheStore): CacheStore & { hits: string[] } {
  const hits: string[] = [];
  return {
    hits,
    async get<T>(key: string) {
      const value = await store.get<T>(key);
      if (value !== undefined) hits.push(key);
      return value;
    },
    set: (key, value, options) => store.set(key, value, options),
    delete: (key) => store.delete(key),
    close: () => store.close?.() ?? Promise.resolve(),
  };
}

interface Process {
  db: KitDatabase;
  set: RuntimeDocSet;
  renderer: ReturnType<typeof countingRenderer>;
  store: ReturnType<typeof recording>;
}

function sharedCacheSuite(name: string, open: () => Promise<[KitDatabase, KitDatabase]>, cleanup: () => Promise<void>) {
  describe.skipIf(!redisUrl)(name, () => {
    const setKey = freshSetKey('shared');
    let first: Process;
    let second: Process;
    const guest = { user: null };
    const admin = { user: { role: 'admin' } };

    const processOn = (db: KitDatabase, config: ResolvedSetConfig): Process => {
      const store = recording(createCacheStore({ driver: 'redis', url: redisUrl! }, { keyPrefix: prefix }));
      const renderer = countingRenderer();
      const set = createDocSet({
        key: setKey,
        config,
        source: createDbSource({ db, setKey, cache: store, pollInterval: 60_000 }),
        renderer,
        search: createServerSearch(),
        gates: { viewKit: (user) => (user as { role?: string } | null)?.role === 'admin' },
        cache: store,
      });
      return { db, set, renderer, store };
    };

    beforeAll(async () => {
      const [a, b] = await open();
      const config = resolveConfig(
        {
          sets: { [setKey]: { route: { prefix: 'docs' }, source: { driver: 'database', cache: 'shared' } } },
          stores: { shared: { driver: 'redis', url: redisUrl! } },
        },
        { env: { VITEST: 'true' }, root: '/tmp' },
      ).sets[setKey]!;
      const page = (path: string, body: string, frontmatter: Record<string, unknown> = {}) =>
        writePage(a, setKey, { version: 'current', locale: 'en', path, frontmatter, body });
      await page('index', '# Home\n\nWelcome to the shared docs.\n');
      await page('routing', '# Routing\n\n## Route groups\n\nGroups share middleware.\n');
      await page('secrets', '# Secrets\n\nThe vault combination is quartzite.\n', { visibility: 'private' });
      first = processOn(a, config);
      second = processOn(b, config);
    });
    afterAll(async () => {
      await Promise.all([first?.set.close(), second?.set.close()]);
      await Promise.all([first?.store.close?.(), second?.store.close?.()]);
      await cleanup();
    });

    it('serves a page rendered by one process from the shared cache in the other, without rendering it again', async () => {
      const one = await first.set.readPage({ path: 'routing' }, guest);
      expect(first.renderer.calls).toContain('routing:agent');
      const two = await second.set.readPage({ path: 'routing' }, guest);
      expect(two.text).toBe(one.text);
      expect(second.renderer.calls).toEqual([]);
      expect(second.store.hits.some((key) => key.startsWith(`v1:render:${setKey}:`))).toBe(true);
    });

    it('shares page lists and search sections, so the second process builds its index rendering nothing', async () => {
      const found = await first.set.search({ query: 'middleware' }, guest, 'mcp');
      expect(found.results.map((hit) => hit.path)).toContain('routing');
      const rendered = second.renderer.calls.length;
      const again = await second.set.search({ query: 'middleware' }, guest, 'mcp');
      expect(again.results).toEqual(found.results);
      expect(second.renderer.calls.length).toBe(rendered);
      expect(second.store.hits.some((key) => key.startsWith(`v1:pages:${setKey}:current:en:`))).toBe(true);
      expect(second.store.hits.some((key) => key.startsWith(`v1:search:${setKey}:current:en:public:`))).toBe(true);
    });

    it('reads a page written through one process fresh in the other at once, with no change notice', async () => {
      // Warm everything the second process keeps, then change the content through the first.
      await second.set.readPage({ path: 'routing' }, guest);
      await second.set.listPages({}, guest);
      await second.set.search({ query: 'middleware' }, guest, 'mcp');
      await writePage(first.db, setKey, {
        version: 'current',
        locale: 'en',
        path: 'routing',
        body: '# Routing\n\n## Route groups\n\nGroups share a prefix called zeppelin.\n',
      });
      await writePage(first.db, setKey, {
        version: 'current',
        locale: 'en',
        path: 'queues',
        body: '# Queues\n\nJobs run later.\n',
      });
      const page = await second.set.readPage({ path: 'routing' }, guest);
      expect(page.text).toContain('zeppelin');
      expect(page.text).not.toContain('middleware');
      const listed = await second.set.listPages({}, guest);
      expect(listed.groups.flatMap((group) => group.pages.map((entry) => entry.path))).toContain('queues');
      const navigation = await second.set.navigation({}, guest);
      expect(JSON.stringify(navigation.file)).toContain('queues');
      const hits = await second.set.search({ query: 'zeppelin' }, guest, 'mcp');
      expect(hits.results.map((hit) => hit.path)).toEqual(['routing']);
      expect((await second.set.search({ query: 'middleware' }, guest, 'mcp')).results).toEqual([]);
    });

    it('drops a page deleted through one process, and follows a manifest it changed, in the other at once', async () => {
      expect((await second.set.search({ query: 'jobs later' }, guest, 'mcp')).results.map((hit) => hit.path)).toEqual([
        'queues',
      ]);
      const before = await second.set.search({ query: 'zeppelin' }, guest, 'mcp');
      expect(before.results.map((hit) => hit.url)).toEqual(['/docs/routing#route-groups']);
      // `routing` becomes the landing page: its URL is the set's root from now on.
      await writeManifest(first.db, setKey, { manifest: { name: 'Shared', landing: 'routing' } });
      const after = await second.set.search({ query: 'zeppelin' }, guest, 'mcp');
      expect(after.results.map((hit) => hit.url)).toEqual(['/docs#route-groups']);
      expect((await second.set.readPage({ path: 'routing' }, guest)).meta.url).toBe('/docs');

      await deletePage(first.db, setKey, { version: 'current', locale: 'en', path: 'queues' });
      await expect(second.set.readPage({ path: 'queues' }, guest)).rejects.toMatchObject({ code: 'page.not_found' });
      expect((await second.set.search({ query: 'jobs later' }, guest, 'mcp')).results).toEqual([]);
    });

    it('never serves a private page another process cached to a viewer who may not see it', async () => {
      const secret = await first.set.readPage({ path: 'secrets' }, admin);
      expect(secret.text).toContain('quartzite');
      expect((await first.set.search({ query: 'quartzite' }, admin, 'mcp')).results.map((hit) => hit.path)).toEqual([
        'secrets',
      ]);
      await expect(second.set.readPage({ path: 'secrets' }, guest)).rejects.toMatchObject({ code: 'page.not_found' });
      expect((await second.set.search({ query: 'quartzite' }, guest, 'mcp')).results).toEqual([]);
      const listed = await second.set.listPages({}, guest);
      expect(JSON.stringify(listed)).not.toContain('secrets');
      // The admin of the second process is served the cached render.
      const calls = second.renderer.calls.length;
      expect((await second.set.readPage({ path: 'secrets' }, admin)).text).toContain('quartzite');
      expect(second.renderer.calls.length).toBe(calls);
    });
  });
}

const databases = testDatabases();
afterAll(async () => {
  await databases.dispose();
  if (redisUrl) await removeKeys(redisUrl, `${prefix}*`);
});

sharedCacheSuite(
  'two doc sets over one PGlite database sharing one Redis store',
  async () => {
    const db = await databases.pglite();
    return [db, db];
  },
  async () => {},
);

describe.skipIf(!databases.url)('on PostgreSQL (KIT_TEST_DATABASE_URL)', () => {
  const extra: KitDatabase[] = [];
  sharedCacheSuite(
    'two doc sets over two connections to one PostgreSQL sharing one Redis store',
    async () => {
      const a = await databases.postgres();
      // A second pool on the same schema, as a second server process would open.
      const b = await openDatabase({ url: databases.url!, schema: databases.schema });
      extra.push(b);
      return [a, b];
    },
    async () => {
      await Promise.all(extra.map((db) => db.close()));
    },
  );
});
