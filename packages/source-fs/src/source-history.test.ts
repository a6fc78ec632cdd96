import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { SourcePage } from '@kit/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFsSource } from './fs-source.js';
import { createSourceHistory, sourcesMatcher } from './source-history.js';
import { createFixtureFolders, writeAt } from './testing/fixture-folder.js';

// Counts the git processes started, to hold staleness to one `git log` per repository state.
const gitCalls = vi.hoisted(() => [] as string[][]);
vi.mock('node:child_process', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:child_process')>();
  const execFile = ((file: string, args: string[], ...rest: unknown[]) => {
    if (file === 'git') gitCalls.push(args);
    return (original.execFile as (...all: unknown[]) => unknown)(file, args, ...rest);
  }) as unknown as typeof original.execFile;
  return { ...original, execFile };
});

const folders = createFixtureFolders('history');
afterAll(() => folders.cleanup());

/** Commits everything in `repo` with author and committer dated `date`. */
function commitAll(repo: string, message: string, date: string): string {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GIT_CONFIG_NOSYSTEM: '1',
    HOME: repo,
    GIT_AUTHOR_NAME: 'Kit Test',
    GIT_AUTHOR_EMAIL: 'kit@example.com',
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_NAME: 'Kit Test',
    GIT_COMMITTER_EMAIL: 'kit@example.com',
    GIT_COMMITTER_DATE: date,
  };
  for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE']) delete env[name];
  const run = (...args: string[]) => execFileSync('git', args, { cwd: repo, env, encoding: 'utf8' }).trim();
  run('add', '-A');
  run('commit', '--quiet', '-m', message);
  return run('rev-parse', 'HEAD');
}

const page = (title: string, sources: string[] | null) =>
  `---\ntitle: ${title}\n${sources ? `sources:\n${sources.map((glob) => `  - ${glob}`).join('\n')}\n` : ''}---\n\n# ${title}\n`;

describe('staleness from git', () => {
  let repo: string;
  let docs: string;
  let sourceChange: string;
  const pageOf = async (path: string): Promise<SourcePage> => {
    const found = await createFsSource({ root: docs, setKey: 'docs', git: false }).getPage('current', 'en', path);
    if (!found) throw new Error(`no page ${path}`);
    return found;
  };

  beforeAll(() => {
    repo = folders.folder();
    docs = join(repo, 'docs');
    execFileSync('git', ['init', '--quiet', '--initial-branch=main'], { cwd: repo });
    writeAt(repo, 'docs/kit.json', '{ "name": "History" }\n');
    writeAt(repo, 'docs/queues.md', page('Queues', ['src/queue/**']));
    writeAt(repo, 'docs/routing.md', page('Routing', ['src/router.ts']));
    writeAt(repo, 'docs/plain.md', page('Plain', null));
    writeAt(repo, 'src/queue/worker.ts', 'export const worker = 1;\n');
    writeAt(repo, 'src/router.ts', 'export const router = 1;\n');
    commitAll(repo, 'docs and code', '2026-01-01T10:00:00Z');
    writeAt(repo, 'src/queue/worker.ts', 'export const worker = 2;\n');
    writeAt(repo, 'src/queue/retry.ts', 'export const retry = 1;\n');
    sourceChange = commitAll(repo, 'queue code moves on', '2026-02-01T10:00:00Z');
    writeAt(repo, 'docs/routing.md', `${page('Routing', ['src/router.ts'])}\nRoutes match in order.\n`);
    commitAll(repo, 'routing docs catch up', '2026-03-01T10:00:00Z');
  });

  it('names the sources changed after the page, with the newest commit and its date', async () => {
    const history = createSourceHistory({ root: repo, setFolder: docs });
    expect(await history.staleSources(await pageOf('queues'))).toEqual({
      sources: ['src/queue/retry.ts', 'src/queue/worker.ts'],
      total: 2,
      commit: sourceChange,
      date: '2026-02-01T10:00:00+00:00',
    });
  });

  it('finds nothing stale when the sources are older than the page, or the page names none', async () => {
    const history = createSourceHistory({ root: repo, setFolder: docs });
    expect(await history.staleSources(await pageOf('routing'))).toBeNull();
    expect(await history.staleSources(await pageOf('plain'))).toBeNull();
  });

  it('reads the history once per repository state and answers again from memory', async () => {
    const history = createSourceHistory({ root: repo, setFolder: docs });
    const queues = await pageOf('queues');
    await history.staleSources(queues);
    const before = gitCalls.length;
    for (let read = 0; read < 20; read += 1) await history.staleSources(queues);
    await history.staleSources(await pageOf('routing'));
    expect(gitCalls.length).toBe(before);
  });

  it('stops calling a page stale once a later commit updates it', async () => {
    const history = createSourceHistory({ root: repo, setFolder: docs });
    expect(await history.staleSources(await pageOf('queues'))).not.toBeNull();
    writeAt(repo, 'docs/queues.md', `${page('Queues', ['src/queue/**'])}\nJobs retry on their own.\n`);
    commitAll(repo, 'queue docs catch up', '2026-04-01T10:00:00Z');
    expect(await history.staleSources(await pageOf('queues'))).toBeNull();
  });

  it('judges a page without a file of its own (a database set) by its updatedAt', async () => {
    const history = createSourceHistory({ root: repo });
    const dbPage = (updatedAt: string): SourcePage => ({
      path: 'routing',
      version: 'current',
      locale: 'en',
      frontmatter: { sources: ['src/router.ts'] },
      body: '# Routing\n',
      title: 'Routing',
      contentHash: `sha256:${'0'.repeat(64)}`,
      bodyLine: 1,
      updatedAt,
      visibility: 'public',
      problems: [],
    });
    expect(await history.staleSources(dbPage('2026-01-15T00:00:00Z'))).toBeNull();
    expect(await history.staleSources(dbPage('2025-12-01T00:00:00Z'))).toMatchObject({
      sources: ['src/router.ts'],
      date: '2026-01-01T10:00:00+00:00',
    });
  });

  it('answers null without starting git where the project is in no repository', async () => {
    const outside = folders.folder();
    writeAt(outside, 'docs/queues.md', page('Queues', ['src/**']));
    writeAt(outside, 'src/a.ts', 'a\n');
    const before = gitCalls.length;
    const history = createSourceHistory({ root: outside, setFolder: join(outside, 'docs') });
    const queues = await createFsSource({ root: join(outside, 'docs'), setKey: 'docs', git: false }).getPage(
      'current',
      'en',
      'queues',
    );
    expect(await history.staleSources(queues!)).toBeNull();
    expect(gitCalls.length).toBe(before);
  });
});

describe('sourcesMatcher', () => {
  it('matches picomatch globs, dotfiles included', () => {
    const matches = sourcesMatcher(['src/queue/**', 'config/*.ts']);
    expect(matches('src/queue/deep/retry.ts')).toBe(true);
    expect(matches('src/queue/.env.example')).toBe(true);
    expect(matches('config/app.ts')).toBe(true);
    expect(matches('config/nested/app.ts')).toBe(false);
    expect(matches('src/router.ts')).toBe(false);
  });
});
