import { renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ContentChange } from '@kit/core';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createFsSource, type FsContentSource } from './fs-source.js';
import { createFixtureFolders, writeAt } from './testing/fixture-folder.js';

const folders = createFixtureFolders('watch');
afterAll(() => folders.cleanup());

const opened: FsContentSource[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((source) => source.close()));
});

// Events arrive when the operating system delivers them: poll with a bound instead of sleeping.
const eventually = (check: () => void | Promise<void>) => vi.waitFor(check, { timeout: 10_000, interval: 25 });

async function watched(root: string) {
  const source = createFsSource({ root, setKey: 'docs', watch: true });
  opened.push(source);
  const changes: ContentChange[] = [];
  source.watch!((change) => changes.push(change));
  await source.ready();
  return { source, changes };
}

function versionedSet(): string {
  const root = folders.folder();
  writeAt(
    root,
    'kit.json',
    JSON.stringify({ versions: ['2.x'], locales: ['en', 'ar'], assets: { css: ['theme.css'] } }),
  );
  writeAt(root, '2.x/guide.md', '# Guide\n');
  writeAt(root, '2.x/other.md', '# Other\n');
  writeAt(root, '2.x/ar/intro.md', '# مقدمة\n');
  writeAt(root, '2.x/navigation.json', '{"groups":[]}');
  writeAt(root, 'theme.css', 'body{}');
  return root;
}

