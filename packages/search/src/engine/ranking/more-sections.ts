import type { RankingData } from './data.js';
import { rewind } from './postings.js';
import type { QueryScratch } from './scratch.js';
import type { RankedSection, WordGroup } from './types.js';

/**
 * Share of a page's best section score another section of the page needs to be listed with it:
 * high enough that a stray mention is left out, low enough that a second subsection about the
 * question (the "Retrying Failed Jobs" beside "Failed Jobs") is not.
 */
export const MORE_SECTION_SHARE = 0.5;

/**
 * Every section of one page with its total for the query (the words' best term scores summed, as
 * `scorePage` sums them) and whether the section has a query word itself, not only through the
 * page's title or description that count in each of its sections.
 */
function sectionTotals(
  data: RankingData,
  scratch: QueryScratch,
  groups: WordGroup[],
  page: number,
): Array<{ local: number; total: number; own: boolean }> {
  const { reader } = scratch;
  const { acc, touched } = reader;
  const k1 = data.params.k1;
  const start = data.index.pageStart[page]!;
  const count = data.index.pageStart[page + 1]! - start;
  const totals = new Float64Array(count);
  const own = new Uint8Array(count);
  const word = new Float64Array(count);
  rewind(groups);
  for (const group of groups) {
    word.fill(0);
    for (const cursor of group.cursors) {
      reader.read(cursor, page, start, count);
      const whole = reader.whole;
      const sectionIdf = data.idfSection[cursor.term]! * cursor.share;
      for (let i = 0; i < reader.touchedCount; i++) {
        const local = touched[i]!;
        if (!group.related) own[local] = 1;
      }
      for (let local = 0; local < count; local++) {
        const tf = acc[local]! + whole;
        if (tf === 0) continue;
        const value = (sectionIdf * tf) / (k1 + tf);
        if (value > word[local]!) word[local] = value;
      }
      for (let i = 0; i < reader.touchedCount; i++) acc[touched[i]!] = 0;
    }
    for (let local = 0; local < count; local++) totals[local]! += word[local]!;
  }
  rewind(groups);
  return Array.from(totals, (total, local) => ({ local, total, own: own[local] === 1 }));
}

/**
 * A hit with up to `sections - 1` more sections of its page: those with a query word of their own
 * scoring at least {@link MORE_SECTION_SHARE} of the page's best section, best first. Each scores
 * the hit's score less what its section part falls short of the best section's.
 */
export function withMoreSections(
  data: RankingData,
  scratch: QueryScratch,
  groups: WordGroup[],
  hit: RankedSection,
  sections: number,
): RankedSection {
  const page = data.index.sectionPage[hit.section]!;
  const start = data.index.pageStart[page]!;
  const totals = sectionTotals(data, scratch, groups, page);
  const best = totals.reduce((most, entry) => Math.max(most, entry.total), 0);
  if (best <= 0) return hit;
  const more = totals
    .filter((entry) => entry.own && start + entry.local !== hit.section && entry.total >= MORE_SECTION_SHARE * best)
    .sort((a, b) => b.total - a.total || a.local - b.local)
    .slice(0, sections - 1)
    .map((entry) => ({
      section: start + entry.local,
      score: Math.max(0, hit.score - data.params.section * (best - entry.total)),
    }));
  return more.length > 0 ? { ...hit, more } : hit;
}
