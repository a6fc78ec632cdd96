import type { SearchSection } from '@kit/core';

/**
 * Pages per segment of a server index. A scope of up to this many pages is one index, searched
 * exactly as it always was; a larger one is cut into segments of about this many pages, each an
 * index of its own, built on its own (in parallel, and only again when one of its pages changed)
 * and searched side by side.
 */
export const SEGMENT_PAGES = 2500;

/** FNV-1a of a page path: where a page lands does not depend on the other pages. */
function pathHash(path: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) {
    hash ^= path.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * The sections of a scope in segments: one segment (the sections as given) up to `segmentPages`
 * pages, else `ceil(pages / segmentPages)` segments. A page's sections stay together, in their
 * order; a page's segment follows from its path alone, so a change to one page leaves every other
 * segment as it was, and the segment count changes only when the set crosses a multiple of
 * `segmentPages`.
 *
 * @example
 * splitIntoSegments(sections, 2500).length; // 4 for 10,000 pages
 */
export function splitIntoSegments(sections: SearchSection[], segmentPages: number = SEGMENT_PAGES): SearchSection[][] {
  const pages = new Set<string>();
  for (const section of sections) pages.add(section.path);
  const count = Math.ceil(pages.size / Math.max(1, segmentPages));
  if (count <= 1) return [sections];
  const segments: SearchSection[][] = Array.from({ length: count }, () => []);
  for (const section of sections) segments[pathHash(section.path) % count]!.push(section);
  return segments.filter((segment) => segment.length > 0);
}

/**
 * The best `limit` entries of several segments' ranked lists, as `[list, position]` pairs: each
 * list keeps its own order (which the ranker's title and semantic passes set, not the score
 * alone), and the lists are merged by the score at their heads, as a search across shards merges
 * its shards' answers.
 *
 * @example
 * mergeByScore([[{ score: 9 }, { score: 5 }], [{ score: 7 }]], 2); // [[0, 0], [1, 0]]
 */
export function mergeByScore(
  lists: ReadonlyArray<ReadonlyArray<{ score: number }>>,
  limit: number,
): Array<[number, number]> {
  const heads = lists.map(() => 0);
  const merged: Array<[number, number]> = [];
  while (merged.length < limit) {
    let best = -1;
    for (let list = 0; list < lists.length; list++) {
      const entry = lists[list]![heads[list]!];
      if (entry && (best === -1 || entry.score > lists[best]![heads[best]!]!.score)) best = list;
    }
    if (best === -1) break;
    merged.push([best, heads[best]!]);
    heads[best]! += 1;
  }
  return merged;
}
