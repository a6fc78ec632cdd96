import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { lockDataDir } from './data-dir-lock.js';
import { type KitDatabase, prepare } from './kit-database.js';
import type { TableOptions } from './schema/tables.js';

/** Options of {@link openPglite}. */
export interface OpenPgliteOptions extends TableOptions {
  /** Folder for the database files, e.g. `<root>/.kit/db`; absent or null: in memory. */
  dataDir?: string | null;
}

/**
 * Opens embedded PGlite (PostgreSQL in WebAssembly, in this process) and creates Kit's tables when
 * missing. With `dataDir` the data survives restarts; without it the database lives in memory,
 * which suits tests and previews. A data folder is locked while open (`kit.lock` inside it): PGlite
 * serves one process, so a second opener is refused with `source.error` rather than left to
 * overwrite the first one's writes. Use PostgreSQL to share a database set between processes.
 *
 * @example
 * import { openPglite } from '@kit/source-db/pglite';
 * const db = await openPglite({ dataDir: '.kit/db' });
 */
export async function openPglite(options: OpenPgliteOptions = {}): Promise<KitDatabase> {
  if (!options.dataDir) {
    const client = await PGlite.create();
    return prepare(drizzle({ client }), 'pglite', options, () => client.close());
  }
  mkdirSync(options.dataDir, { recursive: true });
  const unlock = lockDataDir(options.dataDir);
  let client: PGlite;
  try {
    client = await PGlite.create(options.dataDir);
  } catch (error) {
    unlock();
    throw error;
  }
  return prepare(drizzle({ client }), 'pglite', options, async () => {
    try {
      await client.close();
    } finally {
      unlock();
    }
  });
}
