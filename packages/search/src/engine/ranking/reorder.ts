import { tokenize } from '../../text/analyze.js';
import type { RankingData } from './data.js';
import { seek } from './postings.js';
import type { RankedSection, WordGroup } from './types.js';

/**
 * Share of a page's title the query has: per query word, its best term's count in the title
 * times its share, summed over words and divided by the title's length (at most 1).
 */
function titleCoverage(data: RankingData, groups: WordGroup[], page: number): number {
  const length = data.index.titleLen[page]!;
  if (length === 0) return 0;
  let covered = 0;
  for (const group of groups) {
    let best = 0;
    for (const cursor of group.cursors) {
      const at = seek(cursor.titleIds, 0, page);
      if (cursor.titleIds[at] !== page) continue;
      const value = cursor.share * cursor.titleTfs[at]!;
      if (value > best) best = value;
    }
    covered += best;
  }
  return Math.min(1, covered / length);
}

/**
 * Reorders the hits after the first by their score plus title coverage. The first hit keeps its
 * place, and no later hit scores above it, so scores stay best first.
 */
export function promoteTitles(data: RankingData, groups: WordGroup[], hits: RankedSection[]): RankedSection[] {
  const weight = data.params.titleCoverage;
  if (weight <= 0 || hits.length < 3) return hits;
  const first = hits[0]!;
  const rest = hits.slice(1).map((hit) => ({
    section: hit.section,
    score: hit.score + weight * titleCoverage(data, groups, data.index.sectionPage[hit.section]!),
  }));
  rest.sort((a, b) => b.score - a.score || a.section - b.section);
  for (const hit of rest) if (hit.score > first.score) hit.score = first.score;
  return [first, ...rest];
}

/**
 * Points a hit at its page's first section when every word the searcher wrote is in the page's
 * title and none is in the heading of the section that scored best: a search for "navigation"
 * opens the Navigation page, not its Errors section that repeats the word. Scores and order stay.
 */
export function landOnTitledPages(data: RankingData, groups: WordGroup[], hits: RankedSection[]): RankedSection[] {
  const words = groups.filter((group) => !group.related);
  if (words.length === 0) return hits;
  const { index } = data;
  const { sectionPage, pageStart } = index;
  return hits.map((hit) => {
    const page = sectionPage[hit.section]!;
    const first = pageStart[page]!;
    if (hit.section === first) return hit;
    const inTitle = words.every((group) =>
      group.cursors.some((cursor) => cursor.titleIds[seek(cursor.titleIds, 0, page)] === page),
    );
    if (!inTitle) return hit;
    // The section's own heading: its heading path also holds the headings above it.
    const heading = new Set(tokenize(index.sections[hit.section]!.heading).map((token) => token.term));
    const inHeading = words.some((group) => group.cursors.some((cursor) => heading.has(index.terms[cursor.term]!)));
    return inHeading ? hit : { section: first, score: hit.score };
  });
}

/**
 * Reorders hits by their score plus the semantic match of their page: the cosine between the
 * page's latent vector and the query's (each word's terms weighted by their shares, so one word
 * weighs as one however many forms it matched), times `params.semantic` and the first hit's score.
 */
export function semanticRerank(data: RankingData, groups: WordGroup[], hits: RankedSection[]): RankedSection[] {
  const model = data.model;
  if (!model || hits.length < 2) return hits;
  const { dims, termVectors, termWeights, pageVectors } = model;
  const query = new Float64Array(dims);
  for (const group of groups) {
    let shares = 0;
    for (const cursor of group.cursors) shares += cursor.share;
    for (const cursor of group.cursors) {
      const weight = (termWeights[cursor.term]! * cursor.share) / shares;
      if (weight === 0) continue;
      const base = cursor.term * dims;
      for (let c = 0; c < dims; c++) query[c]! += weight * termVectors[base + c]!;
    }
  }
  let norm = 0;
  for (let c = 0; c < dims; c++) norm += query[c]! * query[c]!;
  if (norm === 0) return hits;
  const scale = (data.params.semantic * hits[0]!.score) / Math.sqrt(norm);
  const reranked = hits.map((hit) => {
    const base = data.index.sectionPage[hit.section]! * dims;
    let cosine = 0;
    for (let c = 0; c < dims; c++) cosine += query[c]! * pageVectors[base + c]!;
    return { section: hit.section, score: hit.score + scale * Math.max(0, cosine) };
  });
  return reranked.sort((a, b) => b.score - a.score || a.section - b.section);
}
