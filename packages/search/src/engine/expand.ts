import type { QueryWord } from '../text/analyze.js';
import type { EngineIndex } from './types.js';

/** Score shares of the inexact ways a query word can match an index term. */
export interface ExpansionShares {
  prefix: number;
  typo1: number;
  typo2: number;
}

/** Lower bound of `prefix` in the sorted `list`. */
export function lowerBound(list: string[], prefix: string): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (list[mid]! < prefix) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Rows of the distance table, reused: words are at most 40 characters (see `analyze.ts`). */
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/** Optimal-string-alignment distance, or `max + 1` as soon as it must exceed `max`. */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const width = b.length + 1;
  if (rows[0]!.length < width) rows = [new Int32Array(width), new Int32Array(width), new Int32Array(width)];
  let [previous2, previous, current] = rows as [Int32Array, Int32Array, Int32Array];
  for (let j = 0; j < width; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j < width; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1))
        value = Math.min(value, previous2[j - 2]! + 1);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    [previous2, previous, current] = [previous, current, previous2];
  }
  return previous[b.length]!;
}

const MAX_EXPANSIONS = 16;

/** The index terms one query word stands for, each with the share of score a match earns. */
export function expand(index: EngineIndex, word: QueryWord, params: ExpansionShares): Map<number, number> {
  const found = new Map<number, number>();
  const exact = index.termId.get(word.term);
  if (exact !== undefined) found.set(exact, 1);
  const offer = (term: number, weight: number) => {
    if ((found.get(term) ?? 0) < weight) found.set(term, weight);
  };
  if ((word.partial || exact === undefined) && word.surface.length >= 3) {
    let added = 0;
    for (let i = lowerBound(index.surfaces, word.surface); i < index.surfaces.length; i++) {
      if (!index.surfaces[i]!.startsWith(word.surface) || added >= MAX_EXPANSIONS) break;
      offer(index.surfaceTerm[i]!, params.prefix);
      added++;
    }
  }
  if (exact === undefined && word.surface.length >= 4) {
    const max = word.surface.length >= 8 ? 2 : 1;
    // Typos rarely hit the first letter; requiring it keeps the scan to one sorted run of words.
    const first = word.surface[0]!;
    const end = lowerBound(index.surfaces, String.fromCharCode(first.charCodeAt(0) + 1));
    for (let i = lowerBound(index.surfaces, first); i < end; i++) {
      const candidate = index.surfaces[i]!;
      if (Math.abs(candidate.length - word.surface.length) > max) continue;
      const distance = editDistance(word.surface, candidate, max);
      if (distance > max) continue;
      offer(index.surfaceTerm[i]!, distance === 1 ? params.typo1 : params.typo2);
    }
  }
  return found;
}
