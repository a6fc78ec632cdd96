import type { Dirent, Stats } from 'node:fs';
import { join } from 'node:path';
import type { SourceProblem } from '@kit/core';
import { pagePathProblem } from '@kit/core/internal';
import { problemsOf } from './file-reads.js';
import { isIgnoredName, type SetLayout } from './layout.js';
import { isReadProblem, pagePathFileProblem, symlinkProblem } from './problems.js';
import type { SetFolder } from './set-folder.js';
import { listingKey, type PageFileRef, type PageListing, type SourceState } from './source-state.js';

/** Finds the page files of one version and locale. */
export interface PageLister {
  /** Walks the page folder on disk, every time. */
  walk(layout: SetLayout, version: string, locale: string): Promise<PageListing>;
  /** The listing, kept in the source state while the folder is watched. */
  list(layout: SetLayout, version: string, locale: string): Promise<PageListing>;
  /** True when `file` is still in `listing` and still resolves inside the set folder. */
  stillListed(listing: Promise<PageListing>, file: string): Promise<boolean>;
}

/**
 * Lists page files: the Markdown files of a version and locale folder, links followed only while
 * they stay inside the set folder. What cannot be read is told as a `source.read` problem, which
 * `listPages` turns into an error; a listing with one is walked again next time, not kept.
 *
 * @example
 * const pages = createPageLister(folder, state);
 * const { files, problems } = await pages.list(layout, '3.x', 'en');
 */
export function createPageLister(folder: SetFolder, state: SourceState): PageLister {
  const walk = (layout: SetLayout, version: string, locale: string) => walkPages(folder, layout, version, locale);
  return {
    walk,
    list(layout, version, locale) {
      if (!state.watching) return walk(layout, version, locale);
      const key = listingKey(version, locale);
      let listing = state.listings.get(key);
      if (!listing) {
        const walking = walk(layout, version, locale);
        listing = walking;
        state.listings.set(key, walking);
        // A listing that could not read everything is walked again next time, not kept as it is.
        const forget = () => {
          if (state.listings.get(key) === walking) state.listings.delete(key);
        };
        walking.then(({ problems }) => problems.some(isReadProblem) && forget(), forget);
      }
      return listing;
    },
    async stillListed(listing, file) {
      const { files } = await listing.catch(() => ({ files: [] as PageFileRef[] }));
      return files.some((ref) => ref.file === file) && (await folder.resolveInside(file)) !== null;
    },
  };
}

async function walkPages(folder: SetFolder, layout: SetLayout, version: string, locale: string): Promise<PageListing> {
  const pageFolder = layout.pageFolder(version, locale);
  const base = await folder.realRoot();
  const files: PageFileRef[] = [];
  const problems: SourceProblem[] = [];
  if (pageFolder === null || !base) return { files, problems };
  // A version or locale folder that is a link out of the set is as good as missing.
  if (pageFolder !== '' && !(await folder.resolveInside(pageFolder))) return { files, problems };
  const reserved = layout.reservedNames(version, locale);
  const visited = new Set<string>();

  const visit = async (dir: string, top: boolean): Promise<void> => {
    let entries: Dirent[] | null;
    try {
      // None when the folder is gone: a version without its folder, or one deleted meanwhile.
      entries = await folder.disk.readdir(join(base, dir), dir || '.');
    } catch (error) {
      problems.push(...problemsOf(error));
      return;
    }
    for (const entry of entries ?? []) {
      if (isIgnoredName(entry.name) || (top && reserved.has(entry.name))) continue;
      const file = dir ? `${dir}/${entry.name}` : entry.name;
      let isDirectory = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        let target: string | null;
        let info: Stats | null = null;
        try {
          target = await folder.resolveInside(file);
          if (target) info = await folder.disk.stat(target, file);
        } catch (error) {
          problems.push(...problemsOf(error));
          continue;
        }
        if (!target) {
          problems.push(symlinkProblem(file));
          continue;
        }
        isDirectory = info?.isDirectory() ?? false;
        isFile = info?.isFile() ?? false;
        if (isDirectory) {
          if (visited.has(target)) continue;
          visited.add(target);
        }
      }
      if (isDirectory) await visit(file, false);
      else if (isFile && entry.name.endsWith('.md')) {
        const located = layout.locate(file);
        if (located && located.version === version && located.locale === locale) {
          files.push({ file, path: located.path });
        } else if (!located) {
          const refused = pagePathProblem(file.slice(0, -'.md'.length));
          if (refused) problems.push(pagePathFileProblem(file, refused));
        }
      }
    }
  };
  await visit(pageFolder, true);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, problems };
}
