import {
  KitError,
  type SearchDriver,
  type SearchHit,
  type SearchOptions,
  type SearchScope,
  type SearchSection,
} from '@kit/core';
import { queryClientIndex } from '../client/index.js';
import { buildEngineIndex } from '../engine/build.js';
import { serializeIndex } from '../engine/codec.js';
import type { SearchIndexCache } from './index-cache.js';
import { assertSearchScope } from './scope.js';
import { createScopeIndexes, type SearchIndexReport, searchArguments } from './scope-indexes.js';

/** Default of `search.budget_kb`: the gzipped size a client index should stay under. */
export const DEFAULT_BUDGET_KB = 300;
/** Longest section lead kept for snippets, and the shortest kept even when over budget. */
const MAX_LEAD_CHARS = 480;
const MIN_LEAD_CHARS = 0;
/** Share of the budget the fitting aims at, leaving room for small edits before a rebuild. */
const BUDGET_TARGET = 0.95;

export interface ClientSearchOptions {
  /** `search.budget_kb`. Default 300. */
  budgetKb?: number;
  /**
   * Keeps each built browser index between runs (`createDiskIndexCache` from `@kit/search/node`):
   * one whose key is found is loaded, not built and fitted to the budget again. Default: memory only.
   */
  cache?: SearchIndexCache;
  /** Told each time a scope gets its index, built or loaded (logs, tests). */
  onIndex?: (report: SearchIndexReport) => void;
}

/**
 * The `format` of what the search-index route answers instead of an index over budget: the reader's
 * script then sends each query to the set's `/_kit/search`. `packages/render/src/reader/client-logic.ts`
 * repeats it, as the browser bundle loads neither this package nor core until it has an index.
 */
export const SERVER_SEARCH_FORMAT = 'kit-search-server/1';

/**
 * The small body served in place of an index over budget: its format, why, and the sizes the
 * decision was made on (the gzipped index and the budget, in bytes and kilobytes).
 */
function serverSearchPointer(report: ClientIndexReport): string {
  return JSON.stringify({
    format: SERVER_SEARCH_FORMAT,
    search: 'server',
    reason: 'over_budget',
    gzip_bytes: report.gzipBytes,
    budget_kb: report.budgetKb,
  });
}

/** Identifies what the client driver keeps in an index cache; bump when `Built` changes. */
const STORED_CLIENT_FORMAT = 'kit-client-built/1';

/** A kept client index, or null when the value is not one. */
function builtFromStored(value: unknown): Built | null {
  if (value === null || typeof value !== 'object') return null;
  const stored = value as { format?: unknown; body?: unknown; texts?: unknown; report?: unknown };
  if (stored.format !== STORED_CLIENT_FORMAT || typeof stored.body !== 'string' || !Array.isArray(stored.texts))
    return null;
  const report = stored.report as ClientIndexReport | null;
  if (report === null || typeof report !== 'object' || report.sections !== stored.texts.length) return null;
  return { body: stored.body, texts: stored.texts as string[], report };
}

/** Size of a scope's client index against its budget (`search.budget_kb`). */
export interface ClientIndexReport {
  /** UTF-8 bytes of the served body. */
  bytes: number;
  gzipBytes: number;
  budgetKb: number;
  overBudget: boolean;
  /** Section lead length the index was fitted with (snippet text kept per section). */
  leadChars: number;
  sections: number;
  pages: number;
}

/** The `client` driver: the `server` driver's port plus the browser index and its size report. */
export interface ClientSearchDriver extends SearchDriver {
  /**
   * The index browsers download, or, when it is over `search.budget_kb` gzipped, a small JSON of
   * format {@link SERVER_SEARCH_FORMAT} telling the reader to search through the server instead.
   */
  clientIndex(scope: SearchScope): Promise<{ body: string; contentType: string } | null>;
  clientIndexReport(scope: SearchScope): Promise<ClientIndexReport | null>;
}

/** Gzipped size of a text, with the web-standard CompressionStream (Node 18+ and browsers). */
export async function gzipSize(text: string): Promise<number> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

interface Built {
  /** The fitted index; the driver's own `search` queries it even when browsers are not sent it. */
  body: string;
  report: ClientIndexReport;
  /** Whole section texts, in index order, for snippets of server-side searches. */
  texts: string[];
}

