import type { SourcePage } from '../model/types.js';

/** Source files a page documents that changed after the page did. */
export interface StaleSources {
  /**
   * Files matching the page's `sources:` (relative to the project root) changed in commits after
   * the page's own last change, newest first; at most {@link STALE_SOURCES_SHOWN}.
   */
  sources: string[];
  /** How many such files there are in all. */
  total: number;
  /** The newest commit that changed one of them (full hash). */
  commit: string;
  /** Its commit date, ISO 8601. */
  date: string;
}

/** Most changed source files a staleness report names; `total` counts the rest. */
export const STALE_SOURCES_SHOWN = 20;

/**
 * The history of the project a set documents, as much as reading a page needs: whether the files a
 * page lists in `sources:` changed after the page did. `@kit/source-fs` implements it on git.
 * Implementations keep what they learn per repository state, so asking on every read is cheap, and
 * answer null (never throw) where there is no history: no repository, no git, a page without
 * `sources:`.
 */
export interface SourceHistory {
  staleSources(page: SourcePage): Promise<StaleSources | null>;
}
