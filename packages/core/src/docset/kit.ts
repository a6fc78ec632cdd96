import type { ResolvedConfig } from '../config/types.js';
import { KitError } from '../errors/kit-error.js';
import { createEvents, type KitEventEmitter } from '../events/emitter.js';
import type { KitEventHandler, KitEventName } from '../events/types.js';
import type { DocSet, Kit, KitEvents, Viewer } from '../ports/docset.js';
import { normalizePrefix } from '../urls/set-urls.js';

export interface CreateKitOptions {
  config: ResolvedConfig;
  /** The sets, built with `createDocSet` (as a list, a map or a record by key). */
  sets: Iterable<DocSet> | ReadonlyMap<string, DocSet> | Record<string, DocSet>;
  /** The bus every set fires on; pass the one the sets were created with. Default: a new bus. */
  events?: KitEvents;
}

/**
 * Several doc sets with one config and one event bus: what the CLI, the MCP servers and the HTTP
 * app are handed. Composition only: it looks sets up by key, puts the config's `events` listeners
 * on the bus, and closes the sets.
 *
 * @example
 * const events = createEvents();
 * const kit = createKit({ config, events, sets: [createDocSet({ config: config.sets.docs, events, ... })] });
 * kit.set().readPage({ path: 'routing' }, { user: null });
 */
export function createKit(options: CreateKitOptions): Kit {
  const sets = new Map<string, DocSet>();
  const list: Iterable<DocSet> =
    options.sets instanceof Map
      ? options.sets.values()
      : Symbol.iterator in options.sets
        ? (options.sets as Iterable<DocSet>)
        : Object.values(options.sets as Record<string, DocSet>);
  for (const set of list) {
    if (sets.has(set.key)) {
      throw new KitError('config.invalid', `Two doc sets use the key "${set.key}". Give each set its own key.`);
    }
    sets.set(set.key, set);
  }
  const events = options.events ?? createEvents();
  for (const [name, handlers] of Object.entries(options.config.events ?? {})) {
    for (const handler of Array.isArray(handlers) ? handlers : [handlers]) {
      events.on(name as KitEventName, handler as KitEventHandler<KitEventName>);
    }
  }
  let closed: Promise<void> | null = null;

  return {
    config: options.config,
    sets,
    events,
    set(key) {
      const wanted = key?.trim() || options.config.default;
      const found = sets.get(wanted);
      if (found) return found;
      const keys = [...sets.keys()];
      throw new KitError(
        'set.not_found',
        keys.length === 0
          ? `No doc set "${wanted}": no sets are configured. Add one under sets in kit.config.ts.`
          : `No doc set "${wanted}". Use one of: ${keys.join(', ')}${key ? '' : `, or set default in kit.config.ts to one of them`}.`,
        { details: { set: wanted, sets: keys } },
      );
    },
    close() {
      closed ??= (async () => {
        const results = await Promise.allSettled(
          [...sets.values()].map(async (set) => {
            const closable = set as DocSet & { close?: () => Promise<void> };
            if (typeof closable.close === 'function') await closable.close();
            await set.source.close?.();
          }),
        );
        const settled = (events as Partial<KitEventEmitter>).settled;
        if (typeof settled === 'function') await settled.call(events);
        const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
        if (failed) throw failed.reason;
      })();
      return closed;
    },
  };
}

/** Options of {@link warmKit}. */
export interface WarmKitOptions {
  /** Told about a version that could not be prepared (it then loads on first use); default: nothing is said. */
  onError?: (error: unknown, where: { set: string; version: string; locale: string }) => void;
  /** Stops preparing what is left once true (the server is closing). */
  stopped?: () => boolean;
  /**
   * Also load the code grammars of the pages, after every search index is built. An agent-only
   * server (`kit mcp`) leaves it off: agent Markdown never highlights code.
   * @default true
   */
  highlight?: boolean;
  /**
   * Who the indexes are for: the versions this viewer sees, with the search audience it gets.
   * `kit mcp` passes its local operator (`{ user: null, local: true }`, who searches every page).
   * @default { user: null } (a guest)
   */
  viewer?: Viewer;
}

/**
 * Prepares every version and locale a guest (or `options.viewer`) may see, set after set, default version first: first
 * the search index of each (from its sections, which a set with a persistent cache store reads back
 * instead of rendering), then the code grammars of each (loading grammars keeps the process busy
 * in long stretches, so it comes after what searches wait for). Start it once the server listens
 * and do not await it: sections are rendered a slice at a time, so requests are answered
 * meanwhile, and a search that arrives first waits for the index being built rather than starting
 * a second one.
 *
 * @example
 * void warmKit(kit, { onError: (error, { set, version }) => console.error(`${set} ${version}`, error) });
 */
export async function warmKit(kit: Kit, options: WarmKitOptions = {}): Promise<void> {
  const viewer: Viewer = options.viewer ?? { user: null };
  const work: Array<{ set: DocSet; scope: { version: string; locale: string } }> = [];
  for (const set of kit.sets.values()) {
    if (!set.warm || options.stopped?.()) continue;
    let scopes: Array<{ version: string; locale: string }>;
    try {
      const [versions, locales] = await Promise.all([set.versions(viewer), set.locales()]);
      const ordered = [
        ...versions.filter((version) => version.default),
        ...versions.filter((version) => !version.default),
      ];
      scopes = ordered.flatMap((version) => locales.map((locale) => ({ version: version.id, locale: locale.code })));
    } catch (error) {
      options.onError?.(error, { set: set.key, version: '', locale: '' });
      continue;
    }
    work.push(...scopes.map((scope) => ({ set, scope })));
  }
  const passes: Array<'search' | 'highlight'> = options.highlight === false ? ['search'] : ['search', 'highlight'];
  for (const part of passes) {
    for (const { set, scope } of work) {
      if (options.stopped?.()) return;
      try {
        await set.warm!({ ...scope, parts: [part], ...(options.viewer ? { viewer: options.viewer } : {}) });
      } catch (error) {
        options.onError?.(error, { set: set.key, ...scope });
      }
    }
  }
}

/**
 * The set whose URLs a site path or URL (`/laravel/13.x/queues`, `https://host/docs/queues.md`)
 * falls under: the set with the longest prefix it starts with (a root-mounted set takes what no
 * other set's prefix claims). Undefined for a plain page path (`queues`) or a path under no set.
 *
 * @example
 * setOfUrl(kit, '/docs/3.x/queues')?.key; // 'docs'
 */
export function setOfUrl(kit: Pick<Kit, 'sets'>, url: string): DocSet | undefined {
  let pathname = url.trim();
  let host: string | undefined;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(pathname)) {
    try {
      const parsed = new URL(pathname);
      pathname = parsed.pathname;
      host = parsed.hostname;
    } catch {
      return undefined;
    }
  }
  if (!pathname.startsWith('/')) return undefined;
  pathname = pathname.replace(/[?#].*$/, '');
  let found: DocSet | undefined;
  let longest = -1;
  for (const set of kit.sets.values()) {
    // A set served on its own domain owns only that domain's URLs.
    const domain = set.config.route.domain;
    if (domain && host !== undefined && host !== domain) continue;
    const prefix = normalizePrefix(set.config.route.prefix);
    const under = prefix === '' || pathname === prefix || pathname.startsWith(`${prefix}/`);
    if (under && prefix.length > longest) {
      found = set;
      longest = prefix.length;
    }
  }
  return found;
}
