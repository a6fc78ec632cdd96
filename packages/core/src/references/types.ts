/**
 * The reference catalog: what the host application tells Kit about its own code, as plain data.
 * `<Route>`, `<Model>` and `<Event>` render from it; the adapters that read a Hono app
 * (`@kit/http-hono`), drizzle tables (`@kit/source-db`) and event schemas (`eventTypes`) fill it.
 */

/** One field of a schema: a route parameter, a body or query field, a column-less payload field. */
export interface SchemaField {
  /** Field name; nested object fields are dotted (`address.city`), list items end in `[]`. */
  name: string;
  /** Type as a reader writes it: `string`, `integer`, `string (email)`, `"a" | "b"`, `Item[]`. */
  type: string;
  required: boolean;
  /** The field's doc comment: the schema's description of it. */
  description?: string;
  /** Default value, as JSON. */
  default?: string;
}

/** Where a route's validator reads its input. */
export type RouteInputTarget = 'param' | 'query' | 'json' | 'form' | 'header' | 'cookie';

/** One HTTP route of the host application. */
export interface RouteReference {
  /** Name given with `routeName('users.show')`, or null. */
  name: string | null;
  /** Upper-case method, `ALL` for a route answering every method. */
  method: string;
  /** Path as registered, with `:param` segments (`/api/users/:id`). */
  path: string;
  /** Path parameters: from the route's `param` validator where it has one, else from the path. */
  parameters: SchemaField[];
  /** Names of the middleware that runs before the handler, in order. */
  middleware: string[];
  /** Validated inputs other than the path: query, JSON body, form, headers, cookies. */
  inputs: Array<{ target: Exclude<RouteInputTarget, 'param'>; fields: SchemaField[] }>;
  /** The npm package that registered the route, or null for the application's own. */
  package: string | null;
  description?: string;
}

/** One column of a table. */
export interface ColumnReference {
  name: string;
  /** SQL type: `text`, `integer`, `timestamp with time zone`, `varchar(255)`. */
  type: string;
  nullable: boolean;
  /** Default as SQL or JSON text, or null for none. */
  default: string | null;
  primaryKey: boolean;
  unique: boolean;
}

/** One database table of the application. */
export interface ModelReference {
  /** Table name. */
  name: string;
  /** PostgreSQL schema, or null for the default one. */
  schema: string | null;
  columns: ColumnReference[];
  /** Columns of the primary key (one or several). */
  primaryKey: string[];
  foreignKeys: Array<{ name: string; columns: string[]; table: string; references: string[]; onDelete: string | null }>;
  /** Relations declared for the query API: `one` or `many` to another table. */
  relations: Array<{ name: string; kind: 'one' | 'many'; table: string }>;
  /** Indexes other than the primary key. */
  indexes: Array<{ name: string; columns: string[]; unique: boolean }>;
  description?: string;
}

/** One event type of the application's event bus. */
export interface EventReference {
  /** Full name, namespace first (`events.OrderShipped`). */
  name: string;
  description?: string;
  fields: SchemaField[];
}

/** Everything `<Route>`, `<Model>` and `<Event>` can describe. */
export interface ReferenceCatalog {
  routes: RouteReference[];
  models: ModelReference[];
  events: EventReference[];
}

/** The `references.*` settings (read from the top level of the config only). */
export interface ReferenceSettings {
  routes: { allow: string[] | null };
  models: { allow: string[] };
  events: { namespaces: string[] };
}
