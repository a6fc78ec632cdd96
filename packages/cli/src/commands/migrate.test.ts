import { cp, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChangeRecord, ContentWriter } from '@kit/core';
import { currentBranch, loadKit } from '@kit/node';
import { createDbSource, openDatabase, writePage } from '@kit/source-db';
import { describe, expect, it } from 'vitest';
import { git } from '../__fixtures__/git-project.js';
import { runKitHere } from '../__fixtures__/in-process.js';
import { tempProjects } from '../__fixtures__/kit-binary.js';

const projects = tempProjects('kit-migrate-');

const config = (extra = '') =>
  `export default { sets: { docs: { source: { driver: 'database' } }, guide: { route: { prefix: 'guide' }, source: { path: 'guide' } } }${extra} };\n`;
const files = (extra = '') => ({ 'kit.config.mjs': config(extra), 'guide/index.md': '# Guide\n' });
const page = { version: 'current', locale: 'en', path: 'routing' };
const change: ChangeRecord = { tool: 'write_page', draft: false, author: 'agent:test', summary: 'Routing' };

/** Makes changes through the author tools' writer of the project's database set, on `branch`. */
async function author(dir: string, branch: string, write: (writer: ContentWriter) => Promise<unknown>) {
  const kit = await loadKit({ cwd: dir, docsMigrations: { branch } });
  try {
    await write(kit.set('docs').source.writer!);
  } finally {
    await kit.close();
  }
}

async function pageBody(dir: string, path: string): Promise<string | null> {
  const db = await openDatabase({ dataDir: join(dir, '.kit', 'db') });
  try {
    return (await createDbSource({ db, setKey: 'docs' }).getPage('current', 'en', path))?.body ?? null;
  } finally {
    await db.close();
  }
}

describe('kit migrate', () => {
  it('applies the migrations the author tools wrote to another database once, skipping repository sets', async () => {
    const dev = await projects(files());
    await author(dev, 'feature/routing', async (writer) => {
      await writer.writeManifest('{ "name": "Docs" }\n', null, { ...change, tool: 'update_manifest' });
      await writer.writePage(page, '---\ntitle: Routing\n---\n# Routing\n', null, change);
    });
    const [fileName] = await readdir(join(dev, 'migrations', 'docs'));
    expect(fileName).toMatch(/^\d{4}_\d{2}_\d{2}_\d{6}_docs_feature-routing\.json$/);
    const name = fileName!.slice(0, -'.json'.length);

    // The developer's own database has the changes already.
    const here = await runKitHere(['migrate'], { cwd: dev });
    expect(here.stdout).toContain('docs: nothing to apply (1 migration applied before)');

    const prod = await projects(files());
    await cp(join(dev, 'migrations'), join(prod, 'migrations'), { recursive: true });
    const status = await runKitHere(['migrate', '--status'], { cwd: prod });
    expect(status.stdout).toContain(`pending  ${name} (2 changes)`);
    expect(await pageBody(prod, 'routing')).toBeNull();

    const run = await runKitHere(['migrate'], { cwd: prod });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      `docs: applied ${name} (2 changes)\nguide: skipped, a repository set (its docs are files)\n`,
    );
    expect(await pageBody(prod, 'routing')).toBe('# Routing\n');

    const again = await runKitHere(['migrate', '--set', 'docs', '--json'], { cwd: prod });
    expect(JSON.parse(again.stdout)).toEqual({
      folder: 'migrations/docs',
      status: false,
      sets: [
        {
          set: 'docs',
          source: 'database',
          migrations: [
            { name, file: `migrations/docs/${fileName}`, status: 'already_applied', changes: 2, skipped: 0 },
          ],
        },
      ],
    });
  }, 180_000);

  it('exits 1 naming the migration and the change when the database was edited since, applying nothing', async () => {
    const dev = await projects(files());
    let hash = '';
    await author(dev, 'main', async (writer) => {
      hash = (await writer.writePage(page, '# Routing\n', null, change)).revision.content_hash;
    });
    const prod = await projects(files());
    await cp(join(dev, 'migrations'), join(prod, 'migrations'), { recursive: true });
    expect((await runKitHere(['migrate'], { cwd: prod })).code).toBe(0);

    await author(dev, 'rewrite', (writer) => writer.writePage(page, '# Routing, rewritten\n', hash, change));
    await cp(join(dev, 'migrations'), join(prod, 'migrations'), { recursive: true });
    const db = await openDatabase({ dataDir: join(prod, '.kit', 'db') });
    await writePage(db, 'docs', { ...page, text: '# Routing, fixed in production\n' });
    await db.close();

    const run = await runKitHere(['migrate'], { cwd: prod });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^kit: The docs migration .*_docs_rewrite\.json, change 1 .*page "routing".*based_on/);
    expect(await pageBody(prod, 'routing')).toBe('# Routing, fixed in production\n');
    expect((await runKitHere(['migrate', '--status'], { cwd: prod })).stdout).toMatch(/pending {2}\S+_docs_rewrite/);
  }, 180_000);

  it('applies nothing while the application runs its tests when migrations.skip_in_tests is on', async () => {
    const dev = await projects(files());
    await author(dev, 'main', (writer) => writer.writePage(page, '# Routing\n', null, change));
    const prod = await projects(files(', migrations: { skip_in_tests: true }'));
    await cp(join(dev, 'migrations'), join(prod, 'migrations'), { recursive: true });
    const skipped = await runKitHere(['migrate'], { cwd: prod, env: { NODE_ENV: 'test' } });
    expect(skipped.code).toBe(0);
    expect(skipped.stdout).toContain('Skipped docs migrations: migrations.skip_in_tests is on');
    expect(await pageBody(prod, 'routing')).toBeNull();
    expect((await runKitHere(['migrate'], { cwd: prod, env: { NODE_ENV: 'production' } })).stdout).toContain(
      'docs: applied',
    );
  }, 180_000);
});

describe('currentBranch', () => {
  it('names the branch, the short commit when detached, and local outside a repository', async () => {
    const dir = await projects({ 'a.txt': 'a\n' });
    expect(await currentBranch(dir)).toBe('local');
    git(dir, 'init', '--quiet', '--initial-branch', 'feature/docs');
    expect(await currentBranch(dir)).toBe('feature/docs');
    git(dir, 'add', '.');
    git(dir, 'commit', '--quiet', '-m', 'first');
    const commit = git(dir, 'rev-parse', '--short', 'HEAD').trim();
    git(dir, 'checkout', '--quiet', '--detach');
    expect(await currentBranch(dir)).toBe(commit);
  });
});
