import { KitError } from '../errors/kit-error.js';

/** Results returned when a caller names no limit (the specification's `search_docs` default). */
export const DEFAULT_SEARCH_LIMIT = 8;
/** The most results one search returns. */
export const MAX_SEARCH_LIMIT = 20;

/**
 * Checks a result limit against the specification's 1 to 20 (default 8). Out-of-range or
 * fractional limits are refused rather than clamped so a caller learns about the mistake.
 *
 * @example
 * normalizeSearchLimit(undefined); // 8
 * normalizeSearchLimit(50); // throws KitError('argument.invalid')
 */
export function normalizeSearchLimit(limit: number | undefined | null): number {
  if (limit === undefined || limit === null) return DEFAULT_SEARCH_LIMIT;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) {
    throw new KitError(
      'argument.invalid',
      `Search limit must be a whole number from 1 to ${MAX_SEARCH_LIMIT}, got ${String(limit)}. Omit it for ${DEFAULT_SEARCH_LIMIT} results.`,
      { details: { field: 'limit', value: limit } },
    );
  }
  return limit;
}

/**
 * Refuses a query that is not a string. Any string is searchable: one without searchable words
 * simply finds nothing.
 */
export function assertSearchQuery(query: unknown): asserts query is string {
  if (typeof query !== 'string') {
    throw new KitError(
      'search.invalid_query',
      `Search query must be a string, got ${typeof query}. Pass the words to look for.`,
    );
  }
}

/**
 * Sections per page a search returns when the caller names none: the best section as the result
 * and up to two more of the same page, so an agent sees that "Retrying Failed Jobs" sits beside
 * the "Failed Jobs" section that ranked first without a second search.
 */
export const DEFAULT_SEARCH_SECTIONS = 3;
/** The most sections per page one search returns. */
export const MAX_SEARCH_SECTIONS = 5;

/**
 * Checks a sections-per-page count: a whole number from 1 (one section per page) to 5, default 3.
 *
 * @example
 * normalizeSearchSections(undefined); // 3
 * normalizeSearchSections(1); // 1
 */
export function normalizeSearchSections(sections: number | undefined | null): number {
  if (sections === undefined || sections === null) return DEFAULT_SEARCH_SECTIONS;
  if (typeof sections !== 'number' || !Number.isInteger(sections) || sections < 1 || sections > MAX_SEARCH_SECTIONS) {
    throw new KitError(
      'argument.invalid',
      `Sections per page must be a whole number from 1 to ${MAX_SEARCH_SECTIONS}, got ${String(sections)}. Omit it for ${DEFAULT_SEARCH_SECTIONS}; 1 gives one section per page.`,
      { details: { field: 'sections', value: sections } },
    );
  }
  return sections;
}
