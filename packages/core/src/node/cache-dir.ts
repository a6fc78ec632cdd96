import { join } from 'node:path';

/**
 * `<root>/.kit/cache`: where Kit keeps what it can always work out again but would rather not on
 * every start (built reader assets, the git history of repository sets, validation renders).
 * Deleting it is always safe.
 *
 * @example
 * projectCacheDir('/srv/docs'); // '/srv/docs/.kit/cache'
 */
export function projectCacheDir(root: string): string {
  return join(root, '.kit', 'cache');
}
