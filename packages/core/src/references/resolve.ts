import { editDistance } from '../util/nearest-key.js';
import type { EventReference, ModelReference, ReferenceCatalog, ReferenceSettings, RouteReference } from './types.js';

/** Why a reference cannot be described: not in the catalog, or kept out by `references.*`. */
export interface ReferenceProblem {
  rule: 'references.unknown' | 'references.denied';
  message: string;
  fix: string;
  /** The nearest names the page may use instead. */
  suggestions: string[];
}

/** A reference found and allowed, or the problem that stops it. */
export type ReferenceLookup<T> = { found: T; problem?: undefined } | { found?: undefined; problem: ReferenceProblem };

/**
 * True when `value` matches `pattern`, where `*` stands for any run of characters (`/` and `.`
 * included): `users.*`, `/api/*`, `*`.
 *
 * @example
 * globMatch('/api/*', '/api/users/:id'); // true
 */
export function globMatch(pattern: string, value: string): boolean {
  if (!pattern.includes('*')) return pattern === value;
  const parts = pattern.split('*').map((part) => part.replace(/[\\^$.|?+()[\]{}]/g, '\\$&'));
  return new RegExp(`^${parts.join('[\\s\\S]*')}$`).test(value);
}

/**
 * Up to `limit` candidates closest to `wanted`: those containing it (or contained in it) first,
 * then the fewest edits, leaving out the ones too far off to be what was meant.
 *
 * @example
 * nearestNames('user.show', ['users.show', 'orders.index']); // ['users.show']
 */
export function nearestNames(wanted: string, candidates: Iterable<string>, limit = 3): string[] {
  const lower = wanted.toLowerCase();
  const scored: Array<{ name: string; score: number }> = [];
  for (const name of new Set(candidates)) {
    const other = name.toLowerCase();
    const contains = lower.length >= 3 && (other.includes(lower) || lower.includes(other.split(/[./]/).pop() ?? other));
    const distance = editDistance(lower, other);
    const within = distance <= Math.max(2, Math.floor(Math.max(lower.length, other.length) / 3));
    if (contains || within) scored.push({ name, score: contains ? distance - 100 : distance });
  }
  return scored
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, limit)
    .map((entry) => entry.name);
}

function suggestionText(suggestions: string[], known: string[]): string {
  if (suggestions.length > 0) return `Did you mean ${suggestions.map((name) => `"${name}"`).join(', ')}?`;
  if (known.length === 0) return 'Nothing of this kind is registered yet.';
  const shown = known.slice(0, 8);
  return `Known: ${shown.map((name) => `"${name}"`).join(', ')}${known.length > shown.length ? `, and ${known.length - shown.length} more` : ''}.`;
}

function unknown(message: string, fix: string, suggestions: string[]): ReferenceProblem {
  return { rule: 'references.unknown', message, fix, suggestions };
}

/** How a route is named in messages: its name, else `METHOD /path`. */
export function routeLabel(route: RouteReference): string {
  return route.name ?? `${route.method} ${route.path}`;
}

/**
 * True when `references.routes.allow` lets `<Route>` describe the route: null allows every route
 * of the application and Kit's own (`@kit/*`), not those other packages registered; a list allows
 * the routes whose name or path one of its patterns matches.
 */
export function routeAllowed(route: RouteReference, allow: string[] | null): boolean {
  if (allow === null) return route.package === null || route.package.startsWith('@kit/');
  return allow.some(
    (pattern) => (route.name !== null && globMatch(pattern, route.name)) || globMatch(pattern, route.path),
  );
}

/**
 * The route a `<Route>` tag names (`name="users.show"`, or `path="/users/:id"` with an optional
 * `method`, GET when the path has one), if the catalog has it and `references.routes.allow` lets
 * pages describe it.
 */
export function lookupRoute(
  catalog: ReferenceCatalog,
  props: { name?: string; path?: string; method?: string },
  settings: ReferenceSettings,
): ReferenceLookup<RouteReference> {
  const allowed = catalog.routes.filter((route) => routeAllowed(route, settings.routes.allow));
  const allowedNames = [
    ...new Set(allowed.flatMap((route) => (route.name ? [route.name] : []))),
    ...new Set(allowed.map((route) => route.path)),
  ];
  const denied = (route: RouteReference, written: string): ReferenceLookup<RouteReference> => ({
    problem: {
      rule: 'references.denied',
      message: `<Route> may not describe ${routeLabel(route)}: ${
        settings.routes.allow === null
          ? `it is registered by the package ${route.package}, and references.routes.allow is null (the application's own routes and Kit's only)`
          : 'references.routes.allow matches neither its name nor its path'
      }.`,
      fix: `Add "${route.name ?? route.path}" (or a pattern with *) to references.routes.allow in kit.config.ts, or describe another route. ${suggestionText(nearestNames(written, allowedNames), allowedNames)}`,
      suggestions: nearestNames(written, allowedNames),
    },
  });
  if (props.name) {
    const named = catalog.routes.filter((route) => route.name === props.name);
    if (named.length === 0) {
      const suggestions = nearestNames(props.name, allowedNames);
      return {
        problem: unknown(
          `<Route name="${props.name}"> names no route of the application.`,
          `Name the route with routeName('${props.name}') where it is registered, or use a known name. ${suggestionText(suggestions, allowedNames)}`,
          suggestions,
        ),
      };
    }
    const route = named.find((candidate) => routeAllowed(candidate, settings.routes.allow));
    return route ? { found: route } : denied(named[0] as RouteReference, props.name);
  }
  if (props.path) {
    const path = props.path.length > 1 ? props.path.replace(/\/+$/, '') : props.path;
    const atPath = catalog.routes.filter((route) => route.path === path || plainPath(route.path) === plainPath(path));
    const method = props.method?.toUpperCase();
    const candidates = method ? atPath.filter((route) => route.method === method) : atPath;
    const route = method
      ? candidates[0]
      : (candidates.find((candidate) => candidate.method === 'GET') ??
        (new Set(candidates.map((candidate) => candidate.method)).size === 1 ? candidates[0] : undefined));
    if (!route) {
      const methods = [...new Set(atPath.map((candidate) => candidate.method))];
      if (methods.length > 0) {
        return {
          problem: unknown(
            `<Route path="${props.path}"${method ? ` method="${method}"` : ''}> names no route: the path answers ${methods.join(', ')}.`,
            `Write method="${methods[0]}" (one of ${methods.join(', ')}).`,
            methods.map((m) => `${m} ${path}`),
          ),
        };
      }
      const suggestions = nearestNames(path, allowedNames);
      return {
        problem: unknown(
          `<Route path="${props.path}"> names no route of the application.`,
          `Use the path as registered, with :param segments. ${suggestionText(suggestions, allowedNames)}`,
          suggestions,
        ),
      };
    }
    return routeAllowed(route, settings.routes.allow) ? { found: route } : denied(route, path);
  }
  return {
    problem: unknown(
      '<Route> names no route: it needs a name or a path.',
      'Write <Route name="users.show" /> or <Route path="/users/:id" method="GET" />.',
      [],
    ),
  };
}

