import type { SearchHit } from '@kit/core';
import type { RankOutcome } from './rank.js';
import { type MatchLocator, makeSnippet } from './snippet.js';
import type { EngineIndex } from './types.js';

const surfacesByTerm = new WeakMap<EngineIndex, string[][]>();

function surfacesOf(index: EngineIndex, term: number): string[] {
  let byTerm = surfacesByTerm.get(index);
  if (!byTerm) {
    byTerm = Array.from({ length: index.terms.length }, () => [] as string[]);
    for (let i = 0; i < index.surfaces.length; i++) byTerm[index.surfaceTerm[i]!]!.push(index.surfaces[i]!);
    surfacesByTerm.set(index, byTerm);
  }
  return byTerm[term] ?? [];
}

const ASCII_WORD = /^[a-z0-9]+$/;

/**
 * Finds the matched words of long section texts with one native regular expression of their
 * written forms instead of tokenizing and stemming every word of every hit's text. Only for plain
 * ASCII forms, whose lowercase is the form; otherwise snippets tokenize.
 */
function locatorFor(index: EngineIndex, terms: ReadonlySet<string>): MatchLocator | undefined {
  const termOfSurface = new Map<string, string>();
  for (const term of terms) {
    const id = index.termId.get(term);
    if (id === undefined) return undefined;
    for (const surface of surfacesOf(index, id)) {
      if (!ASCII_WORD.test(surface)) return undefined;
      termOfSurface.set(surface, term);
    }
  }
  if (termOfSurface.size === 0) return undefined;
  const alternatives = [...termOfSurface.keys()].sort((a, b) => b.length - a.length).join('|');
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}\\p{M}])(?:${alternatives})(?![\\p{L}\\p{N}\\p{M}])`, 'giu');
  return (text) =>
    Array.from(text.matchAll(pattern), (match) => ({
      term: termOfSurface.get(match[0].toLowerCase())!,
      start: match.index,
      end: match.index + match[0].length,
    }));
}

/** Turns ranked sections into the specification's result items; `texts` (by section) overrides stored texts for snippets. */
export function toSearchHits(index: EngineIndex, outcome: RankOutcome, texts?: readonly string[]): SearchHit[] {
  const locate = outcome.hits.length > 0 ? locatorFor(index, outcome.matchedTerms) : undefined;
  return outcome.hits.map(({ section, score }) => {
    const entry = index.sections[section]!;
    const page = index.pages[entry.page]!;
    return {
      title: page.title,
      path: page.path,
      url: entry.url,
      markdown_url: page.markdownUrl,
      heading: entry.heading === '' ? null : entry.heading,
      snippet: makeSnippet(
        texts?.[section] || entry.text || page.description || '',
        outcome.matchedTerms,
        undefined,
        locate,
      ),
      description: page.description,
      score: Math.round(score * 1000) / 1000,
    };
  });
}
