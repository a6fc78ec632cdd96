import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ChangeRecord, ContentChange } from '@kit/core';
import { contentHash } from '@kit/core';
import { contractFixture, runWriterContract, type SourceFixture, unversionedFixture } from '@kit/core/testing';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createFsSource, type FsContentSource } from './fs-source.js';
import { createFixtureFolders, writeAt } from './testing/fixture-folder.js';

// Removing a file cannot be made to fail through permissions when the tests run as root, so one
// test makes `rm` fail on purpose; every other call goes to the real one.
const removal = vi.hoisted(() => ({ failFor: null as string | null }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...actual,
    rm: (path: Parameters<typeof actual.rm>[0], options?: Parameters<typeof actual.rm>[1]) => {
      if (removal.failFor !== null && String(path).endsWith(removal.failFor)) {
        return Promise.reject(Object.assign(new Error('EBUSY: resource busy'), { code: 'EBUSY' }));
      }
      return actual.rm(path, options);
    },
  };
});

const contractFolders = createFixtureFolders('writer-contract');
runWriterContract({
  name: 'the repository writer',
  create: (fixture) => createFsSource({ root: contractFolders.write(fixture), setKey: 'docs', git: false }),
  cleanup: () => contractFolders.cleanup(),
});

const watchedFolders = createFixtureFolders('writer-contract-watch');
runWriterContract({
  name: 'the repository writer of a watched folder',
  create: async (fixture) => {
    const source = createFsSource({ root: watchedFolders.write(fixture), setKey: 'docs', git: false, watch: true });
    await source.ready();
    return source;
  },
  cleanup: () => watchedFolders.cleanup(),
});

const folders = createFixtureFolders('writer');
afterAll(() => folders.cleanup());

const opened: FsContentSource[] = [];
afterEach(async () => {
  removal.failFor = null;
  await Promise.all(opened.splice(0).map((source) => source.close()));
});

function open(fixture: SourceFixture, watch = false): { root: string; source: FsContentSource } {
  const root = folders.write(fixture);
  const source = createFsSource({ root, setKey: 'docs', git: false, watch });
  opened.push(source);
  return { root, source };
}

const write: ChangeRecord = { tool: 'write_page', draft: false };
const move: ChangeRecord = { tool: 'move_page', draft: false };
const remove: ChangeRecord = { tool: 'delete_page', draft: false };

async function refusal(promise: Promise<unknown>): Promise<{ code?: string; message: string }> {
  return promise.then(
    () => expect.unreachable('the call should have been refused'),
    (error: { code?: string; message: string }) => error,
  );
}

const read = (root: string, file: string) => readFileSync(join(root, file), 'utf8');

