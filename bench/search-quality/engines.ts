import { create, insertMultiple, search as oramaSearch } from '@orama/orama';
import type { SearchSection } from '@kit/core';
import lunr from 'lunr';
import MiniSearch from 'minisearch';

/** An engine under test: returns page paths, best first (sections deduplicated to pages by the caller). */
export interface PageRanker {
  name: string;
  search(query: string): Promise<string[]>;
}

/** Off-the-shelf lunr: default pipeline, fields title, heading and text, no boosts. */
export function lunrRanker(sections: SearchSection[]): PageRanker {
  const byId = new Map(sections.map((section) => [section.id, section]));
  const index = lunr(function () {
    this.ref('id');
    this.field('title');
    this.field('heading');
    this.field('text');
    for (const section of sections) {
      this.add({ id: section.id, title: section.title, heading: section.headingPath.join(' '), text: section.text });
    }
  });
  return {
    name: 'lunr',
    async search(query) {
      let results: lunr.Index.Result[];
      try {
        results = index.search(query);
      } catch {
        // lunr's query syntax rejects some plain questions (`N+1`); search the escaped words instead.
        results = index.search(query.replace(/[:^~+\-*]/g, ' '));
      }
      return results.map((result) => byId.get(result.ref)!.path);
    },
  };
}

/** Off-the-shelf MiniSearch: default options over the same three fields. */
export function miniSearchRanker(sections: SearchSection[]): PageRanker {
  const index = new MiniSearch<{ id: string; title: string; heading: string; text: string; path: string }>({
    fields: ['title', 'heading', 'text'],
    storeFields: ['path'],
  });
  index.addAll(
    sections.map((section) => ({
      id: section.id,
      title: section.title,
      heading: section.headingPath.join(' '),
      text: section.text,
      path: section.path,
    })),
  );
  return {
    name: 'minisearch',
    async search(query) {
      return index.search(query).map((result) => result.path as string);
    },
  };
}

/** Off-the-shelf Orama: default BM25 over the same three fields. */
export async function oramaRanker(sections: SearchSection[]): Promise<PageRanker> {
  const db = create({ schema: { title: 'string', heading: 'string', text: 'string', path: 'string' } as const });
  await insertMultiple(
    db,
    sections.map((section) => ({
      title: section.title,
      heading: section.headingPath.join(' '),
      text: section.text,
      path: section.path,
    })),
  );
  return {
    name: 'orama',
    async search(query) {
      const result = await oramaSearch(db, { term: query, properties: ['title', 'heading', 'text'], limit: 100 });
      return result.hits.map((hit) => hit.document.path as string);
    },
  };
}
