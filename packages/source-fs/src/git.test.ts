import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ContentChange } from '@kit/core';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFsSource } from './fs-source.js';
import { parseLastChanges } from './git.js';
import { createFixtureFolders, writeAt } from './testing/fixture-folder.js';

// Counts the git processes the source starts, to hold it to one `git log` per history state.
const gitCalls = vi.hoisted(() => [] as string[][]);
vi.mock('node:child_process', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:child_process')>();
  const execFile = ((file: string, args: string[], ...rest: unknown[]) => {
    if (file === 'git') gitCalls.push(args);
    return (original.execFile as (...all: unknown[]) => unknown)(file, args, ...rest);
  }) as unknown as typeof original.execFile;
  return { ...original, execFile };
});

const folders = createFixtureFolders('git');
afterAll(() => folders.cleanup());

function git(repo: string, args: string[], author?: { name: string; date: string }): string {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: repo };
  for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE']) delete env[name];
  if (author) {
    Object.assign(env, {
      GIT_AUTHOR_NAME: author.name,
      GIT_AUTHOR_EMAIL: `${author.name.toLowerCase()}@example.com`,
      GIT_AUTHOR_DATE: author.date,
      GIT_COMMITTER_NAME: author.name,
      GIT_COMMITTER_EMAIL: `${author.name.toLowerCase()}@example.com`,
      GIT_COMMITTER_DATE: author.date,
    });
  }
  return execFileSync('git', args, { cwd: repo, env, encoding: 'utf8' }).trim();
}

function commitAll(repo: string, message: string, author: { name: string; date: string }): string {
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-q', '-m', message], author);
  return git(repo, ['rev-parse', 'HEAD']);
}

const logCalls = () => gitCalls.filter((args) => args.includes('log')).length;

