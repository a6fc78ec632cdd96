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
}

export interface SearchResult {
  set: string;
  version: string;
  query: string;
  results: SearchHit[];
}

/**
 * The search-driver port. `client` and `server` ship in `@kit/search`; an application registers
 * its own by name. Every driver passes `runSearchDriverContract`.
 */
export interface SearchDriver {
  readonly name: string;
  /** Replaces the index of one scope. */
  index(scope: SearchScope, sections: SearchSection[]): Promise<void>;
  /** Best sections first; at most `limit`. */
  search(scope: SearchScope, query: string, options: { limit: number }): Promise<SearchHit[]>;
  /** The browser index of a scope, for drivers that search in the browser (gzip-ready bytes). */
  clientIndex?(scope: SearchScope): Promise<{ body: string; contentType: string } | null>;
}
