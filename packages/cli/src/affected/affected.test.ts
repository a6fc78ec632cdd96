import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitProject, git } from '../__fixtures__/git-project.js';
import { runKitHere } from '../__fixtures__/in-process.js';
import { runKit, tempProject, writeFiles } from '../__fixtures__/kit-binary.js';
import { matchAffectedPages, sourcesOf } from './match.js';

describe('matchAffectedPages', () => {
  const page = { set: 'docs', version: 'current', locale: 'en', title: 'T' };

  it('lists pages whose sources match a changed file, updated when the page changed too', () => {
    const pages = [
      { ...page, path: 'a', file: 'docs/a.md', sources: ['src/a/**'] },
      { ...page, path: 'b', file: 'docs/b.md', sources: ['src/b.ts', 'lib/*.js'] },
      { ...page, path: 'c', file: 'docs/c.md', sources: ['src/c.ts'] },
    ];
    expect(matchAffectedPages(pages, ['src/a/deep/x.ts', 'lib/y.js', 'docs/b.md'])).toEqual([
      { ...page, path: 'a', file: 'docs/a.md', status: 'stale', matched: ['src/a/deep/x.ts'] },
      { ...page, path: 'b', file: 'docs/b.md', status: 'updated', matched: ['lib/y.js'] },
    ]);
  });

  it('reads sources as a string or a list and ignores anything else', () => {
    expect(sourcesOf({ sources: './src/a.ts' })).toEqual(['src/a.ts']);
    expect(sourcesOf({ sources: ['/src/b/**', 3, ''] })).toEqual(['src/b/**']);
    expect(sourcesOf({ sources: 42 })).toEqual([]);
    expect(sourcesOf({})).toEqual([]);
  });
});

describe('kit affected on a git repository', () => {
  let project: Awaited<ReturnType<typeof tempProject>>;
  beforeAll(async () => {
    project = await tempProject('kit-affected-');
    await createGitProject(project.dir);
  });
  afterAll(() => project.cleanup());

  const statuses = (json: string) =>
    (JSON.parse(json).pages as Array<{ path: string; status: string; drift?: boolean }>).map(
      (page) => `${page.path}:${page.status}${page.drift ? ':drift' : ''}`,
    );

  it('lists pages whose sources changed since the default branch plus uncommitted work', async () => {
    const run = await runKit(['affected', '--json'], { cwd: project.dir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.base).toBe('main');
    expect(result.changed).toEqual([
      'docs/models.md',
      'src/cache.ts',
      'src/models/user.ts',
      'src/queue/new-job.ts',
      'src/router.ts',
    ]);
    expect(statuses(run.stdout)).toEqual(['caching:stale', 'models:updated', 'queues:stale', 'routing:stale']);
  });

  it('leaves out uncommitted work with --no-uncommitted and adds drifted pages with --drift', async () => {
    const committed = await runKit(['affected', '--json', '--no-uncommitted'], { cwd: project.dir });
    expect(statuses(committed.stdout)).toEqual(['models:updated', 'routing:stale']);
    const drift = await runKit(['affected', '--json', '--drift'], { cwd: project.dir });
    expect(statuses(drift.stdout)).toEqual([
      'caching:stale',
      'drift:stale:drift',
      'models:updated',
      'queues:stale',
      'routing:stale',
    ]);
  });

  it('compares with the remote default branch when origin/HEAD names one, or with --base', async () => {
    const remote = await tempProject('kit-remote-');
    try {
      git(remote.dir, 'init', '--quiet', '--bare');
      git(project.dir, 'remote', 'add', 'origin', remote.dir);
      git(project.dir, 'push', '--quiet', 'origin', 'main');
      git(project.dir, 'symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/main');
      const detected = await runKit(['affected', '--json', '--no-uncommitted'], { cwd: project.dir });
      expect(JSON.parse(detected.stdout).base).toBe('origin/main');
      expect(statuses(detected.stdout)).toEqual(['models:updated', 'routing:stale']);

      const text = await runKit(['affected', '--base', 'HEAD', '--no-uncommitted'], { cwd: project.dir });
      expect(text.stdout).toMatch(/^No pages are affected by the changes in HEAD\.\.\.HEAD/);
    } finally {
      git(project.dir, 'remote', 'remove', 'origin');
      await remote.cleanup();
    }
  });

  it('names a base that does not exist', async () => {
    const run = await runKit(['affected', '--base', 'no-such-branch'], { cwd: project.dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^kit: The base "no-such-branch" is not a commit, branch or tag of this repository\./);
  });
});

describe('kit affected with a default branch that does not exist', () => {
  let project: Awaited<ReturnType<typeof tempProject>>;
  beforeAll(async () => {
    project = await tempProject('kit-affected-branch-');
    await writeFiles(project.dir, {
      'kit.config.json': '{}',
      'docs/kit.json': '{ "name": "Docs" }',
      'docs/index.md': '# Home\n',
    });
    git(project.dir, 'init', '--quiet', '--initial-branch=main');
    git(project.dir, 'add', '-A');
    git(project.dir, 'commit', '--quiet', '-m', 'docs');
  });
  afterAll(() => project.cleanup());

  it('names KIT_DEFAULT_BRANCH when the variable names a missing branch', async () => {
    const run = await runKitHere(['affected'], { cwd: project.dir, env: { KIT_DEFAULT_BRANCH: 'develop' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('The default branch "develop" from the KIT_DEFAULT_BRANCH environment variable');
    expect(run.stderr).toContain('--base <branch>');
  });

  it('names instructions.default_branch when the config names a missing branch', async () => {
    await writeFiles(project.dir, { 'kit.config.json': JSON.stringify({ instructions: { default_branch: 'trunk' } }) });
    try {
      const run = await runKitHere(['affected'], { cwd: project.dir });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('The default branch "trunk" from instructions.default_branch in kit.config.json');
    } finally {
      await writeFiles(project.dir, { 'kit.config.json': '{}' });
    }
  });
});
