import { isKitError, KitError } from '@kit/core';
import { isPostgresSchemaName, POSTGRES_SCHEMA_NAME_RULE } from '@kit/core/internal';
import { loadOptionalPeer } from '@kit/core/node';
import type { PgBoss } from 'pg-boss';
import { DEFAULT_QUEUE_SCHEMA, describeUrl, type QueueConnection } from './connection.js';

/** The kinds of job a Kit queue carries; each has its own handler in `kit worker`. */
export type JobKind = 'sync';

/** Every job kind, in the order `kit worker` lists them. */
export const JOB_KINDS: readonly JobKind[] = ['sync'];

/**
 * The pg-boss queue holding one kind of job of one Kit queue. pg-boss keeps each of its queues in
 * a table partition of its own, with its own policy.
 */
export function engineQueueName(queue: string, kind: JobKind): string {
  return `kit/${queue}/${kind}`;
}

/** How an engine handle is opened: a worker supervises (expires stalled jobs), a client does not. */
export interface OpenEngineOptions {
  /** Run pg-boss's supervision: fail jobs whose worker went silent past their expiry, delete old ones. */
  supervise?: boolean;
  /** Seconds between looks for expired jobs (pg-boss runs one at a time across all workers). @default 30 */
  maintenanceIntervalSeconds?: number;
}

/**
 * Opens pg-boss on the queue's PostgreSQL (creating or migrating its schema) and makes sure the
 * pg-boss queue for `kind` exists with the `stately` policy: per singleton key at most one job
 * waiting and one running, which is how "one run per set and branch at a time" is kept.
 */
export async function openEngine(
  connection: QueueConnection,
  queue: string,
  kind: JobKind,
  options: OpenEngineOptions = {},
): Promise<PgBoss> {
  const schema = queueSchema(connection);
  const { PgBoss: PgBossClass } = await loadPgBoss();
  // pg-boss 12 fails expired jobs in its monitor pass, run every supervise interval for queues not
  // monitored within the monitor interval (its `maintenanceIntervalSeconds` only deletes old jobs).
  const superviseSeconds = options.maintenanceIntervalSeconds ?? 30;
  const boss = new PgBossClass({
    connectionString: connection.url,
    schema,
    application_name: 'kit-queue',
    max: 4,
    schedule: false,
    supervise: options.supervise === true,
    superviseIntervalSeconds: superviseSeconds,
    monitorIntervalSeconds: superviseSeconds,
  });
  // An EventEmitter without an 'error' listener throws; the caller attaches its own after opening.
  boss.on('error', () => {});
  const name = engineQueueName(queue, kind);
  let policy: string | undefined;
  try {
    await boss.start();
    await boss.createQueue(name, { policy: 'stately' });
    policy = (await boss.getQueue(name))?.policy;
  } catch (error) {
    await boss.stop({ graceful: false }).catch(() => {});
    const older = olderEngineSchema(error);
    if (older !== null) throw olderSchemaError(queue, schema, older, error);
    throw new KitError(
      'database.unavailable',
      `Cannot open queue \`${queue}\` on ${describeUrl(connection.url)}: ${error instanceof Error ? error.message : String(error)}. Check that PostgreSQL runs there and that the queue's connection url is right.`,
      { cause: error },
    );
  }
  if (policy !== 'stately') {
    await boss.stop({ graceful: false }).catch(() => {});
    // Made by something other than Kit: its jobs could overlap, so Kit will not use it.
    throw new KitError(
      'config.invalid',
      `The pg-boss queue \`${name}\` in schema \`${schema}\` has the policy \`${policy}\`, not \`stately\`, so it cannot keep one sync run per set and branch. Delete that pg-boss queue, or give the Kit queue another name in \`queues\`.`,
    );
  }
  return boss;
}

/** pg-boss 10's schema version, the last before pg-boss 11 rebuilt its tables without a migration. */
const PG_BOSS_10_SCHEMA_VERSION = 24;

/**
 * The schema version pg-boss refused to migrate from, when that is why it did not start. pg-boss
 * 11 and later cannot upgrade pg-boss 10's tables, and say so only in the error's text.
 */
function olderEngineSchema(error: unknown): number | null {
  const message = error instanceof Error ? error.message : '';
  const match = /Cannot migrate pg-boss schema from version (\d+)/.exec(message);
  return match ? Number(match[1]) : null;
}

/** What to do with a queue schema an older pg-boss made: finish its runs and drop it, or move on. */
function olderSchemaError(queue: string, schema: string, version: number, cause: unknown): KitError {
  const maker = version <= PG_BOSS_10_SCHEMA_VERSION ? 'pg-boss 10 or older' : 'an older pg-boss';
  return new KitError(
    'config.invalid',
    `Queue \`${queue}\` keeps its jobs in the schema \`${schema}\`, which ${maker} made (schema version ${version}); the pg-boss 12 that Kit now runs cannot upgrade it in place. Either let \`kit worker\` of your previous Kit release finish the runs waiting there and drop the schema (\`DROP SCHEMA ${schema} CASCADE\`; Kit creates it anew), or keep it as it is and give the queue a new schema in kit.config.ts (\`queues.${queue}.schema\`, e.g. \`'${schema}_v12'\`).`,
    { cause, details: { queue, schema, version } },
  );
}

/** Closes an engine handle opened by {@link openEngine}; active jobs are left to the caller. */
export async function closeEngine(boss: PgBoss): Promise<void> {
  // pg-boss 12 resolves stop() once its pool is closed and its timers are gone.
  await boss.stop({ graceful: false, close: true });
}

/**
 * The schema of a queue connection, checked: pg-boss writes it into its SQL unquoted, so it must
 * be a plain lower-case name (the rule `queues.*.schema` follows in the config).
 */
export function queueSchema(connection: QueueConnection): string {
  const schema = connection.schema ?? DEFAULT_QUEUE_SCHEMA;
  if (!isPostgresSchemaName(schema)) {
    throw new KitError(
      'config.invalid',
      `The queue schema must be ${POSTGRES_SCHEMA_NAME_RULE} (got ${JSON.stringify(schema)}). Fix \`queues.<name>.schema\`.`,
    );
  }
  return schema;
}

/**
 * pg-boss, an optional peer of `@kit/cli`: a project that queues no sync run installs neither it
 * nor its PostgreSQL driver.
 */
async function loadPgBoss(): Promise<{ PgBoss: typeof PgBoss }> {
  try {
    return await loadOptionalPeer(() => import('pg-boss'), 'pg-boss', 'A queued sync run');
  } catch (error) {
    if (!isKitError(error, 'config.invalid')) throw error;
    throw new KitError(
      'config.invalid',
      'Queued sync runs (kit sync --queue, kit sync --status, kit worker) need the package pg-boss 12, which is not installed. Add it to your project (npm install pg-boss@12, or pnpm add pg-boss@12) and start again.',
      { cause: error },
    );
  }
}
