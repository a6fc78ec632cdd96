import { contentHash } from '../hash/content-hash.js';
import type { EventReference, ModelReference, ReferenceCatalog, RouteReference } from './types.js';

/** What the application hands Kit; each kind given replaces what was registered for it before. */
export interface ReferenceInput {
  routes?: RouteReference[];
  models?: ModelReference[];
  events?: EventReference[];
}

/** A catalog the renderer reads, with a fingerprint that changes whenever its content does. */
export interface ReferenceRegistry {
  register(input: ReferenceInput): void;
  catalog(): ReferenceCatalog;
  /** True once anything was registered (render workers then import the config to get the same). */
  registered(): boolean;
  /** A short hash of the catalog: renders made from another catalog are stale. */
  fingerprint(): string;
}

/**
 * A reference catalog of its own: give it to `createRenderer({ references })` to keep the
 * references of several applications in one process apart.
 */
export function createReferenceRegistry(): ReferenceRegistry {
  let catalog: ReferenceCatalog = { routes: [], models: [], events: [] };
  let registered = false;
  let print: string | null = null;
  return {
    register(input) {
      catalog = {
        routes: input.routes ? [...input.routes] : catalog.routes,
        models: input.models ? [...input.models] : catalog.models,
        events: input.events ? [...input.events] : catalog.events,
      };
      registered = true;
      print = null;
    },
    catalog: () => catalog,
    registered: () => registered,
    fingerprint() {
      print ??= contentHash(JSON.stringify(catalog)).slice('sha256:'.length, 'sha256:'.length + 16);
      return print;
    },
  };
}

const DEFAULT_REFERENCES_KEY = Symbol.for('kit.core.defaultReferences');

/**
 * The catalog renderers read unless given their own. It lives on `globalThis` for the reason
 * `defaultComponents` does: `kit.config.ts` is loaded as a module instance of its own, and what it
 * registers must reach the CLI's and the server's renderers.
 */
export const defaultReferences: ReferenceRegistry = processReferenceRegistry();

function processReferenceRegistry(): ReferenceRegistry {
  const shared = globalThis as Record<symbol, ReferenceRegistry | undefined>;
  const registry = shared[DEFAULT_REFERENCES_KEY] ?? createReferenceRegistry();
  shared[DEFAULT_REFERENCES_KEY] = registry;
  return registry;
}

/**
 * Hands Kit the application's routes, tables and event types, for `<Route>`, `<Model>` and
 * `<Event>`. Call it in `kit.config.ts`, so `kit validate`, `kit serve`, render workers and the
 * host application all see the same catalog.
 *
 * @example
 * registerReferences({
 *   routes: honoRoutes(api, { prefix: '/api' }), // @kit/http-hono
 *   models: drizzleModels(schema), // @kit/source-db
 *   events: eventTypes(shopEvents), // @kit/core
 * });
 */
export function registerReferences(input: ReferenceInput): void {
  defaultReferences.register(input);
}
