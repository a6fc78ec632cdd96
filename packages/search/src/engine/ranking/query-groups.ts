import { analyzeQuery, type QueryWord } from '../../text/analyze.js';
import { relatedTerms, relatedWordings } from '../../text/related.js';
import { expand } from '../expand.js';
import { occurs, type RankingData } from './data.js';
import { openCursor } from './postings.js';
import type { CoverageWord, QueryGroups, TermCursor, WordGroup } from './types.js';

/**
 * The index terms one query word stands for with their shares: its own (exact, prefix, typo)
 * and, for a camelCase word, its parts at a reduced share, as alternatives within the word.
 */
function termsOf(data: RankingData, word: QueryWord): Map<number, number> {
  const { index, params } = data;
  const terms = expand(index, word, params);
  for (const part of word.parts) {
    const term = index.termId.get(part);
    if (term !== undefined && (terms.get(term) ?? 0) < params.part) terms.set(term, params.part);
  }
  return terms;
}

/** The docs' wording of what each query word says in other words, to cover the word with. */
function standInsOf(data: RankingData, query: string): Map<string, number[]> {
  const standIns = new Map<string, number[]>();
  for (const wording of relatedWordings(query)) {
    const terms = wording.related.map((term) => data.index.termId.get(term)).filter((id) => id !== undefined);
    for (const said of wording.said) standIns.set(said, [...(standIns.get(said) ?? []), ...terms]);
  }
  return standIns;
}

/**
 * Turns query words into groups of the index terms they match, with cursors, ordered by what
 * they can add to a page; adds the index terms they matched to `matchedTerms` (for snippets).
 */
export function groupsOf(data: RankingData, query: string, matchedTerms: Set<string>): QueryGroups {
  const { index, params } = data;
  const groups: WordGroup[] = [];
  const words: CoverageWord[] = [];
  const standIns = standInsOf(data, query);
  for (const word of analyzeQuery(query)) {
    const related = params.related > 0 ? (standIns.get(word.term) ?? []) : [];
    const cursors: TermCursor[] = [];
    let best = 0;
    for (const [term, share] of termsOf(data, word)) {
      if (!occurs(data, term)) continue;
      matchedTerms.add(index.terms[term]!);
      cursors.push(openCursor(index, data.skips, term, share));
      best = Math.max(best, data.idfPage[term]!);
    }
    if (cursors.length === 0) {
      words.push({ weight: data.unknownWeight, group: null, related });
      continue;
    }
    const exact = index.termId.get(word.term);
    const weight = exact !== undefined && occurs(data, exact) ? data.idfPage[exact]! : best;
    const group: WordGroup = { cursors, reach: 0, weight };
    if (word.parts.length > 0) {
      group.partCount = word.parts.length;
      group.partTerms = new Set();
      for (const part of word.parts) {
        const term = index.termId.get(part);
        if (term !== undefined) group.partTerms.add(term);
      }
    }
    groups.push(group);
    words.push({ weight, group, related });
  }
  if (params.related > 0) {
    for (const related of relatedTerms(query)) {
      const term = index.termId.get(related);
      if (term === undefined || !occurs(data, term)) continue;
      matchedTerms.add(related);
      groups.push({
        cursors: [openCursor(index, data.skips, term, params.related)],
        reach: 0,
        weight: 0,
        related: true,
      });
    }
  }
  return { groups: byReach(data, groups), words };
}

/**
 * Words that can add the most first: a page that cannot make the results is then found out
 * after its first words (see `scorePage`). Numbers the cursors in that order (their presence bits).
 */
function byReach(data: RankingData, groups: WordGroup[]): WordGroup[] {
  for (const group of groups) {
    for (const cursor of group.cursors) group.reach = Math.max(group.reach, cursor.share * data.termMax[cursor.term]!);
  }
  const ordered = groups
    .map((group, at) => ({ group, at }))
    .sort((a, b) => b.group.reach - a.group.reach || a.at - b.at)
    .map((entry) => entry.group);
  let bit = 0;
  for (const group of ordered) for (const cursor of group.cursors) cursor.bit = bit++;
  return ordered;
}
