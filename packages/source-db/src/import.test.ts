import { createFsSource } from '@kit/source-fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createDbSource } from './db-source.js';
import { importFromSource } from './import.js';
import { listRevisions } from './revision-history.js';
import { freshSetKey, testDatabases } from './testing/fixture.js';
import { writeManifest } from './writes.js';

const laravel = `${process.env.KIT_SHARED_DIR}/corpora/laravel`;
const databases = testDatabases();
afterAll(() => databases.dispose());

describe('importing a repository set into a database set', () => {
  it('copies the pages of a version with the same hashes, and its navigation file', async () => {
    const db = await databases.pglite();
    const setKey = freshSetKey('laravel');
    const repository = createFsSource({ root: laravel, setKey: 'laravel' });
    const report = await importFromSource(repository, db, setKey, { versions: ['13.x'] });
    const copy = createDbSource({ db, setKey });

    expect(JSON.parse((await copy.readManifest())!.text)).toEqual(JSON.parse((await repository.readManifest())!.text));
    let total = 0;
    for (const version of ['13.x']) {
      const original = await repository.listPages(version, 'en');
      const copied = await copy.listPages(version, 'en');
      expect(copied.map((p) => p.path)).toEqual(original.map((p) => p.path));
      expect(copied.map((p) => p.contentHash)).toEqual(original.map((p) => p.contentHash));
      expect(copied.map((p) => p.title)).toEqual(original.map((p) => p.title));
      const navigation = await repository.readNavigation(version, 'en');
      expect(JSON.parse((await copy.readNavigation(version, 'en'))!.text)).toEqual(JSON.parse(navigation!.text));
      total += original.length;
    }
    expect(total).toBeGreaterThan(90);
    expect(await copy.listPages('12.x', 'en')).toEqual([]);
    expect(report).toMatchObject({ manifest: 'written', pages: total, navigations: 1, unchanged: 0, rewritten: [] });
    expect(await listRevisions(db, setKey, { kind: 'page', limit: 1000 })).toHaveLength(total);

    const again = await importFromSource(repository, db, setKey, { versions: ['13.x'] });
    expect(again).toMatchObject({ manifest: 'unchanged', pages: 0, navigations: 0, unchanged: total + 1 });
    await repository.close?.();
  });

  it('refuses a version the source does not declare', async () => {
    const db = await databases.pglite();
    const repository = createFsSource({ root: laravel, setKey: 'laravel' });
    const error = await importFromSource(repository, db, freshSetKey('none'), { versions: ['9.x'] }).catch((e) => e);
    expect(error.code).toBe('version.not_found');
    expect(error.message).toContain('13.x');
  });

  it('says which pages were written out again because their frontmatter was re-serialized', async () => {
    const db = await databases.pglite();
    const from = freshSetKey('from');
    await writeManifest(db, from, { manifest: { name: 'From', assets: { css: ['theme.css'] } } });
    const { writePage } = await import('./writes.js');
    const { writeAsset } = await import('./asset-writes.js');
    const ref = { version: 'current', locale: 'en' };
    await writePage(db, from, { ...ref, path: 'plain', text: '# Plain\n' });
    await writePage(db, from, { ...ref, path: 'styled', text: "---\ntitle:   'Styled'\n---\n# Styled\n" });
    await writeAsset(db, from, { name: 'theme.css', content: 'body{}' });
    await writeAsset(db, from, { name: 'skills/review.md', content: '# Review\n' });

    const to = freshSetKey('to');
    const report = await importFromSource(createDbSource({ db, setKey: from }), db, to);
    expect(report).toMatchObject({ pages: 2, skills: 1, assets: 1, rewritten: [{ ...ref, path: 'styled' }] });
    const copy = createDbSource({ db, setKey: to });
    expect((await copy.getPage('current', 'en', 'styled'))?.frontmatter).toEqual({ title: 'Styled' });
    expect(await copy.listSkills()).toEqual([{ name: 'review', content: '# Review\n' }]);
    expect(new TextDecoder().decode((await copy.readAsset('theme.css'))!)).toBe('body{}');
  });
});
