import { sourcesMatcher, sourcesOf } from '@kit/source-fs';

export { sourcesOf };

/** A page that declares the source files it documents (frontmatter `sources:`). */
export interface SourcedPage {
  set: string;
  version: string;
  locale: string;
  /** Page path without `.md`. */
  path: string;
  title: string;
  /** The page's own file, relative to the project root (to tell `updated` from `stale`). */
  file?: string;
  /** Globs relative to the project root (picomatch syntax). */
  sources: string[];
}

/** A page a change touches. */
export interface AffectedPage {
  set: string;
  version: string;
  locale: string;
  path: string;
  title: string;
  file?: string;
  /** `updated`: the page changed in the same change. `stale`: its sources changed and it did not. */
  status: 'updated' | 'stale';
  /** True when the page drifted before this change (a source changed in a commit after the page's last change). */
  drift?: boolean;
  /** Changed files that matched its `sources:`. */
  matched: string[];
}

/**
 * Pages whose `sources:` globs match changed files: the pure part of `kit affected` and the
 * `affected_pages` tool. A page whose own file is among the changes is `updated`, else `stale`.
 * Paths are relative to the project root with `/` separators.
 *
 * @example
 * matchAffectedPages(
 *   [{ set: 'docs', version: 'current', locale: 'en', path: 'routing', title: 'Routing', file: 'docs/routing.md', sources: ['src/router/**'] }],
 *   ['src/router/match.ts'],
 * );
 * // [{ ..., path: 'routing', status: 'stale', matched: ['src/router/match.ts'] }]
 */
export function matchAffectedPages(pages: SourcedPage[], changedFiles: Iterable<string>): AffectedPage[] {
  const changed = [...new Set([...changedFiles].map(normalizeFile))];
  const changedSet = new Set(changed);
  const affected: AffectedPage[] = [];
  for (const page of pages) {
    if (page.sources.length === 0) continue;
    const matches = sourcesMatcher(page.sources);
    const matched = changed.filter((file) => file !== page.file && matches(file));
    if (matched.length === 0) continue;
    affected.push({
      set: page.set,
      version: page.version,
      locale: page.locale,
      path: page.path,
      title: page.title,
      ...(page.file !== undefined ? { file: page.file } : {}),
      status: page.file !== undefined && changedSet.has(normalizeFile(page.file)) ? 'updated' : 'stale',
      matched,
    });
  }
  return affected;
}

function normalizeFile(file: string): string {
  return file.replaceAll('\\', '/').replace(/^\.\//, '');
}