/** A path without the patterns of its parameters: `/orders/:id{[0-9]+}` → `/orders/:id`. */
function plainPath(path: string): string {
  return path.replace(/(:[A-Za-z0-9_]+)\{[^}]*\}/g, '$1');
}

function modelNames(model: ModelReference): string[] {
  return model.schema ? [model.name, `${model.schema}.${model.name}`] : [model.name];
}

/** True when `references.models.allow` matches the table's name (or `schema.name`). */
export function modelAllowed(model: ModelReference, allow: string[]): boolean {
  return allow.some((pattern) => modelNames(model).some((name) => globMatch(pattern, name)));
}

/** The table a `<Model name="users">` tag names, if the catalog has it and `references.models.allow` allows it. */
export function lookupModel(
  catalog: ReferenceCatalog,
  props: { name?: string },
  settings: ReferenceSettings,
): ReferenceLookup<ModelReference> {
  const allowedNames = catalog.models.filter((model) => modelAllowed(model, settings.models.allow)).map((m) => m.name);
  if (!props.name) {
    return {
      problem: unknown(
        '<Model> names no table: it needs a name.',
        'Write <Model name="users" /> (the table name).',
        [],
      ),
    };
  }
  const wanted = props.name;
  const model = catalog.models.find((candidate) => modelNames(candidate).includes(wanted));
  if (!model) {
    const suggestions = nearestNames(wanted, allowedNames);
    return {
      problem: unknown(
        `<Model name="${wanted}"> names no table of the application.`,
        `Use the table's name as in the database. ${suggestionText(suggestions, allowedNames)}`,
        suggestions,
      ),
    };
  }
  if (!modelAllowed(model, settings.models.allow)) {
    const suggestions = nearestNames(wanted, allowedNames);
    return {
      problem: {
        rule: 'references.denied',
        message: `<Model> may not describe the table "${wanted}": references.models.allow (${settings.models.allow.map((p) => `"${p}"`).join(', ') || 'empty'}) does not match it.`,
        fix: `Add "${model.name}" (or a pattern with *) to references.models.allow in kit.config.ts. ${suggestionText(suggestions, allowedNames)}`,
        suggestions,
      },
    };
  }
  return { found: model };
}

/**
 * The event type an `<Event name="...">` tag names: a full name as registered, or a short name
 * looked up under each of `references.events.namespaces` in turn (`OrderShipped` → `events.OrderShipped`).
 */
export function lookupEvent(
  catalog: ReferenceCatalog,
  props: { name?: string },
  settings: ReferenceSettings,
): ReferenceLookup<EventReference> {
  if (!props.name) {
    return {
      problem: unknown('<Event> names no event: it needs a name.', 'Write <Event name="OrderShipped" />.', []),
    };
  }
  const wanted = props.name;
  const byName = new Map(catalog.events.map((event) => [event.name, event]));
  const found =
    settings.events.namespaces.map((namespace) => byName.get(`${namespace}.${wanted}`)).find(Boolean) ??
    byName.get(wanted);
  if (found) return { found };
  const namespaces = settings.events.namespaces;
  const shortNames = catalog.events.flatMap((event) => {
    const namespace = namespaces.find((candidate) => event.name.startsWith(`${candidate}.`));
    return namespace ? [event.name.slice(namespace.length + 1)] : [event.name];
  });
  const elsewhere = catalog.events.filter((event) => event.name.endsWith(`.${wanted}`));
  const suggestions = elsewhere.length > 0 ? elsewhere.map((event) => event.name) : nearestNames(wanted, shortNames);
  return {
    problem: unknown(
      `<Event name="${wanted}"> names no event type${namespaces.length > 0 ? ` under ${namespaces.map((n) => `"${n}"`).join(', ')} (references.events.namespaces)` : ''}.`,
      elsewhere.length > 0
        ? `Write its full name (${elsewhere.map((event) => `"${event.name}"`).join(', ')}) or add its namespace to references.events.namespaces.`
        : `Register the event with registerReferences({ events }), or use a known name. ${suggestionText(suggestions, shortNames)}`,
      suggestions,
    ),
  };
}
