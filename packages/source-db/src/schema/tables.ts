import type { SourceProblem } from '@kit/core';
import { KitError } from '@kit/core';
import { sql } from 'drizzle-orm';
import { markKitTables } from './own-tables.js';
import {
  bigint,
  bigserial,
  customType,
  getTableConfig,
  index,
  integer,
  json,
  jsonb,
  PgSchema,
  type PgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** The six record kinds of a database set, named as the `models.*` configuration keys. */
export type ModelName = 'page' | 'navigation' | 'manifest' | 'revision' | 'asset' | 'docs_migration';

export const MODEL_NAMES: readonly ModelName[] = [
  'page',
  'navigation',
  'manifest',
  'revision',
  'asset',
  'docs_migration',
];

/** Kit's own table names, used for every model the configuration does not replace. */
export const DEFAULT_TABLE_NAMES: Readonly<Record<ModelName, string>> = {
  page: 'kit_pages',
  navigation: 'kit_navigations',
  manifest: 'kit_manifests',
  revision: 'kit_revisions',
  asset: 'kit_assets',
  docs_migration: 'kit_docs_migrations',
};

/**
 * What `models.*` may hold for one record kind: a table name, or a drizzle table of the
 * application's own whose columns are compatible with Kit's (same names and types).
 */
export type ModelOverride = string | PgTable;

/** Where Kit's tables live: a PostgreSQL schema (default `public`) and per-model table names. */
export interface TableOptions {
  /** PostgreSQL schema holding the tables. @default 'public' */
  schema?: string;
  /** Replacements for Kit's own tables, by record kind (`models.page`, ...). */
  models?: Partial<Record<ModelName, ModelOverride | null | undefined>>;
}

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  // pg hands bytea out as a Buffer, PGlite as a Uint8Array; callers see a plain Uint8Array either way.
  fromDriver: (value) => new Uint8Array(value.buffer, value.byteOffset, value.byteLength),
});

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

function checkIdentifier(name: string, what: string): string {
  if (!IDENTIFIER.test(name)) {
    throw new KitError(
      'config.invalid',
      `The ${what} "${name}" is not a usable PostgreSQL name. Use letters, digits and underscores (at most 63, not starting with a digit).`,
    );
  }
  return name;
}

