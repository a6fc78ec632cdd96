import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { isKitError } from '@kit/core';
import { sql } from 'drizzle-orm';
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { deleteAsset, writeAsset } from './asset-writes.js';
import { attachDatabase, openDatabase } from './database.js';
import { createDbSource } from './db-source.js';
import { createLocalDisk } from './disk.js';
import { appliedDocsMigrations, applyDocsMigration, isDocsMigrationApplied } from './docs-migrations.js';
import { createKitTables } from './schema/tables.js';
import { runInChildProcess } from './testing/child-process.js';
import { freshSetKey, testDatabases } from './testing/fixture.js';
import { writePage } from './writes.js';

const folders: string[] = [];
const temporaryFolder = () => {
  const folder = mkdtempSync(join(tmpdir(), 'kit-source-db-'));
  folders.push(folder);
  return folder;
};
const databases = testDatabases();
afterAll(async () => {
  await databases.dispose();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** Opens the data folder from another Node process: its error code and message, or the pages it sees. */
function openInChild(dataDir: string): Promise<Record<string, unknown>> {
  const script = `
    const { openDatabase, createDbSource } = await import(${JSON.stringify(new URL('./index.ts', import.meta.url).pathname)});
    try {
      const db = await openDatabase({ dataDir: ${JSON.stringify(dataDir)} });
      const pages = await createDbSource({ db, setKey: 'docs' }).listPages('current', 'en');
      await db.close();
      console.log(JSON.stringify({ pages: pages.length }));
    } catch (error) {
      console.log(JSON.stringify({ code: error.code, message: error.message }));
    }`;
  return runInChildProcess(script);
}

async function rows(db: Awaited<ReturnType<typeof openDatabase>>, query: string) {
  const result = await db.orm.execute(sql.raw(query));
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<Record<string, unknown>>;
}

describe('opening a docs database', () => {
  it('keeps an embedded database in its data folder across restarts', async () => {
    const dataDir = join(temporaryFolder(), '.kit', 'db');
    const first = await openDatabase({ dataDir });
    expect(first.driver).toBe('pglite');
    await writePage(first, 'docs', { version: 'current', locale: 'en', path: 'index', text: '# Kept\n' });
    await first.close();
    await first.close();

    const again = await openDatabase({ dataDir });
    try {
      expect((await createDbSource({ db: again, setKey: 'docs' }).getPage('current', 'en', 'index'))?.title).toBe(
        'Kept',
      );
    } finally {
      await again.close();
    }
  });

  it('refuses a second opener of a data folder, in this process or another, until the first closes', async () => {
    const dataDir = join(temporaryFolder(), 'db');
    const first = await openDatabase({ dataDir });
    try {
      const again = await openDatabase({ dataDir }).catch((e) => e);
      expect(isKitError(again, 'source.error')).toBe(true);
      expect(again.message).toContain(dataDir);

      const child = await openInChild(dataDir);
      expect(child).toMatchObject({ code: 'source.error' });
      expect(child.message).toContain(`in use by process ${process.pid}`);
      expect(child.message).toContain('postgres://');
      await writePage(first, 'docs', { version: 'current', locale: 'en', path: 'index', text: '# Still mine\n' });
    } finally {
      await first.close();
    }
    expect(existsSync(join(dataDir, 'kit.lock'))).toBe(false);
    expect(await openInChild(dataDir)).toEqual({ pages: 1 });
  });

  it('takes over a lock left behind by a process that is gone', async () => {
    const dataDir = join(temporaryFolder(), 'db');
    mkdirSync(dataDir, { recursive: true });
    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    writeFileSync(join(dataDir, 'kit.lock'), `${JSON.stringify({ pid: gone, host: hostname() })}\n`);
    const db = await openDatabase({ dataDir });
    try {
      expect(JSON.parse(readFileSync(join(dataDir, 'kit.lock'), 'utf8'))).toEqual({
        pid: process.pid,
        host: hostname(),
      });
    } finally {
      await db.close();
    }
  });

  it('adds the transaction column to a revision table an earlier release created, keeping its rows', async () => {
    const db = await databases.pglite();
    const tables = createKitTables({ schema: 'earlier_release' });
    const { migrateKitTables } = await import('./schema/migrate.js');
    await migrateKitTables(db.orm, tables);
    await db.orm.execute(sql.raw('ALTER TABLE earlier_release.kit_revisions DROP COLUMN txid'));
    await db.orm.execute(
      sql.raw(
        `INSERT INTO earlier_release.kit_revisions (set_key, kind, action, content_hash) VALUES ('docs', 'manifest', 'write', 'sha256:old')`,
      ),
    );
    await migrateKitTables(db.orm, tables);
    const earlier = { ...db, tables };
    const source = createDbSource({ db: earlier, setKey: 'docs', pollInterval: 10 });
    const heard: unknown[] = [];
    const stop = source.watch!((change) => heard.push(change));
    try {
      await writePage(earlier, 'docs', { version: 'current', locale: 'en', path: 'index', text: '# New\n' });
      await vi.waitFor(() =>
        expect(heard).toEqual([{ kind: 'page', version: 'current', locale: 'en', path: 'index' }]),
      );
    } finally {
      stop();
    }
    const stored = await rows(
      db,
      'SELECT content_hash, txid IS NULL AS old FROM earlier_release.kit_revisions ORDER BY id',
    );
    expect(stored).toEqual([
      { content_hash: 'sha256:old', old: true },
      { content_hash: expect.stringMatching(/^sha256:/), old: false },
    ]);
  });

  it('creates its tables idempotently under the names models.* gives', async () => {
    const db = await databases.pglite();
    const tables = createKitTables({ models: { page: 'app_docs_pages', revision: 'app_docs_history' } });
    const { migrateKitTables } = await import('./schema/migrate.js');
    await migrateKitTables(db.orm, tables);
    await migrateKitTables(db.orm, tables);
    const custom = { ...db, tables };
    await writePage(custom, 'docs', { version: 'current', locale: 'en', path: 'index', text: '# Custom\n' });
    expect(await rows(db, 'SELECT path FROM app_docs_pages')).toEqual([{ path: 'index' }]);
    expect(await rows(db, 'SELECT kind FROM app_docs_history')).toEqual([{ kind: 'page' }]);
    expect(await rows(db, `SELECT count(*)::int AS n FROM kit_pages WHERE set_key = 'docs'`)).toEqual([{ n: 0 }]);
  });

  it("accepts an application's own drizzle table and names the columns it lacks", async () => {
    const db = await databases.pglite();
    await db.orm.execute(sql.raw('CREATE TABLE app_assets (id serial PRIMARY KEY, set_key text, name text)'));
    const appAssets = pgTable('app_assets', { id: integer('id'), setKey: text('set_key'), name: text('name') });
    const { migrateKitTables } = await import('./schema/migrate.js');
    const error = await migrateKitTables(db.orm, createKitTables({ models: { asset: appAssets } })).catch((e) => e);
    expect(isKitError(error, 'config.invalid')).toBe(true);
    expect(error.message).toContain('models.asset');
    expect(error.message).toContain('content_hash, size, bytes, disk, disk_path, updated_at');
  });

  it("asks for the txid column, with the statement to add it, on an application's revision table without it", async () => {
    const db = await databases.pglite();
    await db.orm.execute(
      sql.raw(
        `CREATE TABLE app_history (id bigserial PRIMARY KEY, set_key text NOT NULL, kind text NOT NULL, action text NOT NULL, version text, locale text, path text, content_hash text NOT NULL, snapshot text, based_on text, summary text, author text, status text NOT NULL DEFAULT 'published', created_at timestamptz NOT NULL DEFAULT now())`,
      ),
    );
    const { migrateKitTables } = await import('./schema/migrate.js');
    const tables = createKitTables({ models: { revision: 'app_history' } });
    const error = await migrateKitTables(db.orm, tables).catch((e) => e);
    expect(isKitError(error, 'config.invalid')).toBe(true);
    expect(error.message).toContain('lacks the column txid');
    const statement = /ALTER TABLE .+ DEFAULT \(pg_current_xact_id\(\)::text::bigint\)/.exec(error.message)![0];
    await db.orm.execute(sql.raw(statement));
    await migrateKitTables(db.orm, tables);
  });

  it('adopts a drizzle database the application opened, leaving its connection open', async () => {
    const db = await databases.pglite();
    const attached = await attachDatabase(db.orm, { schema: 'app_docs', driver: 'pglite' });
    await writePage(attached, 'docs', { version: 'current', locale: 'en', path: 'index', text: '# Attached\n' });
    await attached.close();
    expect(await rows(db, 'SELECT title FROM app_docs.kit_pages')).toEqual([{ title: 'Attached' }]);
  });

  it('refuses table names and URLs it cannot use, saying what to write instead', async () => {
    expect(() => createKitTables({ models: { page: 'pages; DROP TABLE x' } })).toThrow(/not a usable PostgreSQL name/);
    const error = await openDatabase({ url: 'mysql://localhost/docs' }).catch((e) => e);
    expect(isKitError(error, 'config.invalid')).toBe(true);
    expect(error.message).toContain('postgres://');
  });

  it('stores assets on a disk when given one, and reports assets whose disk the set lacks', async () => {
    const db = await databases.pglite();
    const setKey = freshSetKey('disk');
    const disk = createLocalDisk({ root: temporaryFolder() });
    const logo = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 255]);
    const written = await writeAsset(db, setKey, { name: 'images/logo.png', content: logo }, { disk });
    expect(written.revision).toMatchObject({
      kind: 'asset',
      path: 'images/logo.png',
      contentHash: written.contentHash,
    });
    const withDisk = createDbSource({ db, setKey, disks: { local: disk } });
    expect(Array.from((await withDisk.readAsset('images/logo.png'))!)).toEqual(Array.from(logo));
    expect(await withDisk.problems!()).toEqual([]);

    const withoutDisk = createDbSource({ db, setKey });
    expect(await withoutDisk.readAsset('images/logo.png')).toBeNull();
    expect(await withoutDisk.problems!()).toEqual([
      expect.objectContaining({ rule: 'assets.missing', severity: 'error' }),
    ]);

    await deleteAsset(db, setKey, 'images/logo.png');
    expect(await withDisk.readAsset('images/logo.png')).toBeNull();
  });

  it('applies a docs migration once, with its writes in the same transaction', async () => {
    const db = await databases.pglite();
    const setKey = freshSetKey('migration');
    const name = '2025_01_10_120000_add_index';
    const write = (tx: typeof db) =>
      writePage(tx, setKey, { version: 'current', locale: 'en', path: 'index', text: '# Hi\n' }).then(() => {});
    expect(await applyDocsMigration(db, setKey, name, write)).toBe(true);
    expect(await applyDocsMigration(db, setKey, name, write)).toBe(false);
    expect(await isDocsMigrationApplied(db, setKey, name)).toBe(true);
    expect((await appliedDocsMigrations(db, setKey)).map((m) => m.name)).toEqual([name]);

    const failing = '2025_01_11_000000_broken';
    await expect(
      applyDocsMigration(db, setKey, failing, async (tx) => {
        await writePage(tx, setKey, { version: 'current', locale: 'en', path: 'broken', text: '# Half\n' });
        throw new Error('the migration failed');
      }),
    ).rejects.toThrow('the migration failed');
    expect(await isDocsMigrationApplied(db, setKey, failing)).toBe(false);
    expect(await createDbSource({ db, setKey }).getPage('current', 'en', 'broken')).toBeNull();
  });
});

describe.skipIf(!databases.url)('on PostgreSQL (KIT_TEST_DATABASE_URL)', () => {
  it('creates the tables in their own schema and reopens over them without change', async () => {
    const db = await databases.postgres();
    expect(db.driver).toBe('postgres');
    const again = await openDatabase({ url: databases.url!, schema: databases.schema });
    try {
      const names = await rows(
        again,
        `SELECT table_name FROM information_schema.tables WHERE table_schema = '${databases.schema}' ORDER BY table_name`,
      );
      expect(names.map((row) => row.table_name)).toEqual([
        'kit_assets',
        'kit_docs_migrations',
        'kit_manifests',
        'kit_navigations',
        'kit_pages',
        'kit_revisions',
      ]);
    } finally {
      await again.close();
    }
  });

  it('says it cannot connect, and how to fix it, when the server is not there', async () => {
    const error = await openDatabase({ url: 'postgres://postgres@127.0.0.1:1/none' }).catch((e) => e);
    expect(isKitError(error, 'source.error')).toBe(true);
    expect(error.message).toMatch(/Check the connection URL/);
  });
});