describe('git provenance and edit links', () => {
  let repo: string;
  let docs: string;
  let first: string;
  let second: string;

  beforeEach(() => {
    gitCalls.length = 0;
    repo = folders.folder();
    docs = join(repo, 'docs');
    git(repo, ['init', '-q', '-b', 'main']);
    writeAt(
      docs,
      'kit.json',
      JSON.stringify({ repository: { url: 'https://github.com/acme/app', branch: 'trunk', docsPath: 'docs' } }),
    );
    writeAt(docs, 'index.md', '# Home\n');
    writeAt(docs, 'guide.md', '# Guide\n');
    writeAt(docs, 'guides/über uns.md', '# Über uns\n');
    writeAt(repo, 'src/app.ts', 'export {};\n');
    first = commitAll(repo, 'First docs', { name: 'Ann', date: '2024-01-02T03:04:05Z' });
    writeAt(docs, 'guide.md', '# Guide, revised\n');
    writeAt(repo, 'src/app.ts', 'export const changed = true;\n');
    second = commitAll(repo, 'Revise the guide', { name: 'Bob', date: '2024-03-04T05:06:07+02:00' });
  });

  it('gives each page its last author, date and commit, with a commit link', async () => {
    const source = createFsSource({ root: docs, setKey: 'docs' });
    const pages = await source.listPages('current', 'en');
    const byPath = Object.fromEntries(pages.map((page) => [page.path, page]));
    expect(byPath.index?.provenance).toEqual({
      author: 'Ann',
      date: '2024-01-02T03:04:05.000Z',
      commit: first,
      commitUrl: `https://github.com/acme/app/commit/${first}`,
    });
    expect(byPath.guide?.provenance).toMatchObject({ author: 'Bob', date: '2024-03-04T03:06:07.000Z', commit: second });
    expect(byPath.guide?.updatedAt).toBe('2024-03-04T03:06:07.000Z');
    expect(byPath['guides/über uns']?.provenance?.author).toBe('Ann');
  });

  it('builds edit links as {docsUrl}/edit/{branch}/{docsPath}/{file}', async () => {
    const pages = await createFsSource({ root: docs, setKey: 'docs' }).listPages('current', 'en');
    expect(pages.map((page) => page.editUrl)).toEqual([
      'https://github.com/acme/app/edit/trunk/docs/guide.md',
      'https://github.com/acme/app/edit/trunk/docs/guides/%C3%BCber%20uns.md',
      'https://github.com/acme/app/edit/trunk/docs/index.md',
    ]);
  });

  it('points edit and commit links at docsUrl when the docs live in another repository', async () => {
    writeAt(
      docs,
      'kit.json',
      JSON.stringify({
        repository: {
          url: 'https://github.com/acme/app',
          docsUrl: 'https://gitlab.com/acme/docs/',
          docsPath: '/site/',
        },
      }),
    );
    const page = await createFsSource({ root: docs, setKey: 'docs' }).getPage('current', 'en', 'index');
    expect(page?.editUrl).toBe('https://gitlab.com/acme/docs/edit/main/site/index.md');
    expect(page?.provenance?.commitUrl).toBe(`https://gitlab.com/acme/docs/commit/${first}`);
  });

  it('reads the history with one git log for the whole folder and again only after a new commit', async () => {
    const source = createFsSource({ root: docs, setKey: 'docs' });
    await source.listPages('current', 'en');
    await source.getPage('current', 'en', 'index');
    await source.listPages('current', 'en');
    expect(logCalls()).toBe(1);
    expect(gitCalls.length).toBe(2);

    writeAt(docs, 'index.md', '# Home, again\n');
    const third = commitAll(repo, 'Touch the home page', { name: 'Cleo', date: '2024-06-01T00:00:00Z' });
    const page = await source.getPage('current', 'en', 'index');
    expect(page?.provenance).toMatchObject({ author: 'Cleo', commit: third });
    expect(logCalls()).toBe(2);
  });

  it('tells watch listeners when a commit moves HEAD, so a saved page gets its new provenance', async () => {
    const source = createFsSource({ root: docs, setKey: 'docs', watch: true });
    try {
      const changes: ContentChange[] = [];
      source.watch!((change) => changes.push(change));
      await source.ready();
      writeAt(docs, 'guide.md', '# Guide, saved before the commit\n');
      await vi.waitFor(() => expect(changes).toContainEqual(expect.objectContaining({ path: 'guide' })), {
        timeout: 10_000,
      });
      expect((await source.getPage('current', 'en', 'guide'))?.provenance?.commit).toBe(second);

      changes.length = 0;
      // Committing changes no file of the set folder: only the repository's HEAD moves.
      const third = commitAll(repo, 'Commit the saved guide', { name: 'Cleo', date: '2024-06-01T00:00:00Z' });
      await vi.waitFor(() => expect(changes).toContainEqual({ kind: 'page' }), { timeout: 10_000 });
      expect(changes.every((change) => change.kind === 'page' && change.path === undefined)).toBe(true);
      const page = await source.getPage('current', 'en', 'guide');
      expect(page?.provenance).toMatchObject({ author: 'Cleo', commit: third });
      expect(page?.updatedAt).toBe('2024-06-01T00:00:00.000Z');
    } finally {
      await source.close();
    }
  });

  it('gives uncommitted pages no provenance and no update date (the file time is not one)', async () => {
    writeAt(docs, 'draft.md', '# Draft\n');
    const page = await createFsSource({ root: docs, setKey: 'docs' }).getPage('current', 'en', 'draft');
    expect(page?.provenance).toBeUndefined();
    expect(page?.updatedAt).toBeUndefined();
    expect(page?.editUrl).toBe('https://github.com/acme/app/edit/trunk/docs/draft.md');
  });

  it('keeps the history in cacheDir, so a restart without new commits starts no git process', async () => {
    const cacheDir = join(repo, '.kit', 'cache');
    const before = await createFsSource({ root: docs, setKey: 'docs', cacheDir }).listPages('current', 'en');
    expect(logCalls()).toBe(1);
    await vi.waitFor(() => expect(readdirSync(join(cacheDir, 'git'))).toHaveLength(1));

    gitCalls.length = 0;
    const restarted = await createFsSource({ root: docs, setKey: 'docs', cacheDir }).listPages('current', 'en');
    expect(gitCalls).toEqual([]);
    expect(restarted.map((page) => [page.path, page.provenance, page.updatedAt])).toEqual(
      before.map((page) => [page.path, page.provenance, page.updatedAt]),
    );

    writeAt(docs, 'index.md', '# Home, again\n');
    const third = commitAll(repo, 'Touch the home page', { name: 'Cleo', date: '2024-06-01T00:00:00Z' });
    const after = await createFsSource({ root: docs, setKey: 'docs', cacheDir }).getPage('current', 'en', 'index');
    expect(after?.provenance).toMatchObject({ author: 'Cleo', commit: third });
    expect(after?.updatedAt).toBe('2024-06-01T00:00:00.000Z');
    expect(logCalls()).toBe(1);
  });

  it('starts no git process when git is turned off, and reads none when the manifest turns provenance off', async () => {
    const off = await createFsSource({ root: docs, setKey: 'docs', git: false }).listPages('current', 'en');
    expect(off.every((page) => page.provenance === undefined)).toBe(true);
    expect(gitCalls).toEqual([]);

    writeAt(docs, 'kit.json', JSON.stringify({ provenance: false }));
    const hidden = await createFsSource({ root: docs, setKey: 'docs' }).listPages('current', 'en');
    expect(hidden.every((page) => page.provenance === undefined && page.editUrl === undefined)).toBe(true);
    expect(gitCalls).toEqual([]);
  });
});

describe('a folder outside any git repository', () => {
  beforeEach(() => {
    gitCalls.length = 0;
  });

  it('serves pages without provenance and without an update date, starting no git process', async () => {
    const root = folders.folder();
    writeAt(root, 'index.md', '# Home\n');
    const [page] = await createFsSource({ root, setKey: 'docs' }).listPages('current', 'en');
    expect(page?.title).toBe('Home');
    expect(page?.provenance).toBeUndefined();
    // A copied or freshly checked-out file is "modified" now: its time would mark every page as new.
    expect(page?.updatedAt).toBeUndefined();
    expect(gitCalls).toEqual([]);
  });
});

describe('parseLastChanges', () => {
  it('keeps the newest change of each file under the folder and drops files outside it', () => {
    const output = [
      '\x1eaaa\x1fBob\x1f2024-03-01T00:00:00+00:00\0\ndocs/a.md\0src/x.ts\0',
      '\x1ebbb\x1fAnn\x1f2024-01-01T00:00:00+00:00\0\ndocs/a.md\0docs/sub/b c.md\0',
    ].join('');
    expect(Object.fromEntries(parseLastChanges(output, 'docs/'))).toEqual({
      'a.md': { commit: 'aaa', author: 'Bob', date: '2024-03-01T00:00:00+00:00' },
      'sub/b c.md': { commit: 'bbb', author: 'Ann', date: '2024-01-01T00:00:00+00:00' },
    });
  });
});
