import type { SearchDriver, SearchHit, SearchOptions, SearchScope, SearchSection } from '@kit/core';
import { buildEngineIndex } from '../engine/build.js';
import { toSearchHits } from '../engine/hits.js';
import { indexFromStored, type StoredIndex, storedIndexOf } from '../engine/persist.js';
import { DEFAULT_RANKING, prepareRanking, type RankingParams, rankSections } from '../engine/rank.js';
import type { EngineIndex } from '../engine/types.js';
import type { SearchIndexCache } from './index-cache.js';
import { createScopeIndexes, type SearchIndexReport, searchArguments } from './scope-indexes.js';
import { mergeByScore, SEGMENT_PAGES, splitIntoSegments } from './segments.js';

export interface ServerSearchOptions {
  /** BM25F weights; the defaults are the ones `bench/search-quality` measured. */
  ranking?: Partial<RankingParams>;
  /**
   * Keeps built indexes between runs (`createDiskIndexCache` from `@kit/search/node`, which `kit
   * serve`, `kit mcp` and the reference server use): an index whose key is found is loaded, not
   * built. Default: indexes live in memory only.
   */
  cache?: SearchIndexCache;
  /** Told each time a scope gets its index, built or loaded (logs, tests). */
  onIndex?: (report: SearchIndexReport) => void;
  /**
   * Builds indexes away from the calling thread (`createWorkerIndexBuilder` from `@kit/search/node`,
   * which `kit serve`, `kit mcp` and the reference server use). A scope of fewer than
   * `builderFrom` sections (all its segments together) is still built in place, where a worker would cost more than it saves.
   * Either way the index, and so every search, is the same.
   */
  builder?: IndexBuilder;
  /** @default 10000 ({@link WORKER_BUILD_FROM_SECTIONS}) */
  builderFrom?: number;
  /** Pages per segment of an index (see {@link SEGMENT_PAGES}). @default 2500 */
  segmentPages?: number;
  /** Segments built at once (with a `builder`, one worker thread each). @default 1 */
  parallelBuilds?: number;
}

/** Builds the stored form of a server index from its sections, elsewhere (a worker thread). */
export type IndexBuilder = (sections: SearchSection[], ranking: RankingParams) => Promise<StoredIndex>;

/** Sections from which a server driver with a `builder` hands the build to it. */
export const WORKER_BUILD_FROM_SECTIONS = 10_000;

/**
 * The `server` search driver: a BM25F ranker over page title, heading path, description and
 * body, with Porter stemming, prefix matching of the word being typed and one- or two-edit typo
 * tolerance, whose first pages are reordered by a semantic match learned from the set itself
 * (latent semantic analysis, see `engine/semantic.ts`). Indexes live in memory, one per (set,
 * version, locale, audience); with a `cache`, each built index is also kept there under the key
 * of its content, and `restore` (or `index` with the same content) loads it back instead of
 * building it again.
 *
 * @example
 * const search = createServerSearch({ cache: createDiskIndexCache({ dir: '.kit/cache/search' }) });
 * await search.index(scope, sections);
 * const hits = await search.search(scope, 'queued listeners', { limit: 8 });
 */
