import type { SearchHit, SearchScope } from '@kit/core';
import { describe, expect, it } from 'vitest';
import { laravelSections } from '../__fixtures__/laravel-sections.js';
import { createWorkerIndexBuilder } from '../node/worker-index-builder.js';
import type { SearchIndexCache } from './index-cache.js';
import { mergeByScore, splitIntoSegments } from './segments.js';
import { createServerSearch, type IndexBuilder } from './server.js';

const scope: SearchScope = { set: 'docs', version: '12.x', locale: 'en', audience: 'public' };

const hit = (path: string, score: number): SearchHit => ({
  title: path,
  path,
  url: `/${path}`,
  markdown_url: `/${path}.md`,
  heading: null,
  snippet: '',
  description: null,
  score,
});

describe('splitIntoSegments', () => {
  it('keeps a scope of up to segmentPages pages whole, and cuts a larger one keeping each page together', async () => {
    const sections = laravelSections();
    const pages = new Set(sections.map((section) => section.path)).size;
    expect(splitIntoSegments(sections, pages)).toEqual([sections]);
    const segments = splitIntoSegments(sections, 20);
    expect(segments.length).toBe(Math.ceil(pages / 20));
    expect(segments.flat().length).toBe(sections.length);
    for (const path of new Set(sections.map((section) => section.path))) {
      expect(segments.filter((segment) => segment.some((section) => section.path === path))).toHaveLength(1);
    }
  });

  it('leaves every other segment as it was when one page changes', async () => {
    const sections = laravelSections();
    const changed = sections.map((section) =>
      section.path === 'queues' ? { ...section, text: `${section.text} zyxchanged` } : section,
    );
    const before = splitIntoSegments(sections, 20);
    const after = splitIntoSegments(changed, 20);
    const differing = before.filter((segment, at) => JSON.stringify(segment) !== JSON.stringify(after[at]));
    expect(differing).toHaveLength(1);
  });
});

describe('mergeByScore', () => {
  it('merges by the score at each list head, keeping each list in its own order', () => {
    const merged = mergeByScore(
      [
        [hit('a', 9), hit('b', 3), hit('c', 5)],
        [hit('x', 7), hit('y', 1)],
      ],
      4,
    );
    expect(merged).toEqual([
      [0, 0],
      [1, 0],
      [0, 1],
      [0, 2],
    ]);
  });
});

describe('a server index in segments', () => {
  it('finds the right pages, and rebuilds only the changed segment when one page changes', async () => {
    const sections = laravelSections();
    let builds = 0;
    const worker = createWorkerIndexBuilder();
    const counted: IndexBuilder = (given, ranking) => {
      builds += 1;
      return worker(given, ranking);
    };
    const search = createServerSearch({ segmentPages: 20, builder: counted, builderFrom: 0, parallelBuilds: 2 });
    await search.index(scope, sections);
    const segments = splitIntoSegments(sections, 20).length;
    expect(builds).toBe(segments);
    const queues = await search.search(scope, 'retry failed queue jobs', { limit: 5 });
    expect(queues.map((entry) => entry.path)).toContain('queues');
    const hits = await search.search(scope, 'route model binding', { limit: 8 });
    expect(hits[0]!.path).toBe('routing');

    const changed = sections.map((section) =>
      section.path === 'mail' && section.heading === ''
        ? { ...section, text: `${section.text} zyxsegmentword` }
        : section,
    );
    builds = 0;
    await search.index(scope, changed);
    expect(builds).toBe(1);
    expect((await search.search(scope, 'zyxsegmentword', { limit: 3 }))[0]?.path).toBe('mail');
    expect(await search.search(scope, 'route model binding', { limit: 8 })).toEqual(hits);
  }, 120_000);

  it('keeps its segments in the index cache and answers the same after a restart', async () => {
    const sections = laravelSections();
    const kept = new Map<string, unknown>();
    const cache: SearchIndexCache = {
      read: async (_scope, key) => kept.get(key),
      write: async (_scope, key, value) => {
        kept.set(key, structuredClone(value));
      },
      reject: async (_scope, key) => {
        kept.delete(key);
      },
    };
    const first = createServerSearch({ segmentPages: 20, cache });
    await first.index(scope, sections, { key: 'laravel' });
    const restarted = createServerSearch({ segmentPages: 20, cache });
    expect(await restarted.restore!(scope, 'laravel')).toBe(true);
    for (const query of ['blade components', 'cache tags', 'eloquent relationships']) {
      expect(await restarted.search(scope, query, { limit: 8, sections: 2 })).toEqual(
        await first.search(scope, query, { limit: 8, sections: 2 }),
      );
    }
  }, 120_000);
});
