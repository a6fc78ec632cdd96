/** One ranked section: the best of its page. */
export interface RankedSection {
  section: number;
  score: number;
  /** Further sections of the same page that match the query well, best first (see `RankOptions.sections`). */
  more?: RankedSection[];
}

/** Work one ranking took. */
export interface RankStats {
  /** Pages any query word occurs on. */
  candidates: number;
  /** Pages whose exact score was started. */
  scored: number;
  /** Pages scored to the end (not cut off by their bound). */
  completed: number;
}

/** Where one term's four posting lists stand while pages are visited in order. */
export interface TermCursor {
  term: number;
  share: number;
  /** Bit of the cursor in a page's presence mask (`TRACKED_CURSORS` or more: not tracked). */
  bit: number;
  bodyIds: Uint32Array;
  bodyTfs: Uint16Array;
  bodyAt: number;
  /** Where the body postings of each block of pages start (empty for short lists; see `skipTable`). */
  bodySkip: Uint32Array;
  bodyShift: number;
  headIds: Uint32Array;
  headTfs: Uint16Array;
  headAt: number;
  headSkip: Uint32Array;
  headShift: number;
  titleIds: Uint32Array;
  titleTfs: Uint16Array;
  titleAt: number;
  descIds: Uint32Array;
  descTfs: Uint16Array;
  descAt: number;
}

/** One query word: the index terms it stands for (exact, prefix, typo, related), scored as their best. */
export interface WordGroup {
  cursors: TermCursor[];
  /** Added from the related-wording table, not written by the searcher. */
  related?: boolean;
  /** The most the word can add to any page's score (from the impacts of its terms). */
  reach: number;
  /**
   * What the word weighs in the query's coverage (see `RankingParams.minCoverage`): the inverse
   * page frequency of its own term, or of the best term it stands for when the index lacks it.
   */
  weight: number;
  /** Terms of the word's camelCase parts, and how many parts it has: parts cover the word in proportion. */
  partTerms?: Set<number>;
  partCount?: number;
}

/** One word the searcher wrote, as the no-match threshold weighs it (see `RankingParams.minCoverage`). */
export interface CoverageWord {
  weight: number;
  /** Its group, or null when no index term matches it. */
  group: WordGroup | null;
  /** Terms the related-wording table puts for it (the docs' wording of what it says). */
  related: number[];
}

/** The words of a query as ranking reads them, and as the no-match threshold weighs them. */
export interface QueryGroups {
  groups: WordGroup[];
  words: CoverageWord[];
}
