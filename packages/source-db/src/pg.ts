import { KitError } from '@kit/core';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { type KitDatabase, prepare } from './kit-database.js';
import type { TableOptions } from './schema/tables.js';

/** Options of {@link openPostgres}. */
export interface OpenPostgresOptions extends TableOptions {
  /** `postgres://user@host:5432/database` */
  url: string;
  /** Most connections the pool opens. @default 10 */
  maxConnections?: number;
  /**
   * Longest wait for a new connection before the request is answered `database.unavailable`, in
   * milliseconds. @default 5000
   */
  connectTimeoutMs?: number;
}

/**
 * Opens a PostgreSQL database through a `pg` pool and creates Kit's tables when missing.
 *
 * @example
 * import { openPostgres } from '@kit/source-db/pg';
 * const db = await openPostgres({ url: process.env.DATABASE_URL! });
 */
export async function openPostgres(options: OpenPostgresOptions): Promise<KitDatabase> {
  const pool = new KitPool({
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    // A server gone without a word (failover, a cut network) is noticed rather than waited on forever.
    keepAlive: true,
  });
  // A connection the server ends (restart, failover, pg_terminate_backend, an idle-connection
  // killer) must never end the process: the query in flight is rejected (and answered
  // `database.unavailable`), the pool drops the broken client and connects anew on the next query.
  // Idle clients report here; checked-out ones in KitPool.
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

/** Clients whose connection failed: never handed to a caller again. */
const brokenClients = new WeakSet<pg.PoolClient>();

/**
 * A `pg` pool whose clients survive their connection being cut while checked out.
 *
 * Every client gets an 'error' listener for its whole life (pg emits 'error' on a checked-out
 * client whose server went away, and an unheard 'error' ends the process). A client checked out
 * through `connect()` (drizzle's transactions) gives its slot back by itself when its connection
 * fails, and its `release` may then be called again harmlessly: drizzle never releases a client
 * whose `BEGIN` failed, which would otherwise hold a pool slot for good, and after as many
 * failures as the pool has connections every request would wait for a slot that never frees.
 */
class KitPool extends pg.Pool {
  constructor(config: pg.PoolConfig) {
    super(config);
    this.on('connect', (client) => {
      client.on('error', () => {
        brokenClients.add(client);
      });
    });
  }

  // `pool.query` checks clients out with a callback and releases them itself; only the promise
  // form (drizzle's transactions, callers of the pool) gets the guarded client.
  override connect(): Promise<pg.PoolClient>;
  override connect(
    callback: (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): void;
  override connect(
    callback?: (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): Promise<pg.PoolClient> | undefined {
    if (!callback) return this.guardedClient();
    super.connect(callback);
    return undefined;
  }

  private async guardedClient(): Promise<pg.PoolClient> {
    for (;;) {
      const client = await super.connect();
      if (brokenClients.has(client)) {
        // Its connection failed on the way out of the pool: drop it and take another.
        client.release(new Error('Connection terminated'));
        continue;
      }
      const release = client.release.bind(client);
      let released = false;
      const giveBack = (error?: Error | boolean) => {
        if (released) return;
        released = true;
        client.off('error', onError);
        release(error);
      };
      const onError = (error: Error) => giveBack(error);
      client.on('error', onError);
      client.release = giveBack;
      return client;
    }
  }
}
