import { existsSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isKitError } from '@kit/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createFsSource } from './fs-source.js';
import { createFixtureFolders, writeAt } from './testing/fixture-folder.js';

const folders = createFixtureFolders('fs');
afterAll(() => folders.cleanup());

const laravel = `${process.env.KIT_SHARED_DIR}/corpora/laravel`;

describe.skipIf(!existsSync(join(laravel, 'kit.json')))('the Laravel corpus', () => {
  it('loads every version with titled pages and reads each navigation file', async () => {
    const source = createFsSource({ root: laravel, setKey: 'docs' });
    const manifest = JSON.parse((await source.readManifest())!.text);
    const versions: string[] = manifest.versions.map((version: { id: string }) => version.id);
    expect(versions).toEqual(['13.x', '12.x', '11.x']);
    for (const version of versions) {
      const files = readdirSync(join(laravel, version)).filter((name) => name.endsWith('.md'));
      const pages = await source.listPages(version, 'en');
      expect(pages.length).toBeGreaterThanOrEqual(90);
      expect(pages.map((page) => `${page.path}.md`).sort()).toEqual(files.sort());
      for (const page of pages) {
        expect(page.title, page.path).not.toBe(page.path);
        expect(page.contentHash).toMatch(/^sha256:[0-9a-f]{64}$/);
        expect(page.problems).toEqual([]);
      }
      const navigation = await source.readNavigation(version, 'en');
      expect(navigation?.file).toBe(`${version}/navigation.json`);
      expect(JSON.parse(navigation!.text).groups.length).toBeGreaterThan(0);
    }
    expect((await source.getPage('13.x', 'en', 'installation'))?.title).toBe('Installation');
    expect(await source.problems()).toEqual([]);
  });
});

