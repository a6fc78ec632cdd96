// The handle every driver module returns, apart from `database.ts`, which loads the driver modules
// lazily: `pg.ts` and `pglite.ts` import this, never `database.ts`, so no module imports itself back.
import { type AnyPgDatabase, migrateKitTables } from './schema/migrate.js';
import { createKitTables, type KitTables, type TableOptions } from './schema/tables.js';

/**
 * An open docs database: a drizzle database over PostgreSQL (`pg`) or embedded PGlite, with Kit's
 * tables created and named. Hand it to {@link createDbSource} and the write functions.
 */
export interface KitDatabase {
  readonly driver: 'postgres' | 'pglite';
  /** The drizzle database; query Kit's tables through {@link KitDatabase.tables}. */
  readonly orm: AnyPgDatabase;
  readonly tables: KitTables;
  /** Ends the connection pool or shuts PGlite down. Safe to call twice. */
  close(): Promise<void>;
}

/** Creates the tables and returns the handle; closes the connection when that fails. */
export async function prepare(
  orm: AnyPgDatabase,
  driver: 'postgres' | 'pglite',
  options: TableOptions,
  end: () => Promise<void>,
): Promise<KitDatabase> {
  let closed: Promise<void> | null = null;
  const close = () => {
    closed ??= end();
    return closed;
  };
  try {
    const tables = createKitTables(options);
    await migrateKitTables(orm, tables);
    return { driver, orm, tables, close };
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}
