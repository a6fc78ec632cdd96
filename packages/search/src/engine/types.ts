/** A page of an engine index: what every hit of the page repeats. */
export interface EnginePage {
  path: string;
  title: string;
  description: string | null;
  markdownUrl: string;
}

/** A section of an engine index, in page order. */
export interface EngineSection {
  page: number;
  /** Heading text, empty for the intro. */
  heading: string;
  url: string;
  /** Text snippets are cut from: the whole section on the server, its lead in a client index. */
  text: string;
}

/** Postings of one field: for each term, ascending ids (sections or pages) and their term counts. */
export interface FieldPostings {
  ids: Uint32Array[];
  tfs: Uint16Array[];
}

/**
 * The in-memory index both drivers rank with. The server driver builds it from sections; a client
 * index is a compact serialization of the same structure, so the browser ranks exactly as the
 * server does.
 */
export interface EngineIndex {
  pages: EnginePage[];
  sections: EngineSection[];
  /** Section range of page `p`: `pageStart[p]` to `pageStart[p + 1]`. */
  pageStart: Uint32Array;
  sectionPage: Uint32Array;
  /** Token counts per section (body, heading path) and per page (title, description). */
  bodyLen: Uint32Array;
  headLen: Uint32Array;
  titleLen: Uint32Array;
  descLen: Uint32Array;
  /** Index terms, sorted; `termId` maps a term to its position. */
  terms: string[];
  termId: Map<string, number>;
  /** Every written word form, sorted, with the term it indexes as: prefix and typo matching read it. */
  surfaces: string[];
  surfaceTerm: Uint32Array;
  /** Section postings. */
  body: FieldPostings;
  head: FieldPostings;
  /** Page postings. */
  title: FieldPostings;
  desc: FieldPostings;
}
