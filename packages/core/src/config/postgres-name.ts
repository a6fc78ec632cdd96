/**
 * What a schema name written in the config may be: a plain lower-case PostgreSQL name. Kit writes
 * it into SQL as a name (pg-boss unquoted), so lower case keeps it the same name in Kit, in pg-boss
 * and in `psql`, where an unquoted `Docs` means `docs`. `pg_` names are PostgreSQL's own.
 */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** The rule a config schema name follows, finishing the sentence "`key` must be ...". */
export const POSTGRES_SCHEMA_NAME_RULE =
  'a PostgreSQL schema name: lower-case letters, digits and underscores, not starting with a digit or `pg_`, at most 63 characters';

/**
 * Whether `value` is a schema name Kit accepts in `connections.*.schema` and `queues.*.schema`.
 *
 * @example
 * isPostgresSchemaName('docs') // true
 * isPostgresSchemaName('Docs') // false: write it in lower case
 */
export function isPostgresSchemaName(value: unknown): value is string {
  return typeof value === 'string' && SCHEMA_NAME.test(value) && !value.startsWith('pg_');
}

/** Why a refused schema name is refused, when the rule alone would leave the reader searching. */
export function explainPostgresSchemaName(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (value.startsWith('pg_')) return 'names starting with `pg_` are reserved by PostgreSQL';
  if (/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(value)) return `write it in lower case ('${value.toLowerCase()}')`;
  return undefined;
}
