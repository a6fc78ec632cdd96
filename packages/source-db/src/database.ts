import { KitError } from '@kit/core';
import { loadOptionalPeer } from '@kit/core/node';
import { type KitDatabase, prepare } from './kit-database.js';
import type { AnyPgDatabase } from './schema/migrate.js';
import type { TableOptions } from './schema/tables.js';

export type { KitDatabase } from './kit-database.js';

/** Options of {@link openDatabase}. */
export interface OpenDatabaseOptions extends TableOptions {
  /** A `postgres://` (or `postgresql://`) URL; without one the set runs on embedded PGlite. */
  url?: string | null;
  /** Folder where PGlite keeps its files (e.g. `<root>/.kit/db`); absent: in memory. Ignored with `url`. */
  dataDir?: string | null;
  /** Most connections the `pg` pool opens. @default 10 */
  maxConnections?: number;
}

/**
 * Opens the database of a database set and creates Kit's tables when missing. A connection with a
 * URL uses PostgreSQL through `pg`; one without runs embedded PGlite, in memory or stored at
 * `dataDir`, so a database set works with no server. The driver modules load only when used.
 *
 * @example
 * const db = await openDatabase({ dataDir: join(root, '.kit/db') });
 * const source = createDbSource({ db, setKey: 'docs' });
 * // ...
 * await db.close();
 */
export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<KitDatabase> {
  const url = options.url?.trim();
  if (url) {
    if (!/^postgres(?:ql)?:\/\//i.test(url)) {
      throw new KitError(
        'config.invalid',
        `The database URL must start with postgres:// or postgresql:// (got "${url.split(':')[0]}:..."). Fix connections.*.url, or remove it to use embedded PGlite.`,
      );
    }
    const { openPostgres } = await loadOptionalPeer(() => import('./pg.js'), 'pg', 'A PostgreSQL connection (a url)');
    return openPostgres({ ...options, url });
  }
  const { openPglite } = await loadOptionalPeer(
    () => import('./pglite.js'),
    '@electric-sql/pglite',
    'The embedded database (a connection without a url)',
  );
  return openPglite(options);
}

/**
 * Wraps a drizzle database the application already opened, creating Kit's tables in it.
 * `close` here does nothing: the application owns the connection.
 */
export async function attachDatabase(
  orm: AnyPgDatabase,
  options: TableOptions & { driver?: 'postgres' | 'pglite' } = {},
): Promise<KitDatabase> {
  return prepare(orm, options.driver ?? 'postgres', options, async () => {});
}