describe('page files', () => {
  it('reports broken frontmatter with the file and the line of the YAML error, and still serves the page', async () => {
    const root = folders.folder();
    writeAt(root, 'good.md', '# Good\n');
    writeAt(
      root,
      'guides/broken.md',
      '---\ntitle: Fine\ndescription: "unclosed\nsources: []\n---\n# Broken but served\n',
    );
    const source = createFsSource({ root, setKey: 'docs' });
    const pages = await source.listPages('current', 'en');
    expect(pages.map((page) => page.path)).toEqual(['good', 'guides/broken']);
    const broken = pages[1]!;
    expect(broken.frontmatter).toEqual({});
    expect(broken.title).toBe('Broken but served');
    expect(broken.bodyLine).toBe(6);
    expect(broken.problems).toHaveLength(1);
    expect(broken.problems[0]).toMatchObject({
      rule: 'frontmatter.schema',
      severity: 'error',
      file: 'guides/broken.md',
    });
    expect(broken.problems[0]!.line).toBeGreaterThanOrEqual(3);
    expect(broken.problems[0]!.line).toBeLessThanOrEqual(5);
    expect(broken.problems[0]!.message).toContain(`line ${broken.problems[0]!.line}`);
  });

  it('reports a frontmatter block that is never closed on line 1 and serves the whole file as body', async () => {
    const root = folders.folder();
    writeAt(root, 'open.md', '---\ntitle: Open\n\n# Heading\n');
    const page = await createFsSource({ root, setKey: 'docs' }).getPage('current', 'en', 'open');
    expect(page?.problems).toEqual([expect.objectContaining({ rule: 'frontmatter.schema', line: 1, file: 'open.md' })]);
    expect(page?.frontmatter).toEqual({});
    expect(page?.title).toBe('Heading');
  });

  it('reports frontmatter that is a list, or a title that is not text, on its line', async () => {
    const root = folders.folder();
    writeAt(root, 'list.md', '---\n- one\n- two\n---\n# List\n');
    writeAt(root, 'number.md', '---\ndescription: Fine\ntitle: 42\n---\n# Forty-two\n');
    const source = createFsSource({ root, setKey: 'docs' });
    const list = await source.getPage('current', 'en', 'list');
    expect(list?.problems).toEqual([expect.objectContaining({ rule: 'frontmatter.schema', line: 2 })]);
    const numbered = await source.getPage('current', 'en', 'number');
    expect(numbered?.problems).toEqual([expect.objectContaining({ rule: 'frontmatter.schema', line: 3 })]);
    expect(numbered?.title).toBe('Forty-two');
    expect(numbered?.description).toBe('Fine');
  });

  it('keeps folder landing pages at folder/index and names the file of every page', async () => {
    const root = folders.folder();
    writeAt(root, 'index.md', '# Home\n');
    writeAt(root, 'guides/index.md', '# Guides\n');
    writeAt(root, 'guides/deep/topic.md', '# Topic\n');
    const pages = await createFsSource({ root, setKey: 'docs' }).listPages('current', 'en');
    expect(pages.map((page) => [page.path, page.file])).toEqual([
      ['guides/deep/topic', 'guides/deep/topic.md'],
      ['guides/index', 'guides/index.md'],
      ['index', 'index.md'],
    ]);
  });

  it('ignores dotfiles, node_modules, non-Markdown files and the skills folder of an unversioned set', async () => {
    const root = folders.folder();
    writeAt(root, 'page.md', '# Page\n');
    writeAt(root, '.draft.md', '# Draft\n');
    writeAt(root, '.hidden/secret.md', '# Secret\n');
    writeAt(root, 'node_modules/pkg/readme.md', '# Dependency\n');
    writeAt(root, 'notes.txt', 'not a page');
    writeAt(root, 'image.png', new Uint8Array([1, 2, 3]));
    writeAt(root, 'skills/deploy.md', '# Deploy\n');
    const source = createFsSource({ root, setKey: 'docs' });
    expect((await source.listPages('current', 'en')).map((page) => page.path)).toEqual(['page']);
    for (const path of ['.draft', '.hidden/secret', 'node_modules/pkg/readme', 'skills/deploy', 'notes']) {
      expect(await source.getPage('current', 'en', path), path).toBeNull();
    }
    expect((await source.listSkills()).map((skill) => skill.name)).toEqual(['deploy']);
    expect(await source.readAsset('.draft.md')).toBeNull();
    expect(await source.readAsset('page.md')).toBeNull();
  });

  it('never lists a file whose path breaks the page-path rule, and reports each one', async () => {
    const root = folders.folder();
    writeAt(root, 'page.md', '# Page\n');
    writeAt(root, '.git/notes.md', '# Git\n');
    writeAt(root, 'Node_Modules/pkg/readme.md', '# Dependency\n');
    writeAt(root, 'line\nbreak.md', '# Newline\n');
    writeAt(root, 'invoice\u202Efdp.md', '# Override\n');
    writeAt(root, 'set\u200Bup.md', '# Zero width\n');
    writeAt(root, 'guides /setup.md', '# Space\n');
    const source = createFsSource({ root, setKey: 'docs' });
    expect((await source.listPages('current', 'en')).map((page) => page.path)).toEqual(['page']);
    for (const path of [
      'line\nbreak',
      'invoice\u202Efdp',
      'set\u200Bup',
      'guides /setup',
      '.git/notes',
      'Node_Modules/pkg/readme',
    ]) {
      expect(await source.getPage('current', 'en', path), path).toBeNull();
    }
    const problems = (await source.problems()).filter((problem) => problem.rule === 'source.page_path');
    expect(problems.map((problem) => problem.file).sort()).toEqual([
      'guides /setup.md',
      'invoice\u202Efdp.md',
      'line\nbreak.md',
      'set\u200Bup.md',
    ]);
    const override = problems.find((problem) => problem.file === 'invoice\u202Efdp.md')!;
    expect(override).toMatchObject({ severity: 'warning' });
    expect(override.message).toContain('"invoice\\u{202E}fdp.md" is not read as a page');
    expect(override.message).toContain('bidirectional control character (U+202E)');
  });

  it('follows symlinks inside the set folder but never out of it, and reports the ones it skips', async () => {
    const outside = folders.folder();
    writeAt(outside, 'leak.md', '# Outside\n');
    writeAt(outside, 'leak.css', 'body{}');
    writeAt(outside, 'folder/inner.md', '# Outside folder\n');
    const root = folders.folder();
    writeAt(root, 'real/page.md', '# Real\n');
    symlinkSync(join(root, 'real'), join(root, 'alias'));
    symlinkSync(join(outside, 'leak.md'), join(root, 'leak.md'));
    symlinkSync(join(outside, 'folder'), join(root, 'escape'));
    symlinkSync(join(outside, 'leak.css'), join(root, 'leak.css'));
    symlinkSync(join(root, 'loop-target'), join(root, 'dangling.md'));
    const source = createFsSource({ root, setKey: 'docs' });
    expect((await source.listPages('current', 'en')).map((page) => page.path)).toEqual(['alias/page', 'real/page']);
    expect(await source.getPage('current', 'en', 'leak')).toBeNull();
    expect(await source.getPage('current', 'en', 'escape/inner')).toBeNull();
    expect(await source.readAsset('leak.css')).toBeNull();
    const problems = await source.problems();
    expect(problems.map((problem) => [problem.rule, problem.file]).sort()).toEqual([
      ['source.symlink', 'dangling.md'],
      ['source.symlink', 'escape'],
      ['source.symlink', 'leak.css'],
      ['source.symlink', 'leak.md'],
    ]);
  });

  it('ignores a kit.json or navigation.json that links out of the set folder, as it reports', async () => {
    const outside = folders.folder();
    writeAt(outside, 'kit.json', JSON.stringify({ name: 'Outside', versions: ['9.x'] }));
    writeAt(outside, 'navigation.json', '{"groups":[{"label":"Outside","pages":["index"]}]}');
    const root = folders.folder();
    writeAt(root, 'index.md', '# Home\n');
    symlinkSync(join(outside, 'kit.json'), join(root, 'kit.json'));
    symlinkSync(join(outside, 'navigation.json'), join(root, 'navigation.json'));
    const source = createFsSource({ root, setKey: 'docs' });
    expect(await source.readManifest()).toBeNull();
    expect((await source.listPages('current', 'en')).map((page) => page.path)).toEqual(['index']);
    expect(await source.readNavigation('current', 'en')).toBeNull();
    expect((await source.problems()).map((problem) => [problem.rule, problem.file]).sort()).toEqual([
      ['source.symlink', 'kit.json'],
      ['source.symlink', 'navigation.json'],
    ]);
  });

  it('does not re-read a file whose modification time and size did not change', async () => {
    const root = folders.folder();
    writeAt(root, 'page.md', '# Before\n');
    const file = join(root, 'page.md');
    // Whole seconds, so setting the time back below restores it exactly.
    const mtime = new Date('2024-05-01T10:00:00Z');
    utimesSync(file, mtime, mtime);
    const source = createFsSource({ root, setKey: 'docs' });
    expect((await source.listPages('current', 'en'))[0]?.title).toBe('Before');

    // Same size, same modification time: only a re-read could notice the new text.
    writeFileSync(file, '# Behind\n');
    utimesSync(file, mtime, mtime);
    expect(statSync(file).mtimeMs).toBe(mtime.getTime());
    expect((await source.listPages('current', 'en'))[0]?.title).toBe('Before');
    expect((await source.getPage('current', 'en', 'page'))?.title).toBe('Before');

    utimesSync(file, mtime, new Date(mtime.getTime() + 5_000));
    expect((await source.listPages('current', 'en'))[0]?.title).toBe('Behind');
  });

  it('sees a page added or removed since the last listing without watching', async () => {
    const root = folders.folder();
    writeAt(root, 'one.md', '# One\n');
    const source = createFsSource({ root, setKey: 'docs' });
    expect((await source.listPages('current', 'en')).map((page) => page.path)).toEqual(['one']);
    writeAt(root, 'two.md', '# Two\n');
    expect((await source.listPages('current', 'en')).map((page) => page.path)).toEqual(['one', 'two']);
  });

  it('answers a missing set folder with no pages and a problem naming the folder', async () => {
    const root = join(folders.base, 'does-not-exist');
    const source = createFsSource({ root, setKey: 'docs' });
    expect(await source.readManifest()).toBeNull();
    expect(await source.listPages('current', 'en')).toEqual([]);
    expect(await source.problems()).toEqual([expect.objectContaining({ rule: 'source.read', severity: 'error' })]);
    expect((await source.problems())[0]!.message).toContain(root);
  });

  it('refuses options without a root or a set key with an error saying what to pass', () => {
    for (const options of [
      { root: '', setKey: 'docs' },
      { root: '/tmp', setKey: '' },
    ]) {
      try {
        createFsSource(options);
        expect.unreachable();
      } catch (error) {
        expect(isKitError(error, 'argument.invalid')).toBe(true);
        expect((error as Error).message).toMatch(/needs `(root|setKey)`/);
      }
    }
  });
});

