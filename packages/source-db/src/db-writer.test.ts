import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChangeRecord, ContentChange } from '@kit/core';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { KitDatabase } from './database.js';
import { createDbSource } from './db-source.js';
import { appliedDocsMigrations, isDocsMigrationApplied } from './docs-migrations.js';
import { listRevisions, restorePage } from './revision-history.js';
import { freshSetKey, rejection, testDatabases } from './testing/fixture.js';

const databases = testDatabases();
afterAll(() => databases.dispose());

const folders: string[] = [];
afterEach(async () => {
  while (folders.length > 0) await rm(folders.pop()!, { recursive: true, force: true });
});

async function tempRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'kit-db-writer-'));
  folders.push(root);
  return root;
}

const page = { version: 'current', locale: 'en', path: 'guides/routing' };
const scope = { version: 'current', locale: 'en' };
const first = '---\ntitle: Routing\n---\n# Routing\n\nFirst version.\n';
const second = '---\ntitle: Routing\n---\n# Routing\n\nSecond version.\n';
const publish: ChangeRecord = { tool: 'write_page', draft: false, author: 'agent:test', summary: 'Add routing' };
const draft: ChangeRecord = { tool: 'write_page', draft: true, author: 'agent:test' };

function writerSuite(name: string, open: () => Promise<KitDatabase>) {
  describe(`the database writer on ${name}`, () => {
    it('writes a page, records who and why, and the next read sees it', async () => {
      const db = await open();
      const setKey = freshSetKey('writer');
      const source = createDbSource({ db, setKey });
      const receipt = await source.writer.writePage(page, first, null, publish);
      expect(receipt.outcome).toBe('published');
      expect(receipt.docs_migration).toBeNull();
      const served = await source.getPage('current', 'en', page.path);
      expect(served?.contentHash).toBe(receipt.revision.content_hash);
      const [revision] = await listRevisions(db, setKey);
      expect(revision).toMatchObject({ author: 'agent:test', summary: 'Add routing', status: 'published' });
      expect(receipt.revision).toMatchObject({ id: revision!.id, kind: 'page', path: page.path });
    });

    it('reports a page stored under a path the page-path rule refuses, which can still be moved or deleted', async () => {
      const db = await open();
      const setKey = freshSetKey('writer_legacy_path');
      const source = createDbSource({ db, setKey });
      const bad = { version: 'current', locale: 'en', path: 'guides/a\nb' };
      const other = { version: 'current', locale: 'en', path: 'guides/\u202Eevil' };
      // Rows as a release before the rule could store them: written under good paths, renamed in SQL.
      for (const [target, text] of [
        [bad, first],
        [other, second],
      ] as const) {
        const stored = await source.writer.writePage({ ...target, path: 'guides/placeholder' }, text, null, publish);
        await db.orm
          .update(db.tables.pages)
          .set({ path: target.path })
          .where(and(eq(db.tables.pages.setKey, setKey), eq(db.tables.pages.path, 'guides/placeholder')));
        expect(stored.outcome).toBe('published');
      }
      const reported = (await source.problems!()).filter((problem) => problem.rule === 'source.page_path');
      expect(reported.map((problem) => problem.message)).toEqual(
        expect.arrayContaining([
          expect.stringContaining('"guides/a\\u{A}b" (current/en) breaks the page-path rule: it holds a line break'),
          expect.stringContaining('bidirectional control character (U+202E)'),
        ]),
      );
      const hash = (await source.getPage('current', 'en', bad.path))!.contentHash;
      await source.writer.movePage(bad, page, hash, { ...publish, tool: 'move_page' });
      await source.writer.deletePage(other, (await source.getPage('current', 'en', other.path))!.contentHash, {
        ...publish,
        tool: 'delete_page',
      });
      expect((await source.listPages('current', 'en')).map((listed) => listed.path)).toEqual([page.path]);
      expect((await source.problems!()).filter((problem) => problem.rule === 'source.page_path')).toEqual([]);
    });

    it('refuses a write whose expected hash is stale, asks to read again and writes nothing', async () => {
      const db = await open();
      const setKey = freshSetKey('writer_stale');
      const source = createDbSource({ db, setKey });
      const v1 = await source.writer.writePage(page, first, null, publish);
      await source.writer.writePage(page, second, v1.revision.content_hash, publish);
      const error = await rejection(source.writer.writePage(page, '# Late\n', v1.revision.content_hash, publish));
      expect(error.code).toBe('content.conflict');
      expect(error.message).toMatch(/read it again/i);
      expect((await source.getPage('current', 'en', page.path))?.body).toContain('Second version.');
      expect(await listRevisions(db, setKey)).toHaveLength(2);
    });

    it('refuses to create what already exists when expected is null', async () => {
      const db = await open();
      const setKey = freshSetKey('writer_exists');
      const { writer } = createDbSource({ db, setKey });
      await writer.writePage(page, first, null, publish);
      expect((await rejection(writer.writePage(page, second, null, publish))).code).toBe('content.conflict');
      const nav = '{"groups":[{"label":"Start","pages":["guides/routing"]}]}';
      await writer.writeNavigation(scope, nav, null, { ...publish, tool: 'update_navigation' });
      expect((await rejection(writer.writeNavigation(scope, nav, null, publish))).code).toBe('content.conflict');
      await writer.writeManifest('{"name":"Docs"}', null, { ...publish, tool: 'update_manifest' });
      expect((await rejection(writer.writeManifest('{"name":"Other"}', null, publish))).code).toBe('content.conflict');
      expect(await listRevisions(db, setKey)).toHaveLength(3);
    });

    it('records a draft without changing the live page, and checks drafts against expected too', async () => {
      const db = await open();
      const setKey = freshSetKey('writer_draft');
      const source = createDbSource({ db, setKey });
      const v1 = await source.writer.writePage(page, first, null, publish);
      const drafted = await source.writer.writePage(page, second, v1.revision.content_hash, draft);
      expect(drafted.outcome).toBe('drafted');
      expect(drafted.revision.id).toBeDefined();
      expect((await source.getPage('current', 'en', page.path))?.contentHash).toBe(v1.revision.content_hash);
      expect(await listRevisions(db, setKey, { status: 'draft' })).toHaveLength(1);
      expect((await rejection(source.writer.writePage(page, second, 'sha256:stale', draft))).code).toBe(
        'content.conflict',
      );
    });

    it('moves a page, refusing a taken target, and keeps the old page restorable', async () => {
      const db = await open();
      const setKey = freshSetKey('writer_move');
      const source = createDbSource({ db, setKey });
      const written = await source.writer.writePage(page, first, null, publish);
      const hash = written.revision.content_hash;
      await source.writer.writePage({ ...page, path: 'taken' }, second, null, publish);
      const move = { ...publish, tool: 'move_page' as const, summary: 'Move routing' };
      const taken = await rejection(source.writer.movePage(page, { ...page, path: 'taken' }, hash, move));
      expect(taken.code).toBe('page.exists');
      const moved = await source.writer.movePage(page, { ...page, path: 'basics/routing' }, hash, move);
      expect(moved.revision).toMatchObject({ path: 'basics/routing', content_hash: hash, summary: 'Move routing' });
      expect((await source.listPages('current', 'en')).map((p) => p.path)).toEqual(['basics/routing', 'taken']);
      await restorePage(db, setKey, page);
      expect((await source.getPage('current', 'en', page.path))?.contentHash).toBe(hash);
    });

    it('deletes a page that stays in the history and can be restored', async () => {
      const db = await open();
      const setKey = freshSetKey('writer_delete');
      const source = createDbSource({ db, setKey });
      const written = await source.writer.writePage(page, first, null, publish);
      const remove = { ...publish, tool: 'delete_page' as const };
      expect((await rejection(source.writer.deletePage(page, 'sha256:stale', remove))).code).toBe('content.conflict');
      const deleted = await source.writer.deletePage(page, written.revision.content_hash, remove);
      expect(deleted.outcome).toBe('published');
      expect(deleted.revision.content_hash).toBe(written.revision.content_hash);
      expect(await source.getPage('current', 'en', page.path)).toBeNull();
      await restorePage(db, setKey, page);
      expect((await source.getPage('current', 'en', page.path))?.contentHash).toBe(written.revision.content_hash);
    });

    it('tells watch listeners of this process about a change before the call returns, once', async () => {
      const db = await open();
      const setKey = freshSetKey('writer_watch');
      const source = createDbSource({ db, setKey, pollInterval: 20 });
      const heard: ContentChange[] = [];
      const stop = source.watch!((change) => heard.push(change));
      try {
        await source.writer.writePage(page, first, null, publish);
        expect(heard).toEqual([{ kind: 'page', version: 'current', locale: 'en', path: page.path }]);
        await source.writer.writePage(page, second, null, draft).catch(() => {});
        await new Promise((resolve) => setTimeout(resolve, 150));
        expect(heard).toHaveLength(1);
      } finally {
        stop();
      }
    });

    describe('with a docs migration', () => {
      it('writes published changes into one file per set and branch, appends to it, and leaves drafts out', async () => {
        const db = await open();
        const setKey = freshSetKey('writer_mig');
        const root = await tempRoot();
        const folder = join(root, 'migrations', 'docs');
        const source = createDbSource({ db, setKey, migrations: { folder, branch: 'feature/New Nav', root } });
        const v1 = await source.writer.writePage(page, first, null, publish);
        const [fileName] = await readdir(folder);
        expect(fileName).toMatch(new RegExp(`^\\d{4}_\\d{2}_\\d{2}_\\d{6}_${setKey}_feature-new-nav\\.json$`));
        const id = fileName!.slice(0, -'.json'.length);
        expect(v1.docs_migration).toEqual({ file: `migrations/docs/${fileName}`, id });
        expect(await isDocsMigrationApplied(db, setKey, id)).toBe(true);

        await source.writer.writePage(page, second, v1.revision.content_hash, draft);
        const v2 = await source.writer.writePage(page, second, v1.revision.content_hash, publish);
        await source.writer.deletePage(page, v2.revision.content_hash, { ...publish, tool: 'delete_page' });
        expect(await readdir(folder)).toEqual([fileName]);
        const document = JSON.parse(await readFile(join(folder, fileName!), 'utf8'));
        expect(document).toMatchObject({
          $schema: 'https://kit.dev/schemas/3.x/docs-migration.json',
          kit: 'docs-migration',
          set: setKey,
          branch: 'feature/New Nav',
        });
        expect(document.changes).toEqual([
          {
            op: 'write_page',
            ...page,
            text: first,
            based_on: null,
            content_hash: v1.revision.content_hash,
            summary: 'Add routing',
            author: 'agent:test',
            at: v1.revision.created_at,
          },
          expect.objectContaining({ op: 'write_page', text: second, based_on: v1.revision.content_hash }),
          expect.objectContaining({
            op: 'delete_page',
            ...page,
            based_on: v2.revision.content_hash,
            content_hash: v2.revision.content_hash,
          }),
        ]);
        expect((await appliedDocsMigrations(db, setKey)).map((m) => m.name)).toEqual([id]);
      });

      it('rolls the change back when the migration file cannot be written', async () => {
        const db = await open();
        const setKey = freshSetKey('writer_nofile');
        const root = await tempRoot();
        const folder = join(root, 'migrations');
        await writeFile(folder, 'not a folder');
        const source = createDbSource({ db, setKey, migrations: { folder, branch: 'main', root } });
        const error = await rejection(source.writer.writePage(page, first, null, publish));
        expect(error.message).toContain('Nothing was saved');
        expect(await source.getPage('current', 'en', page.path)).toBeNull();
        expect(await listRevisions(db, setKey)).toEqual([]);
        expect(await appliedDocsMigrations(db, setKey)).toEqual([]);
      });

      it('puts the file back as it was when the transaction fails to commit after writing it', async () => {
        const db = await open();
        const setKey = freshSetKey('writer_commit');
        const root = await tempRoot();
        const folder = join(root, 'migrations');
        const source = createDbSource({ db, setKey, migrations: { folder, branch: 'main', root } });
        const revisions = sql.raw(`"${db.tables.schema}"."${db.tables.names.revision}"`);
        const constraint = sql.raw(`"late_${setKey}"`);
        // Checked at commit, after the file was written: a second revision summarised "dup" fails there.
        await db.orm.execute(
          sql`ALTER TABLE ${revisions} ADD CONSTRAINT ${constraint} EXCLUDE USING btree (summary WITH =) WHERE (set_key = ${sql.raw(`'${setKey}'`)} AND summary = 'dup') DEFERRABLE INITIALLY DEFERRED`,
        );
        try {
          await source.writer.writePage(page, first, null, { ...publish, summary: 'dup' });
          const [fileName] = await readdir(folder);
          const before = await readFile(join(folder, fileName!), 'utf8');
          await expect(source.writer.writePage(page, second, null, { ...publish, summary: 'dup' })).rejects.toThrow();
          await expect(
            source.writer.writePage({ ...page, path: 'other' }, second, null, { ...publish, summary: 'dup' }),
          ).rejects.toThrow();
          expect(await readFile(join(folder, fileName!), 'utf8')).toBe(before);
          expect(await source.getPage('current', 'en', 'other')).toBeNull();
        } finally {
          await db.orm.execute(sql`ALTER TABLE ${revisions} DROP CONSTRAINT ${constraint}`);
        }
      });
    });
  });
}

writerSuite('PGlite', () => databases.pglite());

describe.skipIf(!databases.url)('on PostgreSQL (KIT_TEST_DATABASE_URL)', () => {
  writerSuite('PostgreSQL', () => databases.postgres());
});
