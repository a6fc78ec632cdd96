import { pagePathProblem, showPagePath } from '../urls/page-path.js';
import { unservablePagePath } from '../urls/servable.js';
import { cleanPagePath, type UrlLayout } from '../urls/set-urls.js';

/**
 * The clean page path an author named, or why it cannot be one. A path that names a new place
 * (write_page, move_page `to`) must keep the page-path rule (`pagePathProblem`); one that names a
 * page already there (`existing`: delete_page, move_page `from`) need not, so a page stored under
 * such a path before the rule can still be moved to a good one or removed.
 */
export function pagePathOf(
  input: string,
  layout: UrlLayout,
  what: string,
  existing = false,
): { path: string } | { refusal: string } {
  const path = typeof input === 'string' ? cleanPagePath(input) : null;
  if (path === null) {
    return {
      refusal: `${showPagePath(input)} is not a page path for ${what}: use segments of letters, digits, "-" and "_" separated by "/", without ".." or backslashes, e.g. "guides/installation" ("index" is the landing page).`,
    };
  }
  const problem = existing ? null : pagePathProblem(path);
  if (problem) {
    return {
      refusal: `The page path ${showPagePath(path)} is refused for ${what}: ${problem}. Use segments of letters, digits, "-" and "_" joined by "/", e.g. "guides/installation".`,
    };
  }
  const unservable = unservablePagePath(path, {
    versions: layout.versions.map((entry) => entry.id),
    locales: layout.locales.map((entry) => entry.code),
    versioned: layout.versioned,
  });
  if (unservable) return { refusal: `The page path "${path}" cannot be used for ${what}: ${unservable}.` };
  return { path };
}

/** The version and locale of a change as messages show them, naming only what the set has more than one of. */
export function where(version: string, locale: string, layout: UrlLayout): string {
  const parts = [layout.versioned ? version : null, layout.locales.length > 1 ? locale : null].filter(Boolean);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}
