import type { SearchHit } from '@kit/core';
import type { RankOutcome } from './rank.js';
import { makeSnippet } from './snippet.js';
import type { EngineIndex } from './types.js';

/** Turns ranked sections into the specification's result items; `texts` (by section) overrides stored texts for snippets. */
export function toSearchHits(index: EngineIndex, outcome: RankOutcome, texts?: readonly string[]): SearchHit[] {
  return outcome.hits.map(({ section, score }) => {
    const entry = index.sections[section]!;
    const page = index.pages[entry.page]!;
    return {
      title: page.title,
      path: page.path,
      url: entry.url,
      markdown_url: page.markdownUrl,
      heading: entry.heading === '' ? null : entry.heading,
      snippet: makeSnippet(texts?.[section] || entry.text || page.description || '', outcome.matchedTerms),
      description: page.description,
      score: Math.round(score * 1000) / 1000,
    };
  });
}