describe('versions and locales', () => {
  const manifest = {
    versions: ['3.x', '2.x'],
    locales: [{ code: 'en' }, { code: 'ar' }, { code: 'fr' }],
  };

  it('reads the default locale at the version root and each other locale from its own subfolder', async () => {
    const root = folders.folder();
    writeAt(root, 'kit.json', JSON.stringify(manifest));
    writeAt(root, '3.x/index.md', '# Home\n');
    writeAt(root, '3.x/guide.md', '# Guide\n');
    writeAt(root, '3.x/navigation.json', '{"groups":[]}');
    writeAt(root, '3.x/ar/index.md', '# الرئيسية\n');
    writeAt(root, '3.x/ar/navigation.json', '{"groups":[{"label":"ar","pages":[]}]}');
    writeAt(root, '3.x/fr/guide.md', '# Guide FR\n');
    writeAt(root, '2.x/index.md', '# Old\n');
    writeAt(root, 'stray.md', '# Outside any version\n');
    const source = createFsSource({ root, setKey: 'docs' });

    expect((await source.listPages('3.x', 'en')).map((page) => page.path)).toEqual(['guide', 'index']);
    expect((await source.listPages('3.x', 'ar')).map((page) => [page.path, page.file])).toEqual([
      ['index', '3.x/ar/index.md'],
    ]);
    expect((await source.listPages('3.x', 'fr')).map((page) => page.path)).toEqual(['guide']);
    expect((await source.listPages('2.x', 'en')).map((page) => page.path)).toEqual(['index']);
    expect(await source.listPages('2.x', 'ar')).toEqual([]);
    expect(await source.getPage('3.x', 'en', 'ar/index')).toBeNull();
    expect((await source.readNavigation('3.x', 'ar'))?.file).toBe('3.x/ar/navigation.json');
    expect((await source.readNavigation('3.x', 'en'))?.file).toBe('3.x/navigation.json');
    expect(await source.readNavigation('3.x', 'fr')).toBeNull();
  });

  it('reads an unversioned localized set from locale folders at the set root', async () => {
    const root = folders.folder();
    writeAt(root, 'kit.json', JSON.stringify({ locales: ['en', 'ar'] }));
    writeAt(root, 'index.md', '# Home\n');
    writeAt(root, 'ar/index.md', '# الرئيسية\n');
    const source = createFsSource({ root, setKey: 'docs' });
    expect((await source.listPages('current', 'en')).map((page) => page.file)).toEqual(['index.md']);
    expect((await source.listPages('current', 'ar')).map((page) => page.file)).toEqual(['ar/index.md']);
  });

  it('serves nothing from a version folder that is a link out of the set folder', async () => {
    const outside = folders.folder();
    writeAt(outside, 'index.md', '# Outside\n');
    const root = folders.folder();
    writeAt(root, 'kit.json', JSON.stringify(manifest));
    writeAt(root, '3.x/index.md', '# Home\n');
    symlinkSync(outside, join(root, '2.x'));
    const source = createFsSource({ root, setKey: 'docs' });
    expect(await source.listPages('2.x', 'en')).toEqual([]);
    expect(await source.getPage('2.x', 'en', 'index')).toBeNull();
    expect((await source.listPages('3.x', 'en')).map((page) => page.path)).toEqual(['index']);
  });

  it('warns about a declared version that has no folder', async () => {
    const root = folders.folder();
    writeAt(root, 'kit.json', JSON.stringify(manifest));
    writeAt(root, '3.x/index.md', '# Home\n');
    const problems = await createFsSource({ root, setKey: 'docs' }).problems();
    expect(problems).toEqual([
      expect.objectContaining({ rule: 'source.missing_folder', severity: 'warning', file: 'kit.json' }),
    ]);
    expect(problems[0]!.message).toContain('2.x');
  });

  it('picks up a changed manifest on the next call', async () => {
    const root = folders.folder();
    writeAt(root, 'kit.json', JSON.stringify({ versions: ['1.x'] }));
    writeAt(root, '1.x/index.md', '# One\n');
    writeAt(root, '2.x/index.md', '# Two\n');
    const source = createFsSource({ root, setKey: 'docs' });
    expect(await source.listPages('2.x', 'en')).toEqual([]);
    writeAt(root, 'kit.json', JSON.stringify({ versions: ['2.x', '1.x'] }));
    expect((await source.listPages('2.x', 'en')).map((page) => page.title)).toEqual(['Two']);
    expect(readFileSync(join(root, 'kit.json'), 'utf8')).toBe((await source.readManifest())!.text);
  });
});
