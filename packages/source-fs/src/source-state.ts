import type { NormalizedManifest, ParsedPageFile, SourceProblem } from '@kit/core';
import type { SetLayout } from './layout.js';

/** A page file of the set: where it is (relative to the set folder) and its page path. */
export interface PageFileRef {
  file: string;
  path: string;
}

/** The page files of one version and locale, and what could not be listed. */
export interface PageListing {
  files: PageFileRef[];
  problems: SourceProblem[];
}

/** A page file as last parsed. */
export interface CachedPage {
  /** `mtimeMs:size` of the file that was parsed. */
  fingerprint: string;
  parsed: ParsedPageFile;
  /** The count of disk changes when the file was last checked under a healthy watch (see {@link SourceState.isFresh}). */
  checkedAt?: number;
}

/** The manifest as last read, with the folder layout derived from it. */
export interface ManifestState {
  /** `mtimeMs:size` of `kit.json`, or `missing`. */
  fingerprint: string;
  /** As for {@link CachedPage.checkedAt}. */
  checkedAt?: number;
  text: string | null;
  manifest: NormalizedManifest;
  layout: SetLayout;
}

/** Served static files whose content hash is known; the oldest is forgotten past this. */
const FILE_HASHES_KEPT = 4096;

/**
 * Everything a repository source holds in memory between calls: parsed pages, the manifest,
 * folder listings, hashes of static files, and the watch's health.
 *
 * Every watch event and own write counts in `diskChanges`. A file checked on disk (link target,
 * size, mtime) under a healthy watch with no change counted since needs no checking again: the
 * watch tells of any change to it, a file replaced by a link out of the set folder included. Reads
 * then cost no system call, which is what lets a server answer a signed-in reader's page from
 * memory.
 */
export class SourceState {
  /** Parsed pages by file (relative to the set folder). */
  readonly pages = new Map<string, CachedPage>();
  manifest: ManifestState | null = null;
  /** Page listings by version and locale ({@link listingKey}); only trusted while the watcher keeps them honest. */
  readonly listings = new Map<string, Promise<PageListing>>();
  /** Content hashes of served files by absolute path, kept while the file's inode, size and mtime stay. */
  readonly fileHashes = new Map<string, { fingerprint: string; hash: string }>();
  diskChanges = 0;
  /** True once the folder (and the repository's HEAD, when needed) is watched. */
  watchHealthy = false;
  /** True from the moment the folder watch starts until the source closes. */
  watching = false;
  watchProblem: SourceProblem | null = null;
  closed = false;

  /** True when an entry checked at `checkedAt` is still vouched for by a healthy watch. */
  isFresh(checkedAt: number | undefined): boolean {
    return (
      checkedAt !== undefined &&
      checkedAt === this.diskChanges &&
      this.watchHealthy &&
      this.watchProblem === null &&
      !this.closed
    );
  }

  /** The `checkedAt` to stamp on an entry checked on disk now: none while the watch cannot vouch for it. */
  checkStamp(): number | undefined {
    return this.watchHealthy ? this.diskChanges : undefined;
  }

  /** Drops the parsed pages under a folder (relative to the set folder). */
  forgetPagesUnder(folder: string): void {
    for (const key of this.pages.keys()) if (key.startsWith(`${folder}/`)) this.pages.delete(key);
  }

  /** Keeps the content hash of a served file, forgetting the oldest past a few thousand. */
  rememberFileHash(absolute: string, fingerprint: string, hash: string): void {
    if (this.fileHashes.size >= FILE_HASHES_KEPT) this.fileHashes.delete(this.fileHashes.keys().next().value!);
    this.fileHashes.set(absolute, { fingerprint, hash });
  }
}

/** The key of a listing in {@link SourceState.listings}. */
export function listingKey(version: string, locale: string): string {
  return `${version}\0${locale}`;
}
