import { KitError } from '@kit/core';
import { type SQL, sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { type KitTables, MODEL_NAMES, type ModelName } from './tables.js';

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
  ],
  asset: ['id', 'set_key', 'name', 'content_hash', 'size', 'bytes', 'disk', 'disk_path', 'updated_at'],
  docs_migration: ['id', 'set_key', 'name', 'applied_at'],
};

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
      status text NOT NULL DEFAULT 'published' CHECK (status IN ('published', 'draft')),
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX IF NOT EXISTS ${ix('revision', 'subject')} ON ${t('revision')} (set_key, kind, version, locale, path, id)`,
    // Watchers poll a set's newest revisions by id.
    `CREATE INDEX IF NOT EXISTS ${ix('revision', 'set_id')} ON ${t('revision')} (set_key, id)`,
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
    for (const statement of migrationStatements(tables)) await tx.execute(sql.raw(statement));
  });
  for (const model of tables.custom) await checkColumns(db, tables, model);
}

async function checkColumns(db: AnyPgDatabase, tables: KitTables, model: ModelName): Promise<void> {
  const result = await db.execute(
    sql`SELECT column_name FROM information_schema.columns WHERE table_schema = ${tables.schema} AND table_name = ${tables.names[model]}` as SQL,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: Array<{ column_name: string }> }).rows) as Array<{
    column_name: string;
  }>;
  const present = new Set(rows.map((row) => row.column_name));
  const missing = REQUIRED_COLUMNS[model].filter((column) => !present.has(column));
  if (missing.length > 0) {
    throw new KitError(
      'config.invalid',
      `The table "${tables.names[model]}" given as models.${model} lacks the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}. Add ${missing.length > 1 ? 'them' : 'it'} (see Kit's own "${model}" table for types), or drop models.${model} to use Kit's table.`,
    );
  }
}

export { MODEL_NAMES, REQUIRED_COLUMNS };
