import { KitError } from '@kit/core';
import { cleanPagePath, type PathScope, pagePathProblem, showPagePath, unservablePagePath } from '@kit/core/internal';

/**
 * Refuses, with `page.invalid_path`, a path that is not a clean page path (leading slash, `.md`,
 * empty or `..` segments) or that breaks the page-path rule of every source (control, bidi and
 * invisible characters, hidden and `node_modules` segments, over-long paths: see
 * {@link pagePathProblem}); given the set's versions and locales, also one that can never be served
 * (see {@link unservablePagePath}).
 */
export function checkPagePath(path: string, scope?: PathScope): void {
  if (typeof path !== 'string' || cleanPagePath(path) !== path || path.endsWith('.md')) {
    throw new KitError(
      'page.invalid_path',
      `${showPagePath(path)} is not a page path. Write it without a leading slash and without .md, e.g. "guides/intro" (the landing page is "index").`,
    );
  }
  const refused = pagePathProblem(path);
  if (refused) {
    throw new KitError(
      'page.invalid_path',
      `The page path ${showPagePath(path)} is refused: ${refused}. Use segments of letters, digits, "-" and "_" joined by "/", e.g. "guides/intro".`,
      { details: { path } },
    );
  }
  const problem = scope ? unservablePagePath(path, scope) : null;
  if (problem) {
    throw new KitError('page.invalid_path', `The page path "${path}" cannot be served: ${problem}.`, {
      details: { path },
    });
  }
}
