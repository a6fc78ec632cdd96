import { mkdirSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { isKitError, type SourceProblem } from '@kit/core';
import { afterAll, describe, expect, it } from 'vitest';
import { setFiles } from './file-reads.js';
import { createFsSource } from './fs-source.js';
import { createFixtureFolders, writeAt } from './testing/fixture-folder.js';

// A file Node.js refuses to read whatever the user (root included): over 2 GiB. Sparse, so it
// takes no disk space.
const TOO_LARGE = 3 * 1024 ** 3;

function makeUnreadable(root: string, file: string): void {
  writeAt(root, file, '# Too large\n');
  truncateSync(join(root, file), TOO_LARGE);
}

async function failureOf(work: Promise<unknown>) {
  const error = await work.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!isKitError(error, 'source.error')) throw new Error(`expected a source.error, got ${String(error)}`);
  return { message: error.message, problems: (error.details?.problems ?? []) as SourceProblem[] };
}

describe('a repository set with a file that cannot be read', () => {
  const folders = createFixtureFolders('unreadable');
  afterAll(() => folders.cleanup());

  const setWith = (...unreadable: string[]) => {
    const root = folders.folder();
    writeAt(root, 'kit.json', JSON.stringify({ name: 'Acme' }));
    writeAt(root, 'index.md', '# Home\n');
    writeAt(root, 'guides/setup.md', '# Setup\n');
    for (const file of unreadable) makeUnreadable(root, file);
    return root;
  };

  it('fails the listing with an error naming the file and the cause, not a shorter list', async () => {
    const root = setWith('guides/huge.md');
    const source = createFsSource({ root, setKey: 'docs', git: false });
    const failure = await failureOf(source.listPages('current', 'en'));
    expect(failure.message).toContain('Reading the "docs" docs failed');
    expect(failure.message).toContain('guides/huge.md cannot be read (ERR_FS_FILE_TOO_LARGE');
    // The message is shown to operators and logged: it names the file inside the set, not where it lies.
    expect(failure.message).not.toContain(root);
    expect(failure.problems).toEqual([
      expect.objectContaining({ rule: 'source.read', severity: 'error', file: 'guides/huge.md' }),
    ]);
  });

  it('names every file that cannot be read, in the error and in problems()', async () => {
    const root = setWith('a-huge.md', 'guides/b-huge.md');
    const source = createFsSource({ root, setKey: 'docs', git: false });
    const failure = await failureOf(source.listPages('current', 'en'));
    expect(failure.problems.map((problem) => problem.file).sort()).toEqual(['a-huge.md', 'guides/b-huge.md']);
    const problems = await source.problems();
    expect(problems.filter((problem) => problem.rule === 'source.read').map((problem) => problem.file)).toEqual([
      'a-huge.md',
      'guides/b-huge.md',
    ]);
    expect(problems[0]).toMatchObject({ severity: 'error', message: expect.stringContaining('cannot be read') });
  });

  it('fails a read of that page, while the other pages read as before', async () => {
    const root = setWith('guides/huge.md');
    const source = createFsSource({ root, setKey: 'docs', git: false });
    const failure = await failureOf(source.getPage('current', 'en', 'guides/huge'));
    expect(failure.problems[0]?.file).toBe('guides/huge.md');
    expect((await source.getPage('current', 'en', 'guides/setup'))?.title).toBe('Setup');
    expect(await source.getPage('current', 'en', 'guides/missing')).toBeNull();
  });

  it('lists every page again once the file is fixed, with or without watching', async () => {
    for (const watch of [false, true]) {
      const root = setWith('guides/huge.md');
      const source = createFsSource({ root, setKey: 'docs', git: false, watch });
      await source.ready();
      await failureOf(source.listPages('current', 'en'));
      writeAt(root, 'guides/huge.md', '# Fixed\n');
      const pages = await source.listPages('current', 'en');
      expect(pages.map((page) => page.path)).toEqual(['guides/huge', 'guides/setup', 'index']);
      await source.close();
    }
  });

  it('fails the skills, the navigation and the manifest that cannot be read, naming each', async () => {
    const root = setWith('skills/deploy.md', 'navigation.json');
    writeAt(root, 'skills/review.md', '# Review\n');
    const source = createFsSource({ root, setKey: 'docs', git: false });
    expect((await failureOf(source.listSkills())).problems.map((problem) => problem.file)).toEqual([
      'skills/deploy.md',
    ]);
    expect((await failureOf(source.readNavigation('current', 'en'))).problems[0]?.file).toBe('navigation.json');
    const files = (await source.problems()).map((problem) => `${problem.rule} ${problem.file}`);
    expect(files).toEqual(['source.read navigation.json', 'source.read skills/deploy.md']);

    makeUnreadable(root, 'kit.json');
    const fresh = createFsSource({ root, setKey: 'docs', git: false });
    expect((await failureOf(fresh.readManifest())).problems[0]?.file).toBe('kit.json');
  });

  it('fails a static file or stylesheet that cannot be read instead of answering "no such file"', async () => {
    const root = setWith('images/huge.png');
    const source = createFsSource({ root, setKey: 'docs', git: false });
    expect((await failureOf(source.readAsset('images/huge.png'))).problems[0]?.file).toBe('images/huge.png');
    expect(await source.readAsset('images/missing.png')).toBeNull();
  });
});

describe('setFiles', () => {
  const folders = createFixtureFolders('set-files');
  afterAll(() => folders.cleanup());

  it('answers null for a file that is not there: deleted since it was listed, or a folder now', async () => {
    const root = folders.folder();
    mkdirSync(join(root, 'now-a-folder.md'));
    const files = setFiles('docs');
    expect(await files.readText(join(root, 'deleted.md'), 'deleted.md')).toBeNull();
    expect(await files.stat(join(root, 'deleted.md'), 'deleted.md')).toBeNull();
    expect(await files.readText(join(root, 'now-a-folder.md'), 'now-a-folder.md')).toBeNull();
    expect(await files.readdir(join(root, 'gone'), 'gone')).toBeNull();
    expect(await files.readText(join(root, 'deleted.md', 'below.md'), 'deleted.md/below.md')).toBeNull();
  });
});
