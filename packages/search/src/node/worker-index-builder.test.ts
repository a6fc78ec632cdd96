import type { SearchScope, SearchSection } from '@kit/core';
import { describe, expect, it } from 'vitest';
import { laravelSections } from '../__fixtures__/laravel-sections.js';
import { createServerSearch, type IndexBuilder } from '../drivers/server.js';
import { createWorkerIndexBuilder } from './worker-index-builder.js';

const scope: SearchScope = { set: 'docs', version: '12.x', locale: 'en', audience: 'public' };

const QUERIES = [
  'queue retry failed jobs',
  'route model binding',
  'eloquent relationships',
  'blade compnent',
  'cache tags',
];

describe('createWorkerIndexBuilder', () => {
  it('builds on a worker thread an index that answers every search exactly like one built in place', async () => {
    const sections = laravelSections();
    expect(sections.length).toBeGreaterThan(500);
    let builds = 0;
    const worker = createWorkerIndexBuilder();
    const counted: IndexBuilder = (given, ranking) => {
      builds += 1;
      return worker(given, ranking);
    };
    const onWorker = createServerSearch({ builder: counted, builderFrom: 0 });
    const inPlace = createServerSearch();
    await onWorker.index(scope, sections);
    await inPlace.index(scope, sections);
    expect(builds).toBe(1);
    for (const query of QUERIES) {
      const expected = await inPlace.search(scope, query, { limit: 8, sections: 3 });
      expect(expected.length).toBeGreaterThan(0);
      expect(await onWorker.search(scope, query, { limit: 8, sections: 3 })).toEqual(expected);
    }
  }, 120_000);

  it('builds small indexes in place, below `builderFrom` sections', async () => {
    let builds = 0;
    const search = createServerSearch({
      builder: () => {
        builds += 1;
        return Promise.reject(new Error('not expected'));
      },
      builderFrom: 10,
    });
    await search.index(scope, laravelSections().slice(0, 5));
    expect(builds).toBe(0);
    expect((await search.search(scope, laravelSections()[0]!.title, { limit: 3 })).length).toBeGreaterThan(0);
  });

  it('rejects with a sentence naming the worker when the build fails there, and the process goes on', async () => {
    const search = createServerSearch({ builder: createWorkerIndexBuilder(), builderFrom: 0 });
    const broken = [{ id: 'x#', path: 'x', title: null }] as unknown as SearchSection[];
    await expect(search.index(scope, broken)).rejects.toThrow(/search index failed on its worker thread/);
    await search.index(scope, laravelSections().slice(0, 50));
    expect((await search.search(scope, 'installation', { limit: 3 })).length).toBeGreaterThan(0);
  }, 60_000);
});