async function buildClientIndex(sections: SearchSection[], budgetKb: number): Promise<Built> {
  const engine = buildEngineIndex(sections);
  const budget = budgetKb * 1024;
  const render = async (leadChars: number) => {
    const body = JSON.stringify(serializeIndex(engine, leadChars));
    return { body, leadChars, gzipBytes: await gzipSize(body) };
  };
  // Postings and metadata are fixed; only the snippet leads flex. Keep the longest leads that fit.
  let best = await render(MAX_LEAD_CHARS);
  if (best.gzipBytes > budget * BUDGET_TARGET) {
    // Binary search in steps of 10 characters.
    let low = MIN_LEAD_CHARS / 10;
    let high = MAX_LEAD_CHARS / 10 - 1;
    best = await render(low * 10);
    while (low < high && best.gzipBytes <= budget * BUDGET_TARGET) {
      const mid = Math.ceil((low + high) / 2);
      const candidate = await render(mid * 10);
      if (candidate.gzipBytes <= budget * BUDGET_TARGET) {
        best = candidate;
        low = mid;
      } else {
        high = mid - 1;
      }
    }
  }
  return {
    body: best.body,
    texts: engine.sections.map((section) => section.text),
    report: {
      bytes: new TextEncoder().encode(best.body).byteLength,
      gzipBytes: best.gzipBytes,
      budgetKb,
      overBudget: best.gzipBytes > budget,
      leadChars: best.leadChars,
      sections: engine.sections.length,
      pages: engine.pages.length,
    },
  };
}

/**
 * The `client` search driver (the default of `search.driver`): one compact index per (set,
 * version, locale, audience) that the reader UI downloads lazily and queries with
 * `queryClientIndex` from `@kit/search/client`. Its own `search` runs the same function on the
 * same body, so agents and readers get the same results.
 *
 * Over budget, the engine decides for the reader: the index is fitted first (section leads
 * shortened, down to none); when it is still larger than `budgetKb` gzipped, `clientIndex` answers
 * a pointer to server search instead of the index, and the reader sends each query to the set's
 * `/_kit/search`, which runs this driver's `search` on the same body (the same hits), per viewer.
 * `clientIndexReport` still gives the index's real size, for `kit validate`'s `search.budget`.
 *
 * @example
 * const search = createClientSearch({ budgetKb: 300 });
 * await search.index(scope, sections);
 * const { overBudget, gzipBytes } = (await search.clientIndexReport(scope))!;
 */
export function createClientSearch(options: ClientSearchOptions = {}): ClientSearchDriver {
  const budgetKb = options.budgetKb ?? DEFAULT_BUDGET_KB;
  if (!Number.isFinite(budgetKb) || budgetKb <= 0) {
    throw new KitError(
      'config.invalid',
      `search.budget_kb must be a positive number of kilobytes, got ${String(budgetKb)}. Omit it for ${DEFAULT_BUDGET_KB}.`,
    );
  }
  const built = createScopeIndexes<Built>(
    {
      build: (sections) => buildClientIndex(sections, budgetKb),
      // The budget shapes the index, so it is part of what the kept one is made from.
      cacheKey: (key) => `client:${budgetKb}:${key}`,
      fromStored: (value) => builtFromStored(value) ?? `not a ${STORED_CLIENT_FORMAT} index`,
      toStored: (entry) => ({ format: STORED_CLIENT_FORMAT, ...entry }),
      sectionCount: (entry) => entry.texts.length,
    },
    options,
  );

  return {
    name: 'client',
    restore: built.restore,
    index: built.index,
    async search(scope: SearchScope, query: string, searchOptions: SearchOptions): Promise<SearchHit[]> {
      const { limit, sections } = searchArguments(scope, query, searchOptions);
      const entry = built.get(scope);
      if (!entry) return [];
      return queryClientIndex(entry.body, query, limit, { sectionTexts: entry.texts, sections });
    },
    async clientIndex(scope: SearchScope) {
      assertSearchScope(scope);
      const entry = built.get(scope);
      if (!entry) return null;
      const body = entry.report.overBudget ? serverSearchPointer(entry.report) : entry.body;
      return { body, contentType: 'application/json; charset=utf-8' };
    },
    async clientIndexReport(scope: SearchScope) {
      assertSearchScope(scope);
      return built.get(scope)?.report ?? null;
    },
  };
}
