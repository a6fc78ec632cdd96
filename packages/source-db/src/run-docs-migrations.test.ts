import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChangeRecord } from '@kit/core';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { KitDatabase } from './database.js';
import { createDbSource } from './db-source.js';
import { appliedDocsMigrations } from './docs-migrations.js';
import { listRevisions } from './revision-history.js';
import { runDocsMigrations } from './run-docs-migrations.js';
import { freshSetKey, rejection, testDatabases } from './testing/fixture.js';
import { writePage } from './writes.js';

// Two databases per server: the one the author tools wrote (a developer's) and a fresh one (production).
const authors = testDatabases();
const targets = testDatabases();
afterAll(async () => {
  await authors.dispose();
  await targets.dispose();
});

const folders: string[] = [];
afterEach(async () => {
  while (folders.length > 0) await rm(folders.pop()!, { recursive: true, force: true });
});

const page = { version: 'current', locale: 'en', path: 'guides/routing' };
const scope = { version: 'current', locale: 'en' };
const change = (tool: ChangeRecord['tool']): ChangeRecord => ({ tool, draft: false, author: 'ada', summary: tool });

/** Makes changes through the writer of `author`, recording them in a docs migration; returns the folder. */
async function authorChanges(author: KitDatabase, setKey: string) {
  const root = await mkdtemp(join(tmpdir(), 'kit-docs-migrations-'));
  folders.push(root);
  const folder = join(root, 'migrations', 'docs');
  const { writer } = createDbSource({ db: author, setKey, migrations: { folder, branch: 'main', root } });
  await writer.writeManifest('{\n  "name": "Docs"\n}\n', null, change('update_manifest'));
  const routing = await writer.writePage(page, '---\ntitle: Routing\n---\n# Routing\n', null, change('write_page'));
  const old = await writer.writePage({ ...page, path: 'old' }, '# Old\n', null, change('write_page'));
  await writer.movePage(page, { ...page, path: 'basics/routing' }, routing.revision.content_hash, change('move_page'));
  await writer.deletePage({ ...page, path: 'old' }, old.revision.content_hash, change('delete_page'));
  await writer.writeNavigation(
    scope,
    '{"groups":[{"label":"Start","pages":["basics/routing"]}]}',
    null,
    change('update_navigation'),
  );
  const [fileName] = await readdir(folder);
  return { root, folder, name: fileName!.slice(0, -'.json'.length), file: join(folder, fileName!) };
}

async function snapshot(db: KitDatabase, setKey: string) {
  const source = createDbSource({ db, setKey });
  return {
    manifest: (await source.readManifest())?.text ?? null,
    pages: (await source.listPages('current', 'en')).map((p) => `${p.path}:${p.contentHash}`),
    navigation: (await source.readNavigation('current', 'en'))?.text ?? null,
  };
}

