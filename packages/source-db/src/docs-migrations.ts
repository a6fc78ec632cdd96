import { and, asc, eq } from 'drizzle-orm';
import type { KitDatabase } from './database.js';

/** A docs migration that ran against a database set. */
export interface DocsMigrationRecord {
  name: string;
  appliedAt: string;
}

/** The docs migrations applied to a set, oldest first, so a runner applies only the others. */
export async function appliedDocsMigrations(db: KitDatabase, setKey: string): Promise<DocsMigrationRecord[]> {
  const m = db.tables.docsMigrations;
  const rows = await db.orm
    .select({ name: m.name, appliedAt: m.appliedAt })
    .from(m)
    .where(eq(m.setKey, setKey))
    .orderBy(asc(m.appliedAt), asc(m.id));
  return rows.map((row) => ({ name: row.name, appliedAt: new Date(row.appliedAt).toISOString() }));
}

/**
 * Runs `apply` (handed the database bound to the migration's transaction) and records the docs migration `name` as applied, in one transaction, unless it was
 * applied already. Returns whether it ran. Two processes racing on one migration: one applies it,
 * the other waits on the row lock and then skips it.
 *
 * @example
 * await applyDocsMigration(db, 'docs', '2025_01_10_120000_add_routing_page', (tx) => writePage(tx, 'docs', page));
 */
export async function applyDocsMigration(
  db: KitDatabase,
  setKey: string,
  name: string,
  apply: (db: KitDatabase) => Promise<void>,
): Promise<boolean> {
  const m = db.tables.docsMigrations;
  return db.orm.transaction(async (tx) => {
    const inserted = await tx.insert(m).values({ setKey, name }).onConflictDoNothing().returning({ id: m.id });
    if (inserted.length === 0) return false;
    // Kit's write functions given this handle nest inside the migration's transaction (savepoints).
    await apply({ ...db, orm: tx, close: async () => {} });
    return true;
  });
}

/** Whether a docs migration has been applied to a set. */
export async function isDocsMigrationApplied(db: KitDatabase, setKey: string, name: string): Promise<boolean> {
  const m = db.tables.docsMigrations;
  const rows = await db.orm
    .select({ id: m.id })
    .from(m)
    .where(and(eq(m.setKey, setKey), eq(m.name, name)));
  return rows.length > 0;
}