export function createServerSearch(options: ServerSearchOptions = {}): SearchDriver {
  const ranking: RankingParams = { ...DEFAULT_RANKING, ...options.ranking };
  const segmentPages = options.segmentPages ?? SEGMENT_PAGES;
  /** Builds one index (a scope's, or a segment of it), on the builder when the whole scope is large. */
  const buildOne = async (sections: SearchSection[], scopeSections: number): Promise<EngineIndex> => {
    const { builder } = options;
    if (builder && scopeSections >= (options.builderFrom ?? WORKER_BUILD_FROM_SECTIONS)) {
      const index = indexFromStored(await builder(sections, ranking));
      if (typeof index === 'string') throw new Error(`The search index built on a worker is not usable: ${index}.`);
      prepareRanking(index, ranking);
      return index;
    }
    const index = buildEngineIndex(sections);
    // Term statistics (and the semantic model) are computed here, not by the first query after a rebuild.
    prepareRanking(index, ranking);
    return index;
  };
  const indexes = createScopeIndexes<SegmentedIndex>(
    {
      async build(sections, previous) {
        const parts = splitIntoSegments(sections, segmentPages);
        if (parts.length === 1)
          return { segments: [{ digest: null, index: await buildOne(sections, sections.length) }] };
        // A segment whose sections are the same as before is kept: a change to one page rebuilds one segment.
        const digests = await Promise.all(parts.map(sectionsDigest));
        const kept = new Map(previous?.segments.map((segment) => [segment.digest, segment.index]));
        const built = await eachAtMost(options.parallelBuilds ?? 1, parts, (part, at) =>
          Promise.resolve(kept.get(digests[at]!) ?? buildOne(part, sections.length)),
        );
        return { segments: built.map((index, at) => ({ digest: digests[at]!, index })) };
      },
      keyOf: sectionsDigest,
      cacheKey: (key) => key,
      fromStored: segmentedFromStored,
      async toStored(entry) {
        // Encoding is synchronous: requests that arrived during the build are answered first.
        await new Promise((resume) => setTimeout(resume, 0));
        return storedSegmentsOf(entry);
      },
      sectionCount: (entry) => entry.segments.reduce((sum, segment) => sum + segment.index.sections.length, 0),
    },
    options,
  );

  function segmentedFromStored(value: unknown): SegmentedIndex | string {
    const stored = value as Partial<StoredSegments> | null;
    if (stored?.format !== STORED_SEGMENTS_FORMAT) {
      const index = indexFromStored(value);
      if (typeof index === 'string') return index;
      prepareRanking(index, ranking);
      return { segments: [{ digest: null, index }] };
    }
    if (!Array.isArray(stored.segments)) return 'segments missing';
    const segments: SegmentedIndex['segments'] = [];
    for (const segment of stored.segments) {
      const index = indexFromStored(segment?.index);
      if (typeof index === 'string') return `segment ${segments.length + 1}: ${index}`;
      prepareRanking(index, ranking);
      segments.push({ digest: segment.digest, index });
    }
    return { segments };
  }

  return {
    name: 'server',
    restore: indexes.restore,
    index: indexes.index,
    async search(scope: SearchScope, query: string, searchOptions: SearchOptions): Promise<SearchHit[]> {
      const { limit, sections } = searchArguments(scope, query, searchOptions);
      const entry = indexes.get(scope);
      if (!entry) return [];
      if (entry.segments.length === 1) {
        const { index } = entry.segments[0]!;
        return toSearchHits(index, rankSections(index, query, limit, ranking, { sections }));
      }
      // Each segment ranks; snippets are cut only for the hits that make the merged list.
      const outcomes = entry.segments.map(({ index }) => rankSections(index, query, limit, ranking, { sections }));
      const picked = mergeByScore(
        outcomes.map((outcome) => outcome.hits),
        limit,
      );
      const hitsOf = outcomes.map((outcome, segment) => {
        const chosen = picked.filter(([from]) => from === segment).map(([, at]) => outcome.hits[at]!);
        return toSearchHits(entry.segments[segment]!.index, { hits: chosen, matchedTerms: outcome.matchedTerms });
      });
      const taken = hitsOf.map(() => 0);
      return picked.map(([segment]) => hitsOf[segment]![taken[segment]!++]!);
    },
  };
}

/** A scope's server index: one segment up to `segmentPages` pages, more past it (see `splitIntoSegments`). */
interface SegmentedIndex {
  /** `digest` names a segment's sections (null for a scope of one segment). */
  segments: Array<{ digest: string | null; index: EngineIndex }>;
}

/** Names the stored form of an index of several segments. */
const STORED_SEGMENTS_FORMAT = 'kit-server-segments/1';

interface StoredSegments {
  format: typeof STORED_SEGMENTS_FORMAT;
  segments: Array<{ digest: string | null; index: StoredIndex }>;
}

/** What the index cache keeps: a one-segment index exactly as before segments, else each segment's. */
function storedSegmentsOf(entry: SegmentedIndex): StoredIndex | StoredSegments {
  if (entry.segments.length === 1) return storedIndexOf(entry.segments[0]!.index);
  return {
    format: STORED_SEGMENTS_FORMAT,
    segments: entry.segments.map((segment) => ({ digest: segment.digest, index: storedIndexOf(segment.index) })),
  };
}

/** `work` over `items`, at most `limit` at once, results in the items' order. */
async function eachAtMost<T, R>(limit: number, items: T[], work: (item: T, at: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const at = next++;
      results[at] = await work(items[at]!, at);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return results;
}

/** A key for sections given without one: the SHA-256 of their JSON (Web Crypto, so it runs anywhere). */
async function sectionsDigest(sections: SearchSection[]): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(sections));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return `sections:${Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}
