/** One indexed section. */
export interface SearchSection {
  /** Unique within a scope: `${path}#${anchor ?? ''}`. */
  id: string;
  path: string;
  /** Page title. */
  title: string;
  /** Section heading, empty for the intro. */
  heading: string;
  headingPath: string[];
  anchor?: string;
  description?: string;
  text: string;
  /** Site URL of the section (with `#anchor`). */
  url: string;
  markdownUrl: string;
}

/**
 * What an index covers. `audience` separates what guests may see (`public`) from what a viewer
 * allowed by `viewKit` may see (`private`), so a public index never holds a private page.
 */
export interface SearchScope {
  set: string;
  version: string;
  locale: string;
  audience: 'public' | 'private';
}

/** Another section of a result's page that matches the query too (see `SearchHit.sections`). */
export interface SearchHitSection {
  heading: string | null;
  /** Site URL of the section (with `#anchor`). */
  url: string;
  snippet: string;
  score: number;
}

/** One result, as the specification's search result table names the fields. */
export interface SearchHit {
  title: string;
  path: string;
  url: string;
  markdown_url: string;
  heading: string | null;
  snippet: string;
  description: string | null;
  score: number;
  /**
   * More sections of the same page that match the query well, best first, besides the one in
   * `heading`, `url` and `snippet`: at most `sections - 1` of the search options. A driver that
   * finds one section per page leaves it out; `search_docs` always answers a list.
   */
  sections?: SearchHitSection[];
}

/** What a search asks of a driver besides the query. */
export interface SearchOptions {
  limit: number;
  /** Most sections per page, 1 to 5; default 1. */
  sections?: number;
}

export interface SearchResult {
  set: string;
  version: string;
  query: string;
  results: SearchHit[];
}

/** What `SearchDriver.index` is told besides the sections. */
export interface SearchIndexOptions {
  /**
   * Names what the sections were made from (the pages' content hashes, the manifest, the renderer's
   * code, the scope): equal keys mean equal sections. A driver that persists its indexes stores
   * the built index under it, so a later `restore` with the same key loads it instead of building.
   */
  key?: string;
}

/**
 * The search-driver port. `client` and `server` ship in `@kit/search`; an application registers
 * its own by name. Every driver passes `runSearchDriverContract`.
 */
export interface SearchDriver {
  readonly name: string;
  /** Replaces the index of one scope. */
  index(scope: SearchScope, sections: SearchSection[], options?: SearchIndexOptions): Promise<void>;
  /**
   * Makes the index kept under `key` (see {@link SearchIndexOptions.key}) the scope's index, from
   * wherever the driver persists indexes, without being given the sections: true when it did,
   * false when it has none under that key (the caller then builds the sections and calls
   * `index`). Optional: a driver that keeps nothing between runs leaves it out.
   */
  restore?(scope: SearchScope, key: string): Promise<boolean>;
  /**
   * Best pages first, at most `limit`, each with its best section. `sections` (default 1) asks for
   * up to that many sections per page: the best as the hit, more in `SearchHit.sections`. A query
   * nothing really matches answers no hits rather than the pages of a stray word.
   */
  search(scope: SearchScope, query: string, options: SearchOptions): Promise<SearchHit[]>;
  /**
   * The browser index of a scope, for drivers that search in the browser (gzip-ready bytes). A
   * driver may answer a small JSON telling the reader to search through the server instead (the
   * `client` driver does when its index is over `search.budget_kb` gzipped); the route serves
   * whatever body it answers.
   */
  clientIndex?(scope: SearchScope): Promise<{ body: string; contentType: string } | null>;
}
