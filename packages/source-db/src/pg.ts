import { KitError } from '@kit/core';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { type KitDatabase, prepare } from './database.js';
import type { TableOptions } from './schema/tables.js';

/** Options of {@link openPostgres}. */
export interface OpenPostgresOptions extends TableOptions {
  /** `postgres://user@host:5432/database` */
  url: string;
  /** Most connections the pool opens. @default 10 */
  maxConnections?: number;
}

/**
 * Opens a PostgreSQL database through a `pg` pool and creates Kit's tables when missing.
 *
 * @example
 * import { openPostgres } from '@kit/source-db/pg';
 * const db = await openPostgres({ url: process.env.DATABASE_URL! });
 */
export async function openPostgres(options: OpenPostgresOptions): Promise<KitDatabase> {
  const pool = new pg.Pool({ connectionString: options.url, max: options.maxConnections ?? 10 });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => {});
    throw new KitError(
      'source.error',
      `Cannot connect to the docs database: ${(error as Error).message}. Check the connection URL and that PostgreSQL is running.`,
      { cause: error },
    );
  }
  return prepare(drizzle({ client: pool }), 'postgres', options, () => pool.end());
}
