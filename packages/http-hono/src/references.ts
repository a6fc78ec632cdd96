import type { RouteInputTarget, RouteReference, SchemaField } from '@kit/core';
import { schemaFields } from '@kit/core/internal';
import type { Hono, MiddlewareHandler } from 'hono';

/** What Kit knows about a handler or middleware function, beyond what Hono keeps. */
interface HandlerTags {
  routeName?: string;
  validator?: { target: string; schema: unknown };
  middlewareName?: string;
  package?: string;
}

const TAGS_KEY = Symbol.for('kit.http-hono.handlerTags');

/**
 * One table for the process: the kit.config.ts that tags a route and the server or CLI that reads
 * the app may each hold another instance of this module.
 */
function tagTable(): WeakMap<object, HandlerTags> {
  const shared = globalThis as Record<symbol, WeakMap<object, HandlerTags> | undefined>;
  const table = shared[TAGS_KEY] ?? new WeakMap<object, HandlerTags>();
  shared[TAGS_KEY] = table;
  return table;
}

function tag(handler: object, tags: HandlerTags): void {
  const table = tagTable();
  table.set(handler, { ...table.get(handler), ...tags });
}

/** Tags of a handler, looking through the wrapper Hono puts around a sub-app's handlers. */
function tagsOf(handler: unknown): HandlerTags {
  const table = tagTable();
  let current = handler as (object & { __COMPOSED_HANDLER?: unknown }) | undefined;
  const found: HandlerTags = {};
  for (let depth = 0; current && depth < 8; depth++) {
    Object.assign(found, { ...table.get(current), ...found });
    current = current.__COMPOSED_HANDLER as typeof current;
  }
  return found;
}

/**
 * Names the route it is placed on, for `<Route name="...">` and `references.routes.allow`. It
 * passes the request on untouched.
 *
 * @example
 * api.get('/orders/:id', routeName('orders.show'), (c) => c.json(order));
 */
export function routeName(name: string): MiddlewareHandler {
  const marker: MiddlewareHandler = async (_c, next) => {
    await next();
  };
  tag(marker, { routeName: name });
  return marker;
}

/**
 * Names a middleware for route references (`<Route>` lists middleware by name). Middleware named
 * in kit.config.ts (`middleware: { auth: ... }`) carries its config name already.
 *
 * @example
 * api.use('/admin/*', namedMiddleware('admin', requireAdmin));
 */
export function namedMiddleware<M extends MiddlewareHandler>(name: string, middleware: M): M {
  tag(middleware, { middlewareName: name });
  return middleware;
}

/**
 * Wraps a validator factory whose first two arguments are the target and the schema
 * (`zValidator` from `@hono/zod-validator`, `sValidator` from `@hono/standard-validator`, ...):
 * the middleware it makes remembers its schema, so `<Route>` shows the parameters and body it
 * accepts. The wrapped factory is typed and behaves as the original.
 *
 * @example
 * import { zValidator as zv } from '@hono/zod-validator';
 * const zValidator = describeValidators(zv);
 * api.post('/orders', zValidator('json', newOrder), handler);
 */
export function describeValidators<F extends (target: never, schema: never, ...rest: never[]) => unknown>(
  factory: F,
): F {
  const wrapped = (target: string, schema: unknown, ...rest: unknown[]) => {
    const middleware = (factory as unknown as (...args: unknown[]) => unknown)(target, schema, ...rest);
    if (typeof middleware === 'function') tag(middleware, { validator: { target, schema } });
    return middleware;
  };
  return wrapped as unknown as F;
}

/**
 * Marks every route of `app` as registered by the npm package `name`: with
 * `references.routes.allow: null`, `<Route>` describes the application's routes and Kit's own,
 * not those of other packages. Call it on a package's sub-app before mounting it; Kit marks its
 * own app (`createKitApp`) this way.
 *
 * @example
 * app.route('/swagger', markPackageRoutes(swaggerApp, '@hono/swagger-ui'));
 */
export function markPackageRoutes<A extends Pick<Hono, 'routes'>>(app: A, name: string): A {
  for (const route of app.routes) tag(route.handler, { package: name });
  return app;
}

/** Options of {@link honoRoutes}. */
export interface HonoRoutesOptions {
  /** Path the app is mounted under in the host (`app.route('/api', api)` → `'/api'`). @default '' */
  prefix?: string;
}

const INPUT_TARGETS = new Set<string>(['param', 'query', 'json', 'form', 'header', 'cookie']);
const PARAM = /:([A-Za-z0-9_]+)(\{[^}]*\})?(\?)?/g;