describe('the repository writer', () => {
  it('writes a folder landing page back into guides/index.md', async () => {
    const { root, source } = open(contractFixture);
    const page = { version: '2.x', locale: 'en', path: 'guides/index' };
    const before = await source.getPage('2.x', 'en', 'guides/index');
    await source.writer.writePage(page, '# Guides\n', before!.contentHash, write);
    expect(read(root, '2.x/guides/index.md')).toBe('# Guides\n');
    expect(existsSync(join(root, '2.x/guides.md'))).toBe(false);
  });

  it('puts a new page at <page folder>/<path>.md in versioned, localized and unversioned sets', async () => {
    const versioned = open(contractFixture);
    await versioned.source.writer.writePage({ version: '1.x', locale: 'en', path: 'a/b' }, '# B\n', null, write);
    await versioned.source.writer.writePage({ version: '2.x', locale: 'ar', path: 'a/index' }, '# A\n', null, write);
    expect(read(versioned.root, '1.x/a/b.md')).toBe('# B\n');
    expect(read(versioned.root, '2.x/ar/a/index.md')).toBe('# A\n');

    const unversioned = open(unversionedFixture);
    await unversioned.source.writer.writePage(
      { version: 'current', locale: 'en', path: 'x/y' },
      '# Y\r\n',
      null,
      write,
    );
    expect(read(unversioned.root, 'x/y.md')).toBe('# Y\r\n');

    const localized = open({ manifest: { locales: ['en', 'fr'] }, pages: [] });
    await localized.source.writer.writePage(
      { version: 'current', locale: 'fr', path: 'index' },
      '# Accueil\n',
      null,
      write,
    );
    await localized.source.writer.writePage(
      { version: 'current', locale: 'en', path: 'index' },
      '# Home\n',
      null,
      write,
    );
    expect(read(localized.root, 'fr/index.md')).toBe('# Accueil\n');
    expect(read(localized.root, 'index.md')).toBe('# Home\n');
  });

  it('writes navigation.json into the version or locale folder and kit.json at the set root', async () => {
    const { root, source } = open(contractFixture);
    await source.writer.writeNavigation({ version: '1.x', locale: 'ar' }, '{"groups":[]}', null, {
      tool: 'update_navigation',
      draft: false,
    });
    expect(read(root, '1.x/ar/navigation.json')).toBe('{"groups":[]}');
    const manifest = read(root, 'kit.json');
    await source.writer.writeManifest('{"name":"New"}', contentHash(manifest), {
      tool: 'update_manifest',
      draft: false,
    });
    expect(read(root, 'kit.json')).toBe('{"name":"New"}');
  });

  it('refuses paths that climb out of the set folder and writes nothing there', async () => {
    const { root, source } = open(contractFixture);
    for (const path of ['../escape', '../../escape', 'guides/../../../escape', '/tmp/escape', '.hidden/page']) {
      const error = await refusal(
        source.writer.writePage({ version: '2.x', locale: 'en', path }, '# X\n', null, write),
      );
      expect(error.code, path).toBe('page.invalid_path');
      expect(error.message).toContain('for example "guides/setup"');
    }
    expect(existsSync(join(root, 'escape.md'))).toBe(false);
    expect(existsSync(join(dirname(root), 'escape.md'))).toBe(false);
  });

  it('refuses a version or locale the manifest does not declare, naming the declared ones', async () => {
    const { source } = open(contractFixture);
    const version = await refusal(
      source.writer.writePage({ version: '9.x', locale: 'en', path: 'x' }, '#\n', null, write),
    );
    expect(version.code).toBe('version.not_found');
    expect(version.message).toContain('"2.x", "1.x"');
    const locale = await refusal(
      source.writer.writePage({ version: '2.x', locale: 'fr', path: 'x' }, '#\n', null, write),
    );
    expect(locale.code).toBe('locale.not_found');
    expect(locale.message).toContain('"en", "ar"');
  });

  it('refuses a page path that the layout gives to a locale folder', async () => {
    const { root, source } = open(contractFixture);
    const error = await refusal(
      source.writer.writePage({ version: '2.x', locale: 'en', path: 'ar/new' }, '#\n', null, write),
    );
    expect(error.code).toBe('page.invalid_path');
    expect(existsSync(join(root, '2.x/ar/new.md'))).toBe(false);
  });

  it('refuses to write through a symbolic link that leads out of the set folder', async () => {
    const { root, source } = open(contractFixture);
    const outside = folders.folder();
    writeAt(outside, 'secret.md', '# Secret\n');
    symlinkSync(outside, join(root, '2.x/linked'));
    symlinkSync(join(outside, 'secret.md'), join(root, '2.x/leak.md'));

    const throughFolder = await refusal(
      source.writer.writePage({ version: '2.x', locale: 'en', path: 'linked/page' }, '# In\n', null, write),
    );
    expect(throughFolder.code).toBe('page.invalid_path');
    expect(throughFolder.message).toContain('outside the set folder');
    const deeper = await refusal(
      source.writer.writePage({ version: '2.x', locale: 'en', path: 'linked/new/page' }, '# In\n', null, write),
    );
    expect(deeper.code).toBe('page.invalid_path');
    const overFile = await refusal(
      source.writer.writePage(
        { version: '2.x', locale: 'en', path: 'leak' },
        '# Out\n',
        contentHash('# Secret\n'),
        write,
      ),
    );
    expect(overFile.code).toBe('page.invalid_path');
    expect(readdirSync(outside)).toEqual(['secret.md']);
    expect(read(outside, 'secret.md')).toBe('# Secret\n');
  });

  it('writes through a link to a folder inside the set folder', async () => {
    const { root, source } = open(contractFixture);
    mkdirSync(join(root, '2.x/real'));
    symlinkSync(join(root, '2.x/real'), join(root, '2.x/alias'));
    await source.writer.writePage({ version: '2.x', locale: 'en', path: 'alias/page' }, '# Via link\n', null, write);
    expect(read(root, '2.x/real/page.md')).toBe('# Via link\n');
  });

  it('removes the folders a move or delete leaves empty, but never the version folder', async () => {
    const { root, source } = open(contractFixture);
    writeAt(root, '2.x/deep/a/b/page.md', '# Deep\n');
    writeAt(root, '2.x/deep/keep.md', '# Keep\n');
    await source.writer.movePage(
      { version: '2.x', locale: 'en', path: 'deep/a/b/page' },
      { version: '2.x', locale: 'en', path: 'flat' },
      contentHash('# Deep\n'),
      move,
    );
    expect(existsSync(join(root, '2.x/deep/a'))).toBe(false);
    expect(existsSync(join(root, '2.x/deep/keep.md'))).toBe(true);
    expect(read(root, '2.x/flat.md')).toBe('# Deep\n');

    for (const path of ['index', 'legacy']) {
      const page = await source.getPage('1.x', 'en', path);
      await source.writer.deletePage({ version: '1.x', locale: 'en', path }, page!.contentHash, remove);
    }
    expect(readdirSync(join(root, '1.x'))).toEqual([]);
    await source.writer.deletePage(
      { version: '2.x', locale: 'ar', path: 'guides/setup' },
      contentHash('# الإعداد\n'),
      remove,
    );
    expect(existsSync(join(root, '2.x/ar/guides'))).toBe(false);
    expect(existsSync(join(root, '2.x/ar'))).toBe(true);
  });

  it('leaves a move undone when the old file cannot be removed', async () => {
    const { root, source } = open(contractFixture);
    removal.failFor = join('2.x', 'routing.md');
    const error = await refusal(
      source.writer.movePage(
        { version: '2.x', locale: 'en', path: 'routing' },
        { version: '1.x', locale: 'en', path: 'new/routing' },
        (await source.getPage('2.x', 'en', 'routing'))!.contentHash,
        move,
      ),
    );
    expect(error.code).toBe('source.error');
    expect(existsSync(join(root, '1.x/new'))).toBe(false);
    expect(await source.getPage('1.x', 'en', 'new/routing')).toBeNull();
    expect((await source.getPage('2.x', 'en', 'routing'))?.title).toBe('Routing');
  });

  it('refuses drafts, saying that repository sets keep none', async () => {
    const { source } = open(contractFixture);
    const error = await refusal(
      source.writer.writePage({ version: '2.x', locale: 'en', path: 'draft' }, '#\n', null, { ...write, draft: true }),
    );
    expect(error.code).toBe('argument.invalid');
    expect(error.message).toMatch(/^Repository sets keep no drafts: /);
    expect(await source.getPage('2.x', 'en', 'draft')).toBeNull();
  });

  it('names the page and says to read it again when the content changed', async () => {
    const { source } = open(contractFixture);
    const error = await refusal(
      source.writer.writePage({ version: '2.x', locale: 'en', path: 'routing' }, '#\n', contentHash('old'), write),
    );
    expect(error.code).toBe('content.conflict');
    expect(error.message).toMatch(
      /^Page "routing" \(version 2\.x, locale en\) changed since you read it \(.*\)\. Read it again/,
    );
  });

  it('lets exactly one of two concurrent writes with the same expected hash through', async () => {
    const { root, source } = open(contractFixture);
    const page = { version: '2.x', locale: 'en', path: 'guides/setup' };
    const expected = (await source.getPage('2.x', 'en', 'guides/setup'))!.contentHash;
    const results = await Promise.allSettled([
      source.writer.writePage(page, '# First\n', expected, write),
      source.writer.writePage(page, '# Second\n', expected, write),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason.code).toBe('content.conflict');
    const winner = results[0]!.status === 'fulfilled' ? '# First\n' : '# Second\n';
    expect(read(root, '2.x/guides/setup.md')).toBe(winner);
  });

  it('shows a watched source the new content right after the write, and the watcher catching up changes nothing', async () => {
    const { source } = open(contractFixture, true);
    await source.ready();
    const heard: ContentChange[] = [];
    source.watch!((change) => heard.push(change));
    // Fill the caches a watched source keeps, so the write has to refresh them.
    expect((await source.listPages('2.x', 'en')).map((page) => page.path)).not.toContain('fresh');
    const setup = (await source.getPage('2.x', 'en', 'guides/setup'))!;

    await source.writer.writePage({ version: '2.x', locale: 'en', path: 'fresh' }, '# Fresh\n', null, write);
    await source.writer.writePage(
      { version: '2.x', locale: 'en', path: 'guides/setup' },
      '# Set up\n',
      setup.contentHash,
      write,
    );
    await source.writer.movePage(
      { version: '2.x', locale: 'en', path: 'routing' },
      { version: '1.x', locale: 'en', path: 'routing' },
      (await source.getPage('2.x', 'en', 'routing'))!.contentHash,
      move,
    );
    const check = async () => {
      expect((await source.listPages('2.x', 'en')).map((page) => page.path)).toContain('fresh');
      expect((await source.listPages('2.x', 'en')).map((page) => page.path)).not.toContain('routing');
      expect((await source.listPages('1.x', 'en')).map((page) => page.path)).toContain('routing');
      expect((await source.getPage('2.x', 'en', 'guides/setup'))?.title).toBe('Set up');
      expect((await source.getPage('2.x', 'en', 'fresh'))?.title).toBe('Fresh');
    };
    await check();
    const told = heard.length;
    expect(heard).toContainEqual({ kind: 'page', version: '2.x', locale: 'en', path: 'fresh' });
    // The folder watcher reports the same files later; the source must still serve the same content.
    await vi.waitFor(() => expect(heard.length).toBeGreaterThan(told), { timeout: 10_000, interval: 25 });
    await new Promise((done) => setTimeout(done, 150));
    await check();
  });

  it('reads with the layout of a manifest it has just written', async () => {
    const { root, source } = open(unversionedFixture);
    await source.writer.writeManifest(JSON.stringify({ versions: ['1.x'], locales: ['en', 'de'] }), null, {
      tool: 'update_manifest',
      draft: false,
    });
    await source.writer.writePage({ version: '1.x', locale: 'de', path: 'start' }, '# Start\n', null, write);
    expect(read(root, '1.x/de/start.md')).toBe('# Start\n');
    expect((await source.listPages('1.x', 'de')).map((page) => page.path)).toEqual(['start']);
    expect(await source.listPages('current', 'en')).toEqual([]);
  });
});
