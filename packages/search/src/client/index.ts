// Browser entry: nothing here may import Node built-ins, so the reader UI can bundle it.
import type { SearchHit } from '@kit/core';
import { assertSearchQuery, normalizeSearchLimit, normalizeSearchSections } from '@kit/core/internal';
import { CLIENT_INDEX_FORMAT, deserializeIndex, type SerializedIndex } from '../engine/codec.js';
import { toSearchHits } from '../engine/hits.js';
import { prepareRanking, rankSections } from '../engine/rank.js';
import type { EngineIndex } from '../engine/types.js';

export type { SerializedIndex } from '../engine/codec.js';
export { CLIENT_INDEX_FORMAT };

export interface ClientQueryOptions {
  /**
   * Whole section texts in index order, when the caller has them (the client driver on the
   * server does): snippets are then cut from the whole section rather than its stored lead.
   * Ranking is the same either way.
   */
  sectionTexts?: readonly string[];
  /**
   * Most sections per page, 1 to 5: the best as the hit, more of the same page in its `sections`.
   * Default 1, one section per page (the reader's search dialog).
   */
  sections?: number;
}

const CACHE_SIZE = 4;
const loaded = new Map<string | SerializedIndex, EngineIndex>();

/**
 * Decodes a client index once and keeps the last few, so typing a query re-ranks without
 * re-parsing the download.
 */
export function loadClientIndex(serialized: string | SerializedIndex): EngineIndex {
  const cached = loaded.get(serialized);
  if (cached) return cached;
  const data = typeof serialized === 'string' ? (JSON.parse(serialized) as SerializedIndex) : serialized;
  const index = deserializeIndex(data);
  if (loaded.size >= CACHE_SIZE) loaded.delete(loaded.keys().next().value!);
  loaded.set(serialized, index);
  return index;
}

/**
 * Searches a client index (the body `clientIndex(scope)` served) in the browser. The client
 * driver's server-side `search` runs this same function, so the reader UI and `search_docs`
 * agree on results.
 *
 * @example
 * const body = await fetch(indexUrl).then((response) => response.text());
 * const hits = queryClientIndex(body, 'queued listeners', 8);
 */
export function queryClientIndex(
  serialized: string | SerializedIndex,
  query: string,
  limit?: number,
  options: ClientQueryOptions = {},
): SearchHit[] {
  assertSearchQuery(query);
  const count = normalizeSearchLimit(limit);
  const index = loadClientIndex(serialized);
  const sections = normalizeSearchSections(options.sections ?? 1);
  return toSearchHits(index, rankSections(index, query, count, undefined, { sections }), options.sectionTexts);
}

/**
 * Decodes a client index and prepares its ranking (term statistics, the semantic model) ahead of the first
 * query: the reader calls it when the search dialog opens, so the first keystroke is answered
 * without waiting for that work.
 *
 * @example
 * prepareClientIndex(await fetch(indexUrl).then((response) => response.text()));
 */
export function prepareClientIndex(serialized: string | SerializedIndex): void {
  prepareRanking(loadClientIndex(serialized));
}
