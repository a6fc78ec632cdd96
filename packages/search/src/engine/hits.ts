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
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;

/** Whether the UTF-16 unit at `at` belongs to a word (as `tokenize` reads words); false outside the text. */
function isWordChar(text: string, at: number): boolean {
  if (at < 0 || at >= text.length) return false;
  const code = text.charCodeAt(at);
  if (code < 128) return (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
  // A surrogate half stands for a letter of another plane as often as not: read the whole code point.
  const start = code >= 0xdc00 && code <= 0xdfff && at > 0 ? at - 1 : at;
  return WORD_CHAR.test(String.fromCodePoint(text.codePointAt(start)!));
}

/**
 * Finds the matched words of long section texts by searching the lowercased text for each of their
 * written forms (native substring search) and keeping whole words, instead of tokenizing and
 * stemming every word of every hit's text. Only for plain ASCII forms, whose lowercase is the
 * form; otherwise snippets tokenize. No per-query regular expression is compiled: a new one costs
 * more than the search itself on the first texts it reads.
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
  const surfaces = [...termOfSurface];
  return (text) => {
    const lower = text.toLowerCase();
    // A few characters lowercase to two (`İ`): offsets would shift, so such texts tokenize.
    if (lower.length !== text.length) return undefined;
    const found: Array<{ term: string; start: number; end: number }> = [];
    for (const [surface, term] of surfaces) {
      for (let at = lower.indexOf(surface); at !== -1; at = lower.indexOf(surface, at + 1)) {
        const end = at + surface.length;
        if (!isWordChar(lower, at - 1) && !isWordChar(lower, end)) found.push({ term, start: at, end });
      }
    }
    // Whole words never overlap, so their order is the order of their starts.
    return found.sort((a, b) => a.start - b.start);
  };
}

/**
 * Turns ranked sections into the specification's result items; `texts` (by section) overrides
 * stored texts for snippets. A hit ranked with more sections of its page lists them in `sections`.
 */
export function toSearchHits(index: EngineIndex, outcome: RankOutcome, texts?: readonly string[]): SearchHit[] {
  const locate = outcome.hits.length > 0 ? locatorFor(index, outcome.matchedTerms) : undefined;
  const snippetOf = (section: number) => {
    const entry = index.sections[section]!;
    const page = index.pages[entry.page]!;
    // Never empty: a section without text of its own (only sub-headings, see `build.ts`) falls back
    // to the page's description, then to where it sits.
    const text =
      texts?.[section] || entry.text || page.description || [page.title, entry.heading].filter(Boolean).join(' › ');
    return makeSnippet(text, outcome.matchedTerms, undefined, locate);
  };
  return outcome.hits.map(({ section, score, more }) => {
    const entry = index.sections[section]!;
    const page = index.pages[entry.page]!;
    const hit: SearchHit = {
      title: page.title,
      path: page.path,
      url: entry.url,
      markdown_url: page.markdownUrl,
      heading: entry.heading === '' ? null : entry.heading,
      snippet: snippetOf(section),
      description: page.description,
      score: Math.round(score * 1000) / 1000,
    };
    if (more) {
      hit.sections = more.map((other) => {
        const otherEntry = index.sections[other.section]!;
        return {
          heading: otherEntry.heading === '' ? null : otherEntry.heading,
          url: otherEntry.url,
          snippet: snippetOf(other.section),
          score: Math.round(other.score * 1000) / 1000,
        };
      });
    }
    return hit;
  });
}
