import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { attachDatabase, type KitDatabase, openDatabase } from './database.js';
import { createDbSource } from './db-source.js';
import { writeManifest, writePage } from './writes.js';

const url = process.env.KIT_TEST_DATABASE_URL;
const page = { version: 'current', locale: 'en', path: 'index', text: '# Placed\n' };

async function rows(db: KitDatabase, query: string) {
  const result = await db.orm.execute(sql.raw(query));
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<Record<string, unknown>>;
}

/** Writes and reads back through every kind of statement a set uses: the tables must be found wherever the connection looks. */
async function roundTrip(db: KitDatabase): Promise<unknown> {
  await writeManifest(db, 'docs', { text: '{ "name": "Placed" }\n' });
  await writePage(db, 'docs', page);
  const source = createDbSource({ db, setKey: 'docs' });
  return {
    title: (await source.getPage('current', 'en', 'index'))?.title,
    manifest: (await source.readManifest())?.text,
  };
}

const expected = { title: 'Placed', manifest: '{ "name": "Placed" }\n' };

describe('a connection whose search_path names another schema, on PGlite', () => {
  let client: PGlite | null = null;
  afterAll(async () => {
    await client?.close();
  });
  /** PGlite holds one connection, so a SET search_path stays for every later statement. */
  const elsewhere = async () => {
    if (!client) {
      client = await PGlite.create();
      await client.exec('CREATE SCHEMA other; SET search_path TO other');
    }
    return drizzle({ client });
  };

  it('keeps Kit’s tables in public, and finds them there, when no schema is configured', async () => {
    const db = await attachDatabase(await elsewhere(), { driver: 'pglite' });
    expect(await roundTrip(db)).toEqual(expected);
    expect(await rows(db, `SELECT count(*)::int AS n FROM public.kit_pages`)).toEqual([{ n: 1 }]);
    expect(await rows(db, `SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'other'`)).toEqual([{ n: 0 }]);
  });

  it('keeps them in the configured schema, creating it, whatever the search_path', async () => {
    const db = await attachDatabase(await elsewhere(), { driver: 'pglite', schema: 'docs_store' });
    expect(await roundTrip(db)).toEqual(expected);
    expect(await rows(db, `SELECT count(*)::int AS n FROM docs_store.kit_pages`)).toEqual([{ n: 1 }]);
  });
});

describe.skipIf(!url)(
  'a connection whose search_path names another schema, on PostgreSQL (KIT_TEST_DATABASE_URL)',
  () => {
    // A database of this file's own: the default case writes to its public schema, which no other test may share.
    const tag = `kit_placement_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const opened: KitDatabase[] = [];
    let admin: KitDatabase | null = null;
    const inOwnDatabase = (searchPath: string) => {
      const own = new URL(url!);
      own.pathname = `/${tag}`;
      own.searchParams.set('options', `-c search_path=${searchPath}`);
      return own.toString();
    };
    const open = async (options: { searchPath: string; schema?: string }) => {
      const db = await openDatabase({
        url: inOwnDatabase(options.searchPath),
        ...(options.schema ? { schema: options.schema } : {}),
      });
      opened.push(db);
      return db;
    };

    afterAll(async () => {
      for (const db of opened) await db.close();
      if (admin) {
        await admin.orm.execute(sql.raw(`DROP DATABASE IF EXISTS "${tag}" WITH (FORCE)`));
        await admin.orm.execute(sql.raw(`DROP SCHEMA IF EXISTS "${tag}" CASCADE`));
        await admin.close();
      }
    });

    it('runs migrate, writes and reads against public when the URL sets search_path=other', async () => {
      admin = await openDatabase({ url: url!, schema: tag });
      await admin.orm.execute(sql.raw(`CREATE DATABASE "${tag}"`));
      const setup = await open({ searchPath: 'public' });
      await setup.orm.execute(sql.raw('CREATE SCHEMA other'));

      const db = await open({ searchPath: 'other' });
      expect(await roundTrip(db)).toEqual(expected);
      expect(await rows(db, `SELECT count(*)::int AS n FROM public.kit_pages`)).toEqual([{ n: 1 }]);
      // Opening again migrates over the existing tables.
      const reopened = createDbSource({ db: await open({ searchPath: 'other' }), setKey: 'docs' });
      expect((await reopened.readManifest())?.text).toBe(expected.manifest);
    });

    it('keeps the tables in the configured schema when search_path names neither it nor public', async () => {
      const db = await open({ searchPath: 'nowhere', schema: 'docs_store' });
      expect(await roundTrip(db)).toEqual(expected);
      expect(await rows(db, `SELECT count(*)::int AS n FROM docs_store.kit_pages`)).toEqual([{ n: 1 }]);
    });
  },
);
