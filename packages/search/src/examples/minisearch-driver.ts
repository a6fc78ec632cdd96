// Worked example of a custom search driver: MiniSearch behind Kit's SearchDriver port.
// Register it, then name it in the config:
//
//   import { registerSearchDriver } from '@kit/search';
//   import { createMiniSearchDriver } from '@kit/search/examples/minisearch-driver';
//   registerSearchDriver('minisearch', () => createMiniSearchDriver());
//   // kit.config.ts: defineConfig({ search: { driver: 'minisearch' } })
//
// It passes `runSearchDriverContract` (see minisearch-driver.test.ts).
import type { SearchDriver, SearchHit, SearchScope, SearchSection } from '@kit/core';
import MiniSearch from 'minisearch';
import {
  assertSearchQuery,
  assertSearchScope,
  makeSnippet,
  normalizeSearchLimit,
  scopeKey,
  tokenize,
} from '../index.js';

type Stored = Pick<SearchSection, 'path' | 'title' | 'heading' | 'url' | 'markdownUrl' | 'text'> & {
  description: string | null;
};

/** A `SearchDriver` backed by MiniSearch, one index per scope, with prefix and fuzzy matching. */
export function createMiniSearchDriver(): SearchDriver {
  const indexes = new Map<string, { search: MiniSearch; stored: Map<number, Stored> }>();
  return {
    name: 'minisearch',
    async index(scope: SearchScope, sections: SearchSection[]) {
      assertSearchScope(scope);
      const search = new MiniSearch({ fields: ['title', 'heading', 'text'], idField: 'n' });
      const stored = new Map<number, Stored>();
      search.addAll(
        sections.map((section, n) => {
          stored.set(n, {
            path: section.path,
            title: section.title,
            heading: section.heading,
            url: section.url,
            markdownUrl: section.markdownUrl,
            text: section.text,
            description: section.description ?? null,
          });
          return { n, title: section.title, heading: section.headingPath.join(' '), text: section.text };
        }),
      );
      // Replacing the map entry is what makes a re-index drop the old sections.
      indexes.set(scopeKey(scope), { search, stored });
    },
    async search(scope: SearchScope, query: string, options: { limit: number }): Promise<SearchHit[]> {
      assertSearchScope(scope);
      assertSearchQuery(query);
      const limit = normalizeSearchLimit(options?.limit);
      const entry = indexes.get(scopeKey(scope));
      const words = query.slice(0, 1000).trim();
      if (!entry || words === '') return [];
      const results = entry.search.search(words, { boost: { title: 3, heading: 2 }, prefix: true, fuzzy: 0.2 });
      const terms = new Set(tokenize(words).map((token) => token.term));
      const seenPages = new Set<string>();
      const hits: SearchHit[] = [];
      for (const result of results) {
        const section = entry.stored.get(result.id as number)!;
        if (seenPages.has(section.path)) continue;
        seenPages.add(section.path);
        hits.push({
          title: section.title,
          path: section.path,
          url: section.url,
          markdown_url: section.markdownUrl,
          heading: section.heading || null,
          snippet: makeSnippet(section.text, terms),
          description: section.description,
          score: Math.round(result.score * 1000) / 1000,
        });
        if (hits.length === limit) break;
      }
      return hits;
    },
  };
}