function runnerSuite(name: string, open: () => Promise<KitDatabase>, openTarget: () => Promise<KitDatabase>) {
  describe(`runDocsMigrations on ${name}`, () => {
    it('applies a migration written on one database to a fresh one, leaving it with the same content', async () => {
      const author = await open();
      const target = await openTarget();
      const setKey = freshSetKey('migrate');
      const { folder, name: migration } = await authorChanges(author, setKey);

      expect(await runDocsMigrations(author, setKey, folder)).toMatchObject({
        migrations: [{ name: migration, status: 'already_applied', changes: 6 }],
      });
      const dry = await runDocsMigrations(target, setKey, folder, { dryRun: true });
      expect(dry.migrations).toMatchObject([{ name: migration, status: 'pending' }]);
      expect(await appliedDocsMigrations(target, setKey)).toEqual([]);

      const run = await runDocsMigrations(target, setKey, folder);
      expect(run.migrations).toMatchObject([{ name: migration, status: 'applied', changes: 6, skipped: 0 }]);
      expect(await snapshot(target, setKey)).toEqual(await snapshot(author, setKey));
      expect((await listRevisions(target, setKey, { path: 'basics/routing' }))[0]).toMatchObject({
        author: 'ada',
        summary: 'move_page',
      });
      expect((await appliedDocsMigrations(target, setKey)).map((m) => m.name)).toEqual([migration]);
    });

    it('changes nothing when run again, and skips changes whose target already holds them', async () => {
      const author = await open();
      const target = await openTarget();
      const setKey = freshSetKey('again');
      const { folder, file } = await authorChanges(author, setKey);
      await runDocsMigrations(target, setKey, folder);
      const revisions = (await listRevisions(target, setKey)).length;
      expect((await runDocsMigrations(target, setKey, folder)).migrations[0]?.status).toBe('already_applied');
      expect(await listRevisions(target, setKey)).toHaveLength(revisions);

      // Changes of it under another name, whose targets already hold what they write (or lack what they delete).
      const document = JSON.parse(await readFile(file, 'utf8'));
      document.changes = [document.changes[0], document.changes[4], document.changes[5]];
      expect(document.changes.map((c: { op: string }) => c.op)).toEqual([
        'write_manifest',
        'delete_page',
        'write_navigation',
      ]);
      await writeFile(join(folder, '2000_01_01_000000_copy_main.json'), JSON.stringify(document));
      const copy = await runDocsMigrations(target, setKey, folder);
      expect(copy.migrations[0]).toMatchObject({ name: '2000_01_01_000000_copy_main', status: 'applied', skipped: 3 });
      expect(await listRevisions(target, setKey)).toHaveLength(revisions);
    });

    it('refuses a migration whose change meets content edited since, naming the change, and applies none of it', async () => {
      const author = await open();
      const target = await openTarget();
      const setKey = freshSetKey('conflict');
      const { folder, name: migration } = await authorChanges(author, setKey);
      await writePage(target, setKey, { ...page, path: 'old', text: '# Edited in production\n' });
      const before = await snapshot(target, setKey);
      const error = await rejection(runDocsMigrations(target, setKey, folder));
      expect(error.code).toBe('content.conflict');
      expect(error.message).toContain(`${migration}.json, change 3`);
      expect(error.message).toContain('page "old"');
      expect(error.message).toMatch(/based_on/);
      expect(await snapshot(target, setKey)).toEqual(before);
      expect(await appliedDocsMigrations(target, setKey)).toEqual([]);
    });

    it('applies the migrations of its own set only, in name order', async () => {
      const target = await openTarget();
      const setKey = freshSetKey('order');
      const root = await mkdtemp(join(tmpdir(), 'kit-docs-migrations-'));
      folders.push(root);
      const entry = (text: string, basedOn: string | null) => ({
        op: 'write_page',
        ...page,
        text,
        based_on: basedOn,
        content_hash: 'sha256:unknown',
        at: '2025-01-01T00:00:00.000Z',
      });
      const file = (set: string, changes: unknown[]) =>
        `${JSON.stringify({ kit: 'docs-migration', set, branch: 'main', changes })}\n`;
      await writeFile(join(root, '2025_01_02_000000_b_main.json'), file(setKey, [entry('# Two\n', null)]));
      await writeFile(join(root, '2025_01_01_000000_a_main.json'), file(setKey, [entry('# One\n', null)]));
      await writeFile(join(root, '2025_01_01_000000_other_main.json'), file('other', [entry('# Other\n', null)]));
      const error = await rejection(runDocsMigrations(target, setKey, root));
      expect(error.message).toContain('2025_01_02_000000_b_main.json, change 1');
      expect((await appliedDocsMigrations(target, setKey)).map((m) => m.name)).toEqual(['2025_01_01_000000_a_main']);
      expect((await createDbSource({ db: target, setKey }).getPage('current', 'en', page.path))?.body).toBe('# One\n');
    });

    it('refuses a file it cannot read, naming the file and the problem', async () => {
      const target = await openTarget();
      const root = await mkdtemp(join(tmpdir(), 'kit-docs-migrations-'));
      folders.push(root);
      await writeFile(
        join(root, '2025_01_01_000000_bad_main.json'),
        JSON.stringify({ kit: 'docs-migration', set: 'docs', branch: 'main', changes: [{ op: 'write_page' }] }),
      );
      const error = await rejection(runDocsMigrations(target, 'docs', root));
      expect(error.code).toBe('argument.invalid');
      expect(error.message).toContain(
        '2025_01_01_000000_bad_main.json is not valid: changes[0].version must be a string',
      );
      await writeFile(join(root, '2025_01_01_000000_bad_main.json'), '{ nope');
      expect((await rejection(runDocsMigrations(target, 'docs', root))).message).toContain('it is not JSON');
    });
  });
}

runnerSuite(
  'PGlite',
  () => authors.pglite(),
  () => targets.pglite(),
);

describe.skipIf(!authors.url)('on PostgreSQL (KIT_TEST_DATABASE_URL)', () => {
  runnerSuite(
    'PostgreSQL',
    () => authors.postgres(),
    () => targets.postgres(),
  );
});