describe('watching a set folder', () => {
  it('refreshes a changed page even when its size and time look unchanged, and tells listeners', async () => {
    const root = versionedSet();
    const file = join(root, '2.x/guide.md');
    const mtime = new Date('2024-05-01T10:00:00Z');
    utimesSync(file, mtime, mtime);
    const { source, changes } = await watched(root);
    expect((await source.getPage('2.x', 'en', 'guide'))?.title).toBe('Guide');

    writeFileSync(file, '# Gnome\n');
    utimesSync(file, mtime, mtime);
    await eventually(() =>
      expect(changes).toContainEqual({ kind: 'page', version: '2.x', locale: 'en', path: 'guide' }),
    );
    expect((await source.getPage('2.x', 'en', 'guide'))?.title).toBe('Gnome');
    expect((await source.getPage('2.x', 'en', 'other'))?.title).toBe('Other');
  });

  it('adds and removes pages in the listing it keeps while watching', async () => {
    const root = versionedSet();
    const { source, changes } = await watched(root);
    expect((await source.listPages('2.x', 'ar')).map((page) => page.path)).toEqual(['intro']);

    writeAt(root, '2.x/ar/setup.md', '# الإعداد\n');
    await eventually(async () =>
      expect((await source.listPages('2.x', 'ar')).map((page) => page.path)).toEqual(['intro', 'setup']),
    );
    expect(changes).toContainEqual({ kind: 'page', version: '2.x', locale: 'ar', path: 'setup' });

    rmSync(join(root, '2.x/ar/intro.md'));
    await eventually(async () =>
      expect((await source.listPages('2.x', 'ar')).map((page) => page.path)).toEqual(['setup']),
    );
  });

  it('tells listeners about navigation, skills, assets and the manifest by kind', async () => {
    const root = versionedSet();
    const { source, changes } = await watched(root);
    writeAt(root, '2.x/navigation.json', '{"groups":[{"label":"New","pages":["guide"]}]}');
    writeAt(root, 'skills/deploy.md', '# Deploy\n');
    writeAt(root, 'theme.css', 'body{color:red}');
    await eventually(() => {
      expect(changes).toContainEqual({ kind: 'navigation', version: '2.x', locale: 'en' });
      expect(changes).toContainEqual({ kind: 'skill', path: 'deploy' });
      expect(changes).toContainEqual({ kind: 'asset', path: 'theme.css' });
    });

    writeAt(root, 'kit.json', JSON.stringify({ versions: ['3.x', '2.x'] }));
    writeAt(root, '3.x/new.md', '# New\n');
    await eventually(async () => {
      expect(changes).toContainEqual({ kind: 'manifest' });
      expect((await source.listPages('3.x', 'en')).map((page) => page.path)).toEqual(['new']);
    });
  });

  it('sees a page an editor saves by renaming a temporary file over it', async () => {
    const root = versionedSet();
    const { source, changes } = await watched(root);
    expect((await source.getPage('2.x', 'en', 'guide'))?.title).toBe('Guide');

    writeFileSync(join(root, '2.x/.guide.md.swp'), '# Saved atomically\n');
    renameSync(join(root, '2.x/.guide.md.swp'), join(root, '2.x/guide.md'));
    await eventually(() =>
      expect(changes).toContainEqual({ kind: 'page', version: '2.x', locale: 'en', path: 'guide' }),
    );
    expect((await source.getPage('2.x', 'en', 'guide'))?.title).toBe('Saved atomically');
    // The hidden temporary file is never reported.
    expect(changes.some((change) => 'path' in change && String(change.path).includes('swp'))).toBe(false);
  });

  it('forgets the pages of a removed folder and watches a folder created later, with its files', async () => {
    const root = versionedSet();
    const { source } = await watched(root);
    expect((await source.listPages('2.x', 'ar')).map((page) => page.path)).toEqual(['intro']);

    rmSync(join(root, '2.x/ar'), { recursive: true });
    await eventually(async () => expect(await source.listPages('2.x', 'ar')).toEqual([]));

    writeAt(root, '2.x/ar/deep/nested.md', '# متداخل\n');
    await eventually(async () =>
      expect((await source.listPages('2.x', 'ar')).map((page) => page.path)).toEqual(['deep/nested']),
    );
    // A file written into the new folder afterwards is seen too: the folder is watched now.
    writeAt(root, '2.x/ar/deep/nested.md', '# تغيير\n');
    await eventually(async () => expect((await source.getPage('2.x', 'ar', 'deep/nested'))?.title).toBe('تغيير'));
  });

  it('drops a page replaced by a link out of the set folder, and lists it again once it is a file', async () => {
    const outside = folders.folder();
    writeAt(outside, 'secret.md', '# Secret\n\nOUTSIDE\n');
    const root = versionedSet();
    const { source, changes } = await watched(root);
    expect((await source.listPages('2.x', 'en')).map((page) => page.path)).toEqual(['guide', 'other']);

    // What `ln -sf` does: a new link renamed over the page, which the watcher sees as a change.
    symlinkSync(join(outside, 'secret.md'), join(root, '2.x/.guide.tmp'));
    renameSync(join(root, '2.x/.guide.tmp'), join(root, '2.x/guide.md'));
    await eventually(() =>
      expect(changes).toContainEqual({ kind: 'page', version: '2.x', locale: 'en', path: 'guide' }),
    );
    const pages = await source.listPages('2.x', 'en');
    expect(pages.map((page) => page.path)).toEqual(['other']);
    expect(pages.some((page) => page.body.includes('OUTSIDE'))).toBe(false);
    expect(await source.getPage('2.x', 'en', 'guide')).toBeNull();
    expect((await source.problems()).map((problem) => [problem.rule, problem.file])).toEqual([
      ['source.symlink', '2.x/guide.md'],
    ]);

    changes.length = 0;
    writeFileSync(join(root, '2.x/.guide.tmp'), '# Guide again\n');
    renameSync(join(root, '2.x/.guide.tmp'), join(root, '2.x/guide.md'));
    await eventually(() =>
      expect(changes).toContainEqual({ kind: 'page', version: '2.x', locale: 'en', path: 'guide' }),
    );
    expect((await source.listPages('2.x', 'en')).map((page) => page.title)).toEqual(['Guide again', 'Other']);
  });

  it('lists a page whose link out of the set folder is replaced by a file', async () => {
    const outside = folders.folder();
    writeAt(outside, 'secret.md', '# Secret\n');
    const root = versionedSet();
    symlinkSync(join(outside, 'secret.md'), join(root, '2.x/linked.md'));
    const { source, changes } = await watched(root);
    expect((await source.listPages('2.x', 'en')).map((page) => page.path)).toEqual(['guide', 'other']);

    writeFileSync(join(root, '2.x/.linked.tmp'), '# Linked, now a file\n');
    renameSync(join(root, '2.x/.linked.tmp'), join(root, '2.x/linked.md'));
    await eventually(() =>
      expect(changes).toContainEqual({ kind: 'page', version: '2.x', locale: 'en', path: 'linked' }),
    );
    expect((await source.listPages('2.x', 'en')).map((page) => page.path)).toEqual(['guide', 'linked', 'other']);
  });

  it('stops telling listeners once closed', async () => {
    const root = versionedSet();
    const first = await watched(root);
    await first.source.close();
    const second = await watched(root);

    writeAt(root, '2.x/guide.md', '# Changed after close\n');
    await eventually(() => expect(second.changes.some((change) => change.kind === 'page')).toBe(true));
    expect(first.changes).toEqual([]);
  });

  it('offers no watch method when watching is off', () => {
    const source = createFsSource({ root: versionedSet(), setKey: 'docs' });
    expect(source.watch).toBeUndefined();
  });
});
