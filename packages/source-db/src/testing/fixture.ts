import { KitError } from '@kit/core';
import type { SourceFixture } from '@kit/core/testing';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { writeAsset } from '../asset-writes.js';
import type { KitDatabase } from '../database.js';
import { openDatabase } from '../database.js';
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
 * The databases a test file runs on: PGlite in memory always, PostgreSQL when
 * `KIT_TEST_DATABASE_URL` is set, there in a schema of its own that `dispose` drops, so parallel
 * runs never meet.
 */
export function testDatabases() {
  const url = process.env.KIT_TEST_DATABASE_URL;
  const schema = `kit_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  let pglite: Promise<KitDatabase> | null = null;
  let postgres: Promise<KitDatabase> | null = null;
  return {
    url,
    schema,
    pglite: () => (pglite ??= openDatabase()),
    postgres: () => (postgres ??= openDatabase({ url: url!, schema })),
    async dispose() {
      if (pglite) await (await pglite).close();
      if (postgres) {
        const db = await postgres;
        await db.orm.execute(sql.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
        await db.close();
      }
      pglite = null;
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
