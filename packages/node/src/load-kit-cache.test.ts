import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { resolveConfig } from '@kit/core';
import { closedPort } from '@kit/core/testing';
import { openDatabase, writePage } from '@kit/source-db';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { tempProject } from './__fixtures__/project.js';
import { loadKit } from './load-kit.js';

// CI sets KIT_TEST_REDIS_URL when Redis answers on 127.0.0.1:6379, as it does for the other Redis tests.
const redisUrl = process.env.KIT_TEST_REDIS_URL;

describe('loadKit and the cache store of a database set', () => {
  // A set key of this run's own: every cache key names it, so the test removes only its own entries.
  const setKey = `cache${randomBytes(4).toString('hex')}`;
  let project: Awaited<ReturnType<typeof tempProject>>;

  const configWith = (url: string) =>
    resolveConfig(
      {
        sets: { [setKey]: { route: { prefix: 'docs' }, source: { driver: 'database' } } },
        stores: { shared: { driver: 'redis', url } },
        cache: { store: 'shared' },
      },
      { env: { VITEST: 'true' }, root: project.dir },
    );

  beforeAll(async () => {
    project = await tempProject('kit-cache-');
    const db = await openDatabase({ dataDir: join(project.dir, '.kit', 'db') });
    try {
      await writePage(db, setKey, { version: 'current', locale: 'en', path: 'index', body: '# Home\n\nHello.\n' });
    } finally {
      await db.close();
    }
  }, 180_000);
  afterEach(() => vi.restoreAllMocks());
  afterAll(async () => {
    await project.cleanup();
    if (!redisUrl) return;
    const redis = new Redis(redisUrl);
    try {
      const keys = await redis.keys(`kit:cache:v1:*:${setKey}:*`);
      if (keys.length > 0) await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
  });

  it('serves pages with the named Redis store down, warning once that it reads the database', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const kit = await loadKit({ config: configWith(`redis://127.0.0.1:${await closedPort()}`) });
    try {
      const first = await kit.set(setKey).readPage({ path: 'index' }, { user: null });
      const again = await kit.set(setKey).readPage({ path: 'index' }, { user: null });
      expect(first.text).toContain('Hello.');
      expect(again.text).toBe(first.text);
      const warnings = warn.mock.calls.map((call) => String(call[0]));
      expect(warnings.filter((message) => message.includes('Redis cache store'))).toHaveLength(1);
    } finally {
      await kit.close();
    }
  });

  it.skipIf(!redisUrl)(
    'reads through the store `cache.store` names, so a restarted server renders nothing another left there (KIT_TEST_REDIS_URL)',
    async () => {
      const first = await loadKit({ config: configWith(redisUrl!) });
      let text: string;
      try {
        text = (await first.set(setKey).readPage({ path: 'index' }, { user: null })).text;
      } finally {
        await first.close();
      }
      const second = await loadKit({ config: configWith(redisUrl!) });
      try {
        const render = vi.spyOn(second.renderer, 'render');
        expect((await second.set(setKey).readPage({ path: 'index' }, { user: null })).text).toBe(text);
        expect(render).not.toHaveBeenCalled();
      } finally {
        await second.close();
      }
    },
  );

  it.skipIf(!redisUrl)(
    'renders again in a server whose renderer differs (a new release), never serving what an older one left in Redis',
    async () => {
      const first = await loadKit({ config: configWith(redisUrl!) });
      try {
        await first.set(setKey).readPage({ path: 'index' }, { user: null });
        await first.set(setKey).search({ query: 'hello' }, { user: null }, 'mcp');
      } finally {
        await first.close();
      }
      const upgraded = await loadKit({ config: configWith(redisUrl!) });
      try {
        expect(upgraded.renderer.fingerprint).toBeTypeOf('function');
        vi.spyOn(upgraded.renderer, 'fingerprint').mockResolvedValue('a-later-release');
        const render = vi.spyOn(upgraded.renderer, 'render');
        expect((await upgraded.set(setKey).readPage({ path: 'index' }, { user: null })).text).toContain('Hello.');
        expect(render).toHaveBeenCalled();
      } finally {
        await upgraded.close();
      }
    },
  );
});
