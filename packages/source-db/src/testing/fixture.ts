import { PGlite } from '@electric-sql/pglite';
import { KitError } from '@kit/core';
import type { SourceFixture } from '@kit/core/testing';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { expect } from 'vitest';
import { writeAsset } from '../asset-writes.js';
import { type KitDatabase, openDatabase } from '../database.js';
import { prepare } from '../kit-database.js';
import { writeManifest, writeNavigation, writePage } from '../writes.js';

/** Stores a contract fixture as a database set through the public write functions. */
export async function writeFixture(db: KitDatabase, setKey: string, fixture: SourceFixture): Promise<void> {
  if (fixture.manifest !== undefined) {
    await writeManifest(
      db,
      setKey,
      typeof fixture.manifest === 'string' ? { text: fixture.manifest } : { manifest: fixture.manifest },
    );
  }
  for (const page of fixture.pages) await writePage(db, setKey, page);
  for (const navigation of fixture.navigation ?? []) await writeNavigation(db, setKey, navigation);
  for (const skill of fixture.skills ?? []) {
    await writeAsset(db, setKey, { name: `skills/${skill.name}.md`, content: skill.content });
  }
  for (const asset of fixture.assets ?? []) await writeAsset(db, setKey, asset);
}

let counter = 0;

/** A set key no other test of this process uses, so tests share one database without meeting. */
export function freshSetKey(prefix = 'set'): string {
  counter += 1;
  return `${prefix}_${counter}`;
}

/**
 * A schema no test creates: connections whose `search_path` names it find no table by an
 * unqualified name, so a statement that forgets the schema of Kit's tables fails.
 */
export const NOWHERE_SCHEMA = 'kit_test_nowhere';

/** `url` with the connection's `search_path` set to {@link NOWHERE_SCHEMA}. */
export function searchingNowhere(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('options', `-c search_path=${NOWHERE_SCHEMA}`);
  return parsed.toString();
}

/** Embedded PGlite with Kit's tables in `schema` and a `search_path` that does not lead there. */
async function openPgliteElsewhere(schema: string): Promise<KitDatabase> {
  const client = await PGlite.create();
  // PGlite is one connection: the setting holds for every later statement.
  await client.exec(`SET search_path TO ${NOWHERE_SCHEMA}`);
  return prepare(drizzle({ client }), 'pglite', { schema }, () => client.close());
}

/**
 * The databases a test file runs on: PGlite in memory always (in `public`, and with
 * `pgliteElsewhere` in a schema of its own), PostgreSQL when `KIT_TEST_DATABASE_URL` is set, there
 * in a schema of its own that `dispose` drops, so parallel runs never meet. Outside `public` the
 * connection's `search_path` leads nowhere, so every statement must name the schema.
 */
export function testDatabases() {
  const url = process.env.KIT_TEST_DATABASE_URL;
  const schema = `kit_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  let pglite: Promise<KitDatabase> | null = null;
  let elsewhere: Promise<KitDatabase> | null = null;
  let postgres: Promise<KitDatabase> | null = null;
  return {
    url,
    schema,
    pglite: () => (pglite ??= openDatabase()),
    pgliteElsewhere: () => (elsewhere ??= openPgliteElsewhere(schema)),
    postgres: () => (postgres ??= openDatabase({ url: searchingNowhere(url!), schema })),
    async dispose() {
      if (pglite) await (await pglite).close();
      if (elsewhere) await (await elsewhere).close();
      if (postgres) {
        const db = await postgres;
        await db.orm.execute(sql.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
        await db.close();
      }
      pglite = null;
      elsewhere = null;
      postgres = null;
    },
  };
}

/** The KitError a call is refused with; fails the test when the call goes through. */
export async function rejection(promise: Promise<unknown>): Promise<KitError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error, 'the call is refused').toBeInstanceOf(KitError);
  return error as KitError;
}
