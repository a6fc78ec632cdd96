/** BM25F weights. One object so the quality benchmark can tune them on its tuning split. */
export interface RankingParams {
  k1: number;
  /** Field weights: page title, heading path, page description, section body. */
  title: number;
  head: number;
  desc: number;
  body: number;
  /** Length normalization per field. */
  bTitle: number;
  bHead: number;
  bDesc: number;
  bBody: number;
  /** Share of the whole page's score added to each of its sections. */
  page: number;
  /** Weight of the page's best section (all query words scored in one section). */
  section: number;
  /** Weight of each query word's best section on the page, wherever it is. */
  spread: number;
  /** Score share of a prefix and of a one- and two-edit typo match. */
  prefix: number;
  typo1: number;
  typo2: number;
  /** Score share of a word related to the query's wording (developer phrasing to docs phrasing); 0 turns it off. */
  related: number;
  /**
   * Score share of a part of a camelCase query word (`hub` of `GitHub`). The parts are
   * alternatives of the word, not words of their own, so one identifier weighs as one word.
   */
  part: number;
  /**
   * Title coverage: added to a page after the first when the query has its title's words (in full
   * when every title word is in the query, in part when some are), so the page a question names
   * moves up among the results without displacing the best match; 0 turns it off.
   */
  titleCoverage: number;
  /**
   * Weight of the semantic match (see `semantic.ts`): the cosine between the query's and a page's
   * latent vectors, in units of the best result's score, added to the pages the words ranked first
   * so that among them the page about the question's subject wins; 0 turns it off.
   */
  semantic: number;
  /**
   * No-match threshold: the share of the query the best result must cover, or the query has no
   * results at all. Each word the searcher wrote weighs its inverse page frequency (a word no page
   * has weighs the most, as the rarest word would); a page covers a word by having it, a typo,
   * prefix, related-wording or camelCase-part match at its reduced share. A query nothing really
   * matches (a random token, a question from another field) then answers nothing rather than the
   * pages of a stray word; 0 turns it off.
   */
  minCoverage: number;
  /** The share of the query every other result must cover: pages matching only a stray word of a real question are left out; 0 turns it off. */
  minHitCoverage: number;
}

/** The weights `bench/search-quality` chose on its tuning split. */
export const DEFAULT_RANKING: RankingParams = {
  k1: 1.2,
  title: 4,
  head: 3,
  desc: 1.5,
  body: 1,
  bTitle: 0.3,
  bHead: 0.5,
  bDesc: 0.5,
  bBody: 0.75,
  page: 0.6,
  section: 1,
  spread: 0,
  prefix: 0.5,
  typo1: 0.7,
  typo2: 0.45,
  related: 0.6,
  part: 0.5,
  titleCoverage: 0.5,
  semantic: 0.3,
  minCoverage: 0.5,
  minHitCoverage: 0.25,
};
