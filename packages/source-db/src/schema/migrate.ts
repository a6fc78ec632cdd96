import { KitError } from '@kit/core';
import { type SQL, sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { type KitTables, MODEL_NAMES, type ModelName, REVISION_STATUSES } from './tables.js';

// biome-ignore lint/suspicious/noExplicitAny: drizzle's node-postgres and PGlite databases differ only in their result type.
export type AnyPgDatabase = PgDatabase<PgQueryResultHKT, any>;

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Column names each model's table must have; an application's own table may add more. */
const REQUIRED_COLUMNS: Record<ModelName, string[]> = {
  page: [
    'id',
    'set_key',
    'version',
    'locale',
    'path',
    'document',
    'frontmatter',
    'body',
    'title',
    'description',
    'content_hash',
    'visibility',
    'body_line',
    'problems',
    'updated_at',
    'updated_by',
    'deleted_at',
  ],
  navigation: ['id', 'set_key', 'version', 'locale', 'tree', 'content_hash', 'updated_at', 'updated_by'],
  manifest: ['id', 'set_key', 'document', 'content_hash', 'updated_at', 'updated_by'],
  revision: [
    'id',
    'set_key',
    'kind',
    'action',
    'version',
    'locale',
    'path',
    'content_hash',
    'snapshot',
    'based_on',
    'summary',
    'author',
    'status',
    'created_at',
    'txid',
  ],
  asset: ['id', 'set_key', 'name', 'content_hash', 'size', 'bytes', 'disk', 'disk_path', 'updated_at'],
  docs_migration: ['id', 'set_key', 'name', 'applied_at'],
};

/** The revision statuses the table accepts; a table made before drafts could be decided accepts fewer (see widenRevisionStatus). */
const STATUS_CHECK = `status IN (${REVISION_STATUSES.map((status) => `'${status}'`).join(', ')})`;

/** The writing transaction's id, as a revision records it (PostgreSQL 13 or later). */
const TXID_DEFAULT = '(pg_current_xact_id()::text::bigint)';

function txidStatements(tables: KitTables): string[] {
  const table = `${quote(tables.schema)}.${quote(tables.names.revision)}`;
  return [
    `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS txid bigint`,
    `ALTER TABLE ${table} ALTER COLUMN txid SET DEFAULT ${TXID_DEFAULT}`,
  ];
}

function createStatements(tables: KitTables): string[] {
  const t = (model: ModelName) => `${quote(tables.schema)}.${quote(tables.names[model])}`;
  const ix = (model: ModelName, suffix: string) => quote(`${tables.names[model]}_${suffix}`);
  return [
    `CREATE SCHEMA IF NOT EXISTS ${quote(tables.schema)}`,
    `CREATE TABLE IF NOT EXISTS ${t('page')} (
      id bigserial PRIMARY KEY,
      set_key text NOT NULL,
      version text NOT NULL,
      locale text NOT NULL,
      path text NOT NULL,
      document text NOT NULL,
      frontmatter jsonb NOT NULL DEFAULT '{}'::jsonb,
      body text NOT NULL,
      title text NOT NULL,
      description text,
      content_hash text NOT NULL,
      visibility text NOT NULL DEFAULT 'public',
      body_line integer NOT NULL DEFAULT 1,
      problems jsonb NOT NULL DEFAULT '[]'::jsonb,
      updated_at timestamptz NOT NULL DEFAULT now(),
      updated_by text,
      deleted_at timestamptz
    )`,
    // Unique among live pages only: a deleted page keeps its row (and history) while a new page takes the path.
    `CREATE UNIQUE INDEX IF NOT EXISTS ${ix('page', 'live_path')} ON ${t('page')} (set_key, version, locale, path) WHERE deleted_at IS NULL`,
    `CREATE TABLE IF NOT EXISTS ${t('navigation')} (
      id bigserial PRIMARY KEY,
      set_key text NOT NULL,
      version text NOT NULL,
      locale text NOT NULL,
      tree json NOT NULL,
      content_hash text NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      updated_by text
    )`,
    `CREATE UNIQUE INDEX IF NOT EXISTS ${ix('navigation', 'scope')} ON ${t('navigation')} (set_key, version, locale)`,
    `CREATE TABLE IF NOT EXISTS ${t('manifest')} (
      id bigserial PRIMARY KEY,
      set_key text NOT NULL,
      document text NOT NULL,
      content_hash text NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      updated_by text
    )`,
    `CREATE UNIQUE INDEX IF NOT EXISTS ${ix('manifest', 'set')} ON ${t('manifest')} (set_key)`,
    `CREATE TABLE IF NOT EXISTS ${t('revision')} (
      id bigserial PRIMARY KEY,
      set_key text NOT NULL,
      kind text NOT NULL CHECK (kind IN ('page', 'navigation', 'manifest', 'asset')),
      action text NOT NULL CHECK (action IN ('write', 'delete', 'restore')),
      version text,
      locale text,
      path text,
      content_hash text NOT NULL,
      snapshot text,
      based_on text,
      summary text,
      author text,
      status text NOT NULL DEFAULT 'published' CONSTRAINT ${quote(`${tables.names.revision}_status_check`)} CHECK (${STATUS_CHECK}),
      created_at timestamptz NOT NULL DEFAULT now(),
      txid bigint DEFAULT ${TXID_DEFAULT}
    )`,
    // A revision table created before txid existed gets it; its old rows keep null.
    ...txidStatements(tables),
    `CREATE INDEX IF NOT EXISTS ${ix('revision', 'subject')} ON ${t('revision')} (set_key, kind, version, locale, path, id)`,
    `CREATE INDEX IF NOT EXISTS ${ix('revision', 'set_id')} ON ${t('revision')} (set_key, id)`,
    // Watchers read a set's revisions by the transaction that wrote them.
    `CREATE INDEX IF NOT EXISTS ${ix('revision', 'set_txid')} ON ${t('revision')} (set_key, txid)`,
    `CREATE TABLE IF NOT EXISTS ${t('asset')} (
      id bigserial PRIMARY KEY,
      set_key text NOT NULL,
      name text NOT NULL,
      content_hash text NOT NULL,
      size integer NOT NULL,
      bytes bytea,
      disk text,
      disk_path text,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE UNIQUE INDEX IF NOT EXISTS ${ix('asset', 'name')} ON ${t('asset')} (set_key, name)`,
    `CREATE TABLE IF NOT EXISTS ${t('docs_migration')} (
      id bigserial PRIMARY KEY,
      set_key text NOT NULL,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE UNIQUE INDEX IF NOT EXISTS ${ix('docs_migration', 'name')} ON ${t('docs_migration')} (set_key, name)`,
  ];
}

/** The SQL that creates Kit's tables when they are missing, statement by statement. */
export function migrationStatements(tables: KitTables): string[] {
  return createStatements(tables).map((statement) => statement.replace(/\n\s+/g, ' ').replace(/\(\s/g, '('));
}

/**
 * Creates Kit's tables (and the schema) when they are missing, and checks that tables the
 * application supplied through `models.*` have every column Kit reads and writes. Idempotent and
 * safe when several processes start at once: the statements run under a transaction-scoped
 * advisory lock.
 */
export async function migrateKitTables(db: AnyPgDatabase, tables: KitTables): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`kit:migrate:${tables.schema}`}))`);
    const [addTxid, ...txidRest] = txidStatements(tables);
    for (const statement of migrationStatements(tables)) {
      if (txidRest.includes(statement)) continue;
      if (statement !== addTxid) await tx.execute(sql.raw(statement));
      // An application's own table is checked, not changed; the txid index below needs the column.
      else if (tables.custom.includes('revision')) await checkColumns(tx, tables, 'revision');
      else await addRevisionTxid(tx, tables);
    }
    if (!tables.custom.includes('revision')) await widenRevisionStatus(tx, tables);
  });
  for (const model of tables.custom) await checkColumns(db, tables, model);
}

/**
 * Adds `txid` to a revision table created before it existed. Looked up first: ALTER TABLE takes
 * an exclusive lock even when the column is there, which would stall readers behind any long
 * transaction on every start. Old rows keep null; new rows get the writing transaction's id.
 */
async function addRevisionTxid(tx: AnyPgDatabase, tables: KitTables): Promise<void> {
  const present = await columnsOf(tx, tables, 'revision');
  if (present.has('txid')) return;
  for (const statement of txidStatements(tables)) await tx.execute(sql.raw(statement));
}

/**
 * Lets a revision table made before drafts could be decided hold `applied` and `discarded`: its
 * status check is replaced. Looked up first, like txid, so a current table takes no lock.
 */
async function widenRevisionStatus(tx: AnyPgDatabase, tables: KitTables): Promise<void> {
  const table = `${quote(tables.schema)}.${quote(tables.names.revision)}`;
  const result = await tx.execute(
    sql`SELECT conname, pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conrelid = ${table}::regclass AND contype = 'c'` as SQL,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{
    conname: string;
    definition: string;
  }>;
  const narrow = rows.filter((row) => row.definition.includes('status') && !row.definition.includes('discarded'));
  if (narrow.length === 0) return;
  for (const row of narrow) await tx.execute(sql.raw(`ALTER TABLE ${table} DROP CONSTRAINT ${quote(row.conname)}`));
  await tx.execute(
    sql.raw(
      `ALTER TABLE ${table} ADD CONSTRAINT ${quote(`${tables.names.revision}_status_check`)} CHECK (${STATUS_CHECK})`,
    ),
  );
}

async function columnsOf(db: AnyPgDatabase, tables: KitTables, model: ModelName): Promise<Set<string>> {
  const result = await db.execute(
    sql`SELECT column_name FROM information_schema.columns WHERE table_schema = ${tables.schema} AND table_name = ${tables.names[model]}` as SQL,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: Array<{ column_name: string }> }).rows) as Array<{
    column_name: string;
  }>;
  return new Set(rows.map((row) => row.column_name));
}

async function checkColumns(db: AnyPgDatabase, tables: KitTables, model: ModelName): Promise<void> {
  const present = await columnsOf(db, tables, model);
  const missing = REQUIRED_COLUMNS[model].filter((column) => !present.has(column));
  if (missing.length > 0) {
    const table = `${quote(tables.schema)}.${quote(tables.names[model])}`;
    // txid needs its default too, or watchers never see the revisions: spell the statement out.
    const txid = missing.includes('txid')
      ? ` For txid run: ALTER TABLE ${table} ADD COLUMN txid bigint DEFAULT ${TXID_DEFAULT}.`
      : '';
    throw new KitError(
      'config.invalid',
      `The table "${tables.names[model]}" given as models.${model} lacks the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}. Add ${missing.length > 1 ? 'them' : 'it'} (see Kit's own "${model}" table for types), or drop models.${model} to use Kit's table.${txid}`,
    );
  }
}

export { MODEL_NAMES, REQUIRED_COLUMNS };
