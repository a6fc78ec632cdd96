import type { RankingData } from './data.js';
import { onPage } from './impacts.js';
import type { QueryGroups } from './types.js';

/**
 * Share of the query a page covers (0 to 1): per word the searcher wrote, its weight when the page
 * has its term, a reduced share of it for a typo, prefix or related-wording match, and for a
 * camelCase word matched by parts, the part share in proportion to the parts the page has; over
 * the weight of every word, the words no page has included.
 */
export function coverage(data: RankingData, query: QueryGroups, page: number): number {
  const covered = wordCoverage(data, query, page);
  return share(query, covered);
}

/** Covered weights over the query's whole weight (0 to 1); a query of no weight is covered. */
function share(query: QueryGroups, covered: number[]): number {
  let total = 0;
  let sum = 0;
  query.words.forEach((word, at) => {
    total += word.weight;
    sum += covered[at]!;
  });
  return total <= 0 ? 1 : Math.min(1, sum / total);
}

/** What a page covers of each word of the query (see {@link coverage}), in query order. */
function wordCoverage(data: RankingData, query: QueryGroups, page: number): number[] {
  const { params } = data;
  return query.words.map((word) => {
    let best = 0;
    for (const term of word.related) {
      if (onPage(data, term, page)) {
        best = params.related * word.weight;
        break;
      }
    }
    const group = word.group;
    if (group) {
      let parts = 0;
      for (const cursor of group.cursors) {
        if (!onPage(data, cursor.term, page)) continue;
        // A part alone stands for the word in proportion: the share of its parts the page has.
        if (group.partTerms?.has(cursor.term) && cursor.share <= params.part) {
          parts++;
          continue;
        }
        const value = Math.min(word.weight, cursor.share * data.idfPage[cursor.term]!);
        if (value > best) best = value;
      }
      if (parts > 0 && group.partCount) {
        best = Math.max(best, (params.part * word.weight * parts) / group.partCount);
      }
    }
    return best;
  });
}