function middlewareLabel(handler: unknown, tags: HandlerTags): string {
  if (tags.middlewareName) return tags.middlewareName;
  const name = typeof handler === 'function' ? handler.name.replace(/\d+$/, '') : '';
  // Bundlers suffix names with digits; a one- or two-letter name is a minifier's, not a person's.
  return name.length >= 3 && name !== 'anonymous' ? name : 'anonymous';
}

/** True when the pattern of a `use` (`/api/*`, `*`) covers the route path. */
function covers(pattern: string, path: string): boolean {
  if (pattern === '*' || pattern === '/*') return true;
  if (!pattern.includes('*')) return pattern === path;
  const parts = pattern.split('*').map((part) => part.replace(/[\\^$.|?+()[\]{}]/g, '\\$&'));
  // `/api/*` also covers `/api` itself, as in Hono.
  return new RegExp(`^${parts.join('.*')}$`).test(path) || (pattern.endsWith('/*') && pattern.slice(0, -2) === path);
}

function pathParameters(path: string, fromSchema: SchemaField[] | null): SchemaField[] {
  const written = [...path.matchAll(PARAM)].map((match) => ({
    name: match[1] as string,
    pattern: match[2]?.slice(1, -1),
    optional: match[3] === '?',
  }));
  const byName = new Map((fromSchema ?? []).map((field) => [field.name, field]));
  const fields: SchemaField[] = written.map(({ name, pattern, optional }) => {
    const described = byName.get(name);
    if (described) return { ...described, required: !optional };
    return { name, type: pattern ? `string (${pattern})` : 'string', required: !optional };
  });
  for (const field of fromSchema ?? []) if (!written.some((param) => param.name === field.name)) fields.push(field);
  return fields;
}

/**
 * The routes of a Hono app as reference catalog entries: method, path, parameters, the names of
 * the middleware that runs before the handler (inline and `use`), the validators'
 * schemas (through {@link describeValidators}), the name given with {@link routeName} and the
 * package that registered it ({@link markPackageRoutes}). Middleware-only `use` entries are not
 * routes; handlers registered twice for the same method and path count once.
 *
 * @example
 * registerReferences({ routes: honoRoutes(api, { prefix: '/api' }) });
 */
export function honoRoutes(app: Pick<Hono, 'routes'>, options: HonoRoutesOptions = {}): RouteReference[] {
  const prefix = (options.prefix ?? '').replace(/\/+$/, '');
  const entries = app.routes;
  const routes: RouteReference[] = [];
  const uses: Array<{ path: string; handler: unknown; at: number }> = [];
  let index = 0;
  while (index < entries.length) {
    const first = entries[index] as (typeof entries)[number];
    let end = index + 1;
    while (end < entries.length && entries[end]?.method === first.method && entries[end]?.path === first.path) end++;
    const group = entries.slice(index, end);
    const isUse = first.method === 'ALL' && first.path.includes('*');
    if (isUse) {
      for (const entry of group) uses.push({ path: entry.path, handler: entry.handler, at: index });
      index = end;
      continue;
    }
    const handler = group[group.length - 1] as (typeof entries)[number];
    const before = group.slice(0, -1);
    const tags = before.map((entry) => ({ handler: entry.handler, tags: tagsOf(entry.handler) }));
    const packageName =
      tagsOf(handler.handler).package ?? tags.find((entry) => entry.tags.package)?.tags.package ?? null;
    const name = tags.find((entry) => entry.tags.routeName)?.tags.routeName ?? null;
    const middleware = [
      ...uses
        .filter((use) => covers(use.path, first.path))
        .map((use) => ({ handler: use.handler, tags: tagsOf(use.handler) })),
      ...tags,
    ]
      .filter((entry) => !entry.tags.routeName && !entry.tags.validator)
      .map((entry) => middlewareLabel(entry.handler, entry.tags));
    let paramFields: SchemaField[] | null = null;
    const inputs: RouteReference['inputs'] = [];
    for (const entry of tags) {
      const validator = entry.tags.validator;
      if (!validator || !INPUT_TARGETS.has(validator.target)) continue;
      const fields = schemaFields(validator.schema) ?? [];
      if (validator.target === 'param') paramFields = fields;
      else inputs.push({ target: validator.target as Exclude<RouteInputTarget, 'param'>, fields });
    }
    const path = `${prefix}${first.path === '/' && prefix ? '' : first.path}` || '/';
    const duplicate = routes.some((route) => route.method === first.method && route.path === path);
    if (!duplicate) {
      routes.push({
        name,
        method: first.method,
        path,
        parameters: pathParameters(first.path, paramFields),
        middleware,
        inputs,
        package: packageName,
      });
    }
    index = end;
  }
  return routes;
}
