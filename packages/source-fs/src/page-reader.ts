import { parsePageFile, type SourcePage } from '@kit/core';
import type { LastChange } from './git.js';
import type { SetFolder } from './set-folder.js';
import { toSourcePage } from './source-page.js';
import type { ManifestState, PageFileRef, SourceState } from './source-state.js';

/** Reads one page file of a version and locale; null when it is gone or links out of the set folder. */
export type PageReader = (
  manifest: ManifestState,
  ref: PageFileRef,
  version: string,
  locale: string,
  changes: Map<string, LastChange> | null,
) => Promise<SourcePage | null>;

/**
 * Reads pages through the parsed pages of the source state: a file is parsed again only when its
 * size or mtime changed, and not even looked at while the watch vouches for the last check.
 * A file that cannot be read throws, never drops the page.
 *
 * @example
 * const readPage = createPageReader(folder, state);
 * const page = await readPage(manifest, { file: 'guide.md', path: 'guide' }, 'current', 'en', null);
 */
export function createPageReader(folder: SetFolder, state: SourceState): PageReader {
  return async (manifest, ref, version, locale, changes) => {
    let cached = state.pages.get(ref.file);
    if (cached && state.isFresh(cached.checkedAt)) {
      return toSourcePage(manifest.manifest, ref, version, locale, cached.parsed, changes?.get(ref.file));
    }
    const checkedAt = state.checkStamp();
    // Checked on every read the watch cannot vouch for, not only when listing: a listing kept while
    // watching may be older than the link that now stands where the page was.
    // Absent is a page deleted meanwhile; a file that cannot be read throws, never drops the page.
    const absolute = await folder.resolveInside(ref.file);
    if (!absolute) return null;
    const info = await folder.disk.stat(absolute, ref.file);
    if (!info?.isFile()) return null;
    const fingerprint = `${info.mtimeMs}:${info.size}`;
    cached = state.pages.get(ref.file);
    if (!cached || cached.fingerprint !== fingerprint) {
      const text = await folder.disk.readText(absolute, ref.file);
      if (text === null) return null;
      cached = { fingerprint, parsed: parsePageFile(text, ref.file) };
      state.pages.set(ref.file, cached);
    }
    cached.checkedAt = checkedAt;
    return toSourcePage(manifest.manifest, ref, version, locale, cached.parsed, changes?.get(ref.file));
  };
}
