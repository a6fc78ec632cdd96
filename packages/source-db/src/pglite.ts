import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { type KitDatabase, prepare } from './database.js';
import type { TableOptions } from './schema/tables.js';

/** Options of {@link openPglite}. */
export interface OpenPgliteOptions extends TableOptions {
  /** Folder for the database files, e.g. `<root>/.kit/db`; absent or null: in memory. */
  dataDir?: string | null;
}

/**
 * Opens embedded PGlite (PostgreSQL in WebAssembly, in this process) and creates Kit's tables when
 * missing. With `dataDir` the data survives restarts; without it the database lives in memory,
 * which suits tests and previews.
 *
 * @example
 * import { openPglite } from '@kit/source-db/pglite';
 * const db = await openPglite({ dataDir: '.kit/db' });
 */
export async function openPglite(options: OpenPgliteOptions = {}): Promise<KitDatabase> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = options.dataDir ? await PGlite.create(options.dataDir) : await PGlite.create();
  return prepare(drizzle({ client }), 'pglite', options, () => client.close());
}