// Built per schema and name so a test run or an application can place Kit's tables anywhere.
function defineTables(schemaName: string, names: Record<ModelName, string>) {
  // Every statement names the schema, `public` included: a connection whose search_path looks
  // elsewhere must still find the tables where the migration made them. (drizzle's pgSchema()
  // refuses 'public' only to steer drizzle-kit users to pgTable; the class itself takes it.)
  const table = new PgSchema(schemaName).table;

  const pages = table(
    names.page,
    {
      id: bigserial('id', { mode: 'number' }).primaryKey(),
      setKey: text('set_key').notNull(),
      version: text('version').notNull(),
      locale: text('locale').notNull(),
      path: text('path').notNull(),
      /** The page file as written (frontmatter block and body, LF line endings): what `content_hash` hashes. */
      document: text('document').notNull(),
      frontmatter: jsonb('frontmatter').$type<Record<string, unknown>>().notNull().default({}),
      body: text('body').notNull(),
      title: text('title').notNull(),
      description: text('description'),
      contentHash: text('content_hash').notNull(),
      visibility: text('visibility').$type<'public' | 'private'>().notNull().default('public'),
      bodyLine: integer('body_line').notNull().default(1),
      problems: jsonb('problems').$type<SourceProblem[]>().notNull().default([]),
      updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
      updatedBy: text('updated_by'),
      deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
    },
    (t) => [
      uniqueIndex(`${names.page}_live_path`).on(t.setKey, t.version, t.locale, t.path).where(sql`deleted_at IS NULL`),
    ],
  );

  const navigations = table(
    names.navigation,
    {
      id: bigserial('id', { mode: 'number' }).primaryKey(),
      setKey: text('set_key').notNull(),
      version: text('version').notNull(),
      locale: text('locale').notNull(),
      // json, not jsonb: PostgreSQL keeps json text as written, so the key order an author chose survives.
      tree: json('tree').$type<Record<string, unknown>>().notNull(),
      contentHash: text('content_hash').notNull(),
      updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
      updatedBy: text('updated_by'),
    },
    (t) => [uniqueIndex(`${names.navigation}_scope`).on(t.setKey, t.version, t.locale)],
  );

  const manifests = table(
    names.manifest,
    {
      id: bigserial('id', { mode: 'number' }).primaryKey(),
      setKey: text('set_key').notNull(),
      document: text('document').notNull(),
      contentHash: text('content_hash').notNull(),
      updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
      updatedBy: text('updated_by'),
    },
    (t) => [uniqueIndex(`${names.manifest}_set`).on(t.setKey)],
  );

  const revisions = table(
    names.revision,
    {
      id: bigserial('id', { mode: 'number' }).primaryKey(),
      setKey: text('set_key').notNull(),
      kind: text('kind').$type<RevisionKind>().notNull(),
      action: text('action').$type<RevisionAction>().notNull(),
      version: text('version'),
      locale: text('locale'),
      path: text('path'),
      /** Hash of what the change wrote (for a delete: of the page it removed). */
      contentHash: text('content_hash').notNull(),
      /** The text the change wrote (page file, navigation file, manifest); null for binary assets. */
      snapshot: text('snapshot'),
      basedOn: text('based_on'),
      summary: text('summary'),
      author: text('author'),
      status: text('status').$type<RevisionStatus>().notNull().default('published'),
      createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
      /**
       * The writing transaction's id (`pg_current_xact_id()`, set by the column default). Watchers
       * compare it with a snapshot's oldest running transaction, which ids cannot tell: an id is
       * taken at insert, but the row appears at commit. Null on rows written before the column existed.
       */
      txid: bigint('txid', { mode: 'number' }).default(sql`(pg_current_xact_id()::text::bigint)`),
    },
    (t) => [
      index(`${names.revision}_subject`).on(t.setKey, t.kind, t.version, t.locale, t.path, t.id),
      index(`${names.revision}_set_id`).on(t.setKey, t.id),
      index(`${names.revision}_set_txid`).on(t.setKey, t.txid),
    ],
  );

  const assets = table(
    names.asset,
    {
      id: bigserial('id', { mode: 'number' }).primaryKey(),
      setKey: text('set_key').notNull(),
      name: text('name').notNull(),
      contentHash: text('content_hash').notNull(),
      size: integer('size').notNull(),
      /** The bytes, when the asset is kept in the database rather than on a disk. */
      bytes: bytea('bytes'),
      disk: text('disk'),
      diskPath: text('disk_path'),
      updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    },
    (t) => [uniqueIndex(`${names.asset}_name`).on(t.setKey, t.name)],
  );

  const docsMigrations = table(
    names.docs_migration,
    {
      id: bigserial('id', { mode: 'number' }).primaryKey(),
      setKey: text('set_key').notNull(),
      name: text('name').notNull(),
      appliedAt: timestamp('applied_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    },
    (t) => [uniqueIndex(`${names.docs_migration}_name`).on(t.setKey, t.name)],
  );

  markKitTables([pages, navigations, manifests, revisions, assets, docsMigrations]);
  return { pages, navigations, manifests, revisions, assets, docsMigrations };
}

export type RevisionKind = 'page' | 'navigation' | 'manifest' | 'asset';
export type RevisionAction = 'write' | 'delete' | 'restore';
/**
 * `published`: a live change. `draft`: a change waiting for a person. A decided draft keeps its row:
 * `applied` once published (the change itself is recorded again as a new `published` revision),
 * `discarded` once a person threw it away.
 */
export type RevisionStatus = 'published' | 'draft' | 'applied' | 'discarded';

/** Every {@link RevisionStatus}, as the table's check constraint lists them. */
export const REVISION_STATUSES: readonly RevisionStatus[] = ['published', 'draft', 'applied', 'discarded'];

/** Kit's drizzle tables for one schema and set of names, plus where they live. */
export type KitTables = ReturnType<typeof defineTables> & {
  readonly schema: string;
  readonly names: Readonly<Record<ModelName, string>>;
  /** Models the configuration replaced with the application's own tables. */
  readonly custom: readonly ModelName[];
};

/**
 * Kit's drizzle table definitions, placed in a schema and named per `models.*`. A model given as a
 * drizzle table of the application's own keeps its name and schema; its columns must be compatible
 * with Kit's (checked when the database opens).
 *
 * @example
 * const tables = createKitTables({ models: { page: 'docs_pages' } });
 * await db.orm.select().from(tables.pages);
 */
export function createKitTables(options: TableOptions = {}): KitTables {
  const schema = checkIdentifier(options.schema ?? 'public', 'schema name');
  const names = { ...DEFAULT_TABLE_NAMES };
  const custom: ModelName[] = [];
  for (const model of MODEL_NAMES) {
    const override = options.models?.[model];
    if (override === undefined || override === null) continue;
    if (typeof override === 'string') {
      names[model] = checkIdentifier(override, `table name of models.${model}`);
    } else {
      const config = getTableConfig(override);
      names[model] = checkIdentifier(config.name, `table name of models.${model}`);
      if ((config.schema ?? 'public') !== schema) {
        throw new KitError(
          'config.invalid',
          `models.${model} lives in schema "${config.schema ?? 'public'}" but Kit's docs tables live in "${schema}". Open the database with schema "${config.schema ?? 'public'}" so every docs table shares one schema.`,
        );
      }
    }
    custom.push(model);
  }
  return { ...defineTables(schema, names), schema, names, custom };
}
