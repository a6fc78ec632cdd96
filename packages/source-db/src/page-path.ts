import { cleanPagePath, KitError, type PathScope, unservablePagePath } from '@kit/core';

/**
 * Refuses, with `page.invalid_path`, a path that is not a clean page path (leading slash, `.md`,
 * empty or `..` segments); given the set's versions and locales, also one that can never be served
 * (see {@link unservablePagePath}).
 */
export function checkPagePath(path: string, scope?: PathScope): void {
  if (typeof path !== 'string' || cleanPagePath(path) !== path || path.endsWith('.md')) {
    throw new KitError(
      'page.invalid_path',
      `"${path}" is not a page path. Write it without a leading slash and without .md, e.g. "guides/intro" (the landing page is "index").`,
    );
  }
  const problem = scope ? unservablePagePath(path, scope) : null;
  if (problem) {
    throw new KitError('page.invalid_path', `The page path "${path}" cannot be served: ${problem}.`, {
      details: { path },
    });
  }
}
