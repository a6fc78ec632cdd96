import { KitError } from '@kit/core';
import { isSecretSegment } from '@kit/core/internal';
import picomatch from 'picomatch';

/**
 * Decides which project files the docs agent may never read: the built-in list (every path with a
 * segment core's `isSecretSegment` refuses: dotfiles and dot folders, `config/`, `storage/`,
 * `vendor/`, `node_modules/`, `kit.config.*`, environment files, keys and certificates, credentials,
 * local databases, ...) plus the `ai.sync.deny` globs (picomatch syntax, relative to the project
 * root; a plain folder name such as `internal` denies everything under it).
 */
export interface SyncDenyRules {
  /** True when the file (project-relative, `/`-separated) may not be read, listed or shown in a diff. */
  denies(path: string): boolean;
}

/**
 * Builds the deny rules of one run. Throws `config.invalid` for a glob that cannot be compiled.
 *
 * @example
 * const rules = syncDenyRules(['internal/**', 'src/billing/keys.ts']);
 * rules.denies('.env.production'); // true (built in)
 * rules.denies('internal/plan.md'); // true (ai.sync.deny)
 * rules.denies('src/router.ts'); // false
 */
export function syncDenyRules(globs: readonly string[] = []): SyncDenyRules {
  const matchers = globs.map((glob, index) => {
    if (typeof glob !== 'string' || glob.trim() === '') {
      throw new KitError(
        'config.invalid',
        `ai.sync.deny[${index}] must be a path or glob relative to the project root, such as "internal/**".`,
      );
    }
    const written = glob.trim().replace(/^\.\//, '').replace(/\/+$/, '');
    const exact = picomatch(written, { dot: true });
    const below = picomatch(`${written}/**`, { dot: true });
    return (path: string) => exact(path) || below(path);
  });
  return {
    denies(path) {
      const clean = normalizeProjectPath(path);
      if (clean === null) return true;
      if (clean.split('/').some(isSecretSegment)) return true;
      return matchers.some((matches) => matches(clean));
    },
  };
}

/**
 * A project-relative path with `/` separators and no `.` segments, or null for a path that leaves
 * the project (absolute, `..`, a drive letter) or holds control characters.
 */
export function normalizeProjectPath(path: string): string | null {
  if (typeof path !== 'string' || path.length > 1024 || /[\u0000-\u001f]/.test(path)) return null;
  const slashed = path.replaceAll('\\', '/');
  if (slashed.startsWith('/') || /^[a-z]:/i.test(slashed)) return null;
  const segments = slashed.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.some((segment) => segment === '..')) return null;
  return segments.join('/');
}
