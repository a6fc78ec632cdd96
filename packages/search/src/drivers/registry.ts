import { KitError, type SearchDriver } from '@kit/core';
import { createClientSearch, DEFAULT_BUDGET_KB } from './client.js';
import type { SearchIndexCache } from './index-cache.js';
import type { SearchIndexReport } from './scope-indexes.js';
import { createServerSearch, type IndexBuilder } from './server.js';

/** What a driver factory is given: the set's `search.*` configuration. */
export interface SearchDriverOptions {
  /** `search.budget_kb` of the set. */
  budgetKb: number;
  /** Where built indexes are kept between runs (the built-in drivers use it; `loadKit` passes `.kit/cache/search`). */
  indexCache?: SearchIndexCache;
  /** Told each time a scope gets its index, built or loaded from `indexCache`. */
  onIndex?: (report: SearchIndexReport) => void;
  /** Builds large server indexes off the calling thread (`loadKit` passes `createWorkerIndexBuilder()`). */
  indexBuilder?: IndexBuilder;
  /** Segments of a large server index built at once (`loadKit` passes the machine's cores). */
  parallelBuilds?: number;
}

/** Makes one driver instance; called once per set that names the driver. */
export type SearchDriverFactory = (options: SearchDriverOptions) => SearchDriver;

const BUILT_IN: Record<string, SearchDriverFactory> = {
  client: (options) =>
    createClientSearch({
      budgetKb: options.budgetKb,
      ...(options.indexCache ? { cache: options.indexCache } : {}),
      ...(options.onIndex ? { onIndex: options.onIndex } : {}),
    }),
  server: (options) =>
    createServerSearch({
      ...(options.indexCache ? { cache: options.indexCache } : {}),
      ...(options.onIndex ? { onIndex: options.onIndex } : {}),
      ...(options.indexBuilder ? { builder: options.indexBuilder } : {}),
      ...(options.parallelBuilds ? { parallelBuilds: options.parallelBuilds } : {}),
    }),
};
const registered = new Map<string, SearchDriverFactory>();
const NAME = /^[a-z0-9][a-z0-9._-]*$/i;

/**
 * Adds a search driver an application can name in `search.driver`. Register before the kit
 * starts. Returns a function that removes the registration (for tests and hot reloads).
 *
 * @example
 * registerSearchDriver('minisearch', () => createMiniSearchDriver());
 * // kit.config.ts: search: { driver: 'minisearch' }
 */
export function registerSearchDriver(name: string, factory: SearchDriverFactory): () => void {
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw new KitError(
      'argument.invalid',
      `Search driver name ${JSON.stringify(name)} is not valid; use letters, digits, '.', '_' or '-', e.g. 'my-driver'.`,
    );
  }
  if (typeof factory !== 'function') {
    throw new KitError(
      'argument.invalid',
      `Search driver "${name}" needs a factory function returning a SearchDriver.`,
    );
  }
  if (name in BUILT_IN) {
    throw new KitError('argument.invalid', `Search driver "${name}" is built in; register yours under another name.`);
  }
  if (registered.has(name)) {
    throw new KitError(
      'argument.invalid',
      `Search driver "${name}" is already registered; call the function the first registerSearchDriver returned to replace it.`,
    );
  }
  registered.set(name, factory);
  return () => {
    if (registered.get(name) === factory) registered.delete(name);
  };
}

/** Names `search.driver` may take right now: the built-in drivers and every registered one. */
export function searchDriverNames(): string[] {
  return [...Object.keys(BUILT_IN), ...registered.keys()];
}

/**
 * Creates the driver a set's `search.driver` names.
 *
 * @example
 * const driver = resolveSearchDriver(config.search.driver, { budgetKb: config.search.budget_kb });
 */
export function resolveSearchDriver(name: string, options: Partial<SearchDriverOptions> = {}): SearchDriver {
  const factory = BUILT_IN[name] ?? registered.get(name);
  if (!factory) {
    throw new KitError(
      'search.driver_unknown',
      `No search driver named "${name}". Set search.driver to one of ${searchDriverNames()
        .map((known) => `'${known}'`)
        .join(', ')}, or call registerSearchDriver('${name}', factory) before the kit starts.`,
      { details: { driver: name, known: searchDriverNames() } },
    );
  }
  const driver = factory({ ...options, budgetKb: options.budgetKb ?? DEFAULT_BUDGET_KB });
  if (!driver || typeof driver.index !== 'function' || typeof driver.search !== 'function') {
    throw new KitError(
      'search.driver_unknown',
      `The factory of search driver "${name}" did not return a SearchDriver (index and search).`,
    );
  }
  return driver;
}
