import type { ColumnReference, ModelReference } from '@kit/core';
import { createTableRelationsHelpers, getTableName, is, Many, One, Relations, SQL } from 'drizzle-orm';
import { getTableConfig, PgDialect, PgTable } from 'drizzle-orm/pg-core';
import { kitTables } from './own-tables.js';
import { DEFAULT_TABLE_NAMES } from './tables.js';

const KIT_TABLE_NAMES = new Set(Object.values(DEFAULT_TABLE_NAMES));

let dialect: PgDialect | undefined;

function defaultText(column: { default?: unknown; defaultFn?: unknown; onUpdateFn?: unknown }): string | null {
  const value = column.default;
  if (is(value, SQL)) {
    dialect ??= new PgDialect();
    return dialect.sqlToQuery(value).sql;
  }
  if (value !== undefined) {
    if (typeof value === 'string') return `'${value.replace(/'/g, "''")}'`;
    return JSON.stringify(value) ?? String(value);
  }
  if (typeof column.defaultFn === 'function') return '(set by the application)';
  return null;
}

function columnNames(columns: unknown[]): string[] {
  return columns.map((column) =>
    column && typeof column === 'object' && 'name' in column
      ? String((column as { name: unknown }).name)
      : 'expression',
  );
}

function describeTable(table: PgTable, relations: Relations[]): ModelReference {
  const config = getTableConfig(table);
  const uniqueSingles = new Set(
    config.uniqueConstraints.filter((u) => u.columns.length === 1).map((u) => u.columns[0]?.name),
  );
  const composite = config.primaryKeys[0];
  const columns: ColumnReference[] = config.columns.map((column) => ({
    name: column.name,
    type: column.getSQLType(),
    nullable: !column.notNull,
    default: defaultText(column as unknown as { default?: unknown; defaultFn?: unknown }),
    primaryKey: column.primary,
    unique: column.isUnique || uniqueSingles.has(column.name),
  }));
  const primaryKey = composite
    ? composite.columns.map((column) => column.name)
    : config.columns.filter((column) => column.primary).map((column) => column.name);
  const model: ModelReference = {
    name: config.name,
    schema: config.schema ?? null,
    columns,
    primaryKey,
    foreignKeys: config.foreignKeys.map((foreign) => {
      const reference = foreign.reference();
      return {
        name: foreign.getName(),
        columns: reference.columns.map((column) => column.name),
        table: getTableName(reference.foreignTable),
        references: reference.foreignColumns.map((column) => column.name),
        onDelete: foreign.onDelete ?? null,
      };
    }),
    relations: [],
    indexes: config.indexes.map((index) => ({
      name: index.config.name ?? '',
      columns: columnNames(index.config.columns as unknown[]),
      unique: index.config.unique,
    })),
  };
  for (const declared of relations.filter((candidate) => candidate.table === table)) {
    const fields = declared.config(createTableRelationsHelpers(declared.table));
    for (const [name, relation] of Object.entries(fields)) {
      model.relations.push({
        name,
        kind: is(relation, One) ? 'one' : is(relation, Many) ? 'many' : 'one',
        table: relation.referencedTableName,
      });
    }
  }
  return model;
}

/**
 * The PostgreSQL tables of a drizzle schema as reference catalog entries: columns with their SQL
 * types, nullability and defaults, primary, unique and foreign keys, indexes, and the relations
 * declared with `relations()` in the same schema. Kit's own tables (`kit_pages`, ... and any
 * `createKitTables` made) are left out, wherever they sit.
 *
 * @example
 * import * as schema from './db/schema.js';
 * registerReferences({ models: drizzleModels(schema) });
 */
export function drizzleModels(schema: Record<string, unknown> | readonly unknown[]): ModelReference[] {
  const values = Array.isArray(schema) ? [...schema] : Object.values(schema);
  const own = kitTables();
  const relations = values.filter((value): value is Relations => is(value, Relations));
  return values
    .filter((value): value is PgTable => is(value, PgTable))
    .filter((table) => !own.has(table) && !KIT_TABLE_NAMES.has(getTableName(table)))
    .map((table) => describeTable(table, relations));
}
