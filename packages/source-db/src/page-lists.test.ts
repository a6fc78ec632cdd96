import { createArrayCacheStore } from '@kit/core';
import { recordingCacheStore } from '@kit/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createDbSource } from './db-source.js';
import { freshSetKey, testDatabases } from './testing/fixture.js';
import { writePage } from './writes.js';

describe('a database source keeping page lists in a cache store', () => {
  const db = testDatabases();
  afterAll(() => db.dispose());

  it('keeps one page list per version and locale, removing the one a write replaced', async () => {
    const kit = await db.pglite();
    const setKey = freshSetKey('lists');
    const inner = createArrayCacheStore();
    const { store, keys } = recordingCacheStore(inner);
    const source = createDbSource({ db: kit, setKey, cache: store });
    const write = (path: string, body: string) =>
      writePage(kit, setKey, { version: 'current', locale: 'en', path, frontmatter: {}, body });
    await write('index', '# Home\n');
    expect((await source.listPages('current', 'en')).map((page) => page.path)).toEqual(['index']);
    for (const path of ['a', 'b', 'c']) {
      await write(path, `# ${path}\n`);
      expect((await source.listPages('current', 'en')).map((page) => page.path)).toContain(path);
    }
    const lists = [...keys].filter((key) => key.startsWith(`v1:pages:${setKey}:`));
    expect(lists).toHaveLength(1);
    // A second process reading the same state takes the kept list.
    const other = createDbSource({ db: kit, setKey, cache: store });
    expect((await other.listPages('current', 'en')).map((page) => page.path)).toEqual(['a', 'b', 'c', 'index']);
  });
});
