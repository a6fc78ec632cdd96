import { basename, dirname, relative, sep } from 'node:path';
import type { ContentChange } from '@kit/core';
import type { GitProvenance } from './git-provenance.js';
import { isIgnoredName, MANIFEST_FILE, NAVIGATION_FILE, SKILLS_FOLDER } from './layout.js';
import type { PageLister } from './page-listing.js';
import type { SetFolder } from './set-folder.js';
import { listingKey, type ManifestState, type SourceState } from './source-state.js';
import { type FolderEvent, type FolderWatcher, watchFolder } from './watch.js';

/** What {@link createChangeTracking} needs. */
export interface ChangeTrackingOptions {
  folder: SetFolder;
  state: SourceState;
  currentManifest(): Promise<ManifestState>;
  pages: PageLister;
  provenance: GitProvenance;
  emit(change: ContentChange): void;
  onWatchError(error: unknown): void;
}

/** Keeps the source state true to the disk and tells listeners what changed. */
export interface ChangeTracking {
  /** Watches the set folder (and the repository's HEAD while provenance is on); resolves once both are watched. */
  start(): Promise<void>;
  /** Forgets what the source's own writer changed and tells listeners, before the write returns. */
  ownWrite(files: readonly string[], changes: readonly ContentChange[]): void;
  close(): void;
}

/**
 * Tracks changes to a set folder: each folder event or own write counts as a disk change in the
 * state, drops the parsed pages and listings it touches, and is told to listeners as the
 * narrowest `ContentChange` that covers it.
 *
 * @example
 * const tracking = createChangeTracking({ folder, state, currentManifest, pages, provenance, emit, onWatchError });
 * await tracking.start();
 */
export function createChangeTracking(options: ChangeTrackingOptions): ChangeTracking {
  const { folder, state, emit } = options;
  let watcher: FolderWatcher | null = null;
  const onFileEvent = fileEventHandler(options);

  return {
    async start() {
      const base = await folder.realRoot();
      if (!base || state.closed) return;
      await options.currentManifest();
      if (state.closed) return;
      const started = watchFolder(base, {
        ignored: isIgnoredName,
        onEvent: (event, path) => {
          state.diskChanges += 1;
          // A file that cannot be read now fails the next read, which names it; listeners reload.
          void onFileEvent(event, path).catch(() => {
            state.listings.clear();
            emit({ kind: 'manifest' });
          });
        },
        onError: options.onWatchError,
      });
      watcher = started;
      state.watching = true;
      await Promise.all([started.ready, options.provenance.watchRepository()]);
      state.watchHealthy = !state.closed;
    },

    ownWrite(files, changes) {
      state.diskChanges += 1;
      for (const file of files) state.pages.delete(file);
      for (const change of changes) {
        if (change.kind === 'manifest') {
          // Versions and locales may have changed: derive the layout again on the next read.
          state.manifest = null;
          state.listings.clear();
          if (watcher) {
            void options
              .currentManifest()
              .then(() => options.provenance.watchRepository())
              .catch(options.onWatchError);
          }
        } else if (change.kind === 'page' && change.version !== undefined && change.locale !== undefined) {
          state.listings.delete(listingKey(change.version, change.locale));
        }
      }
      for (const change of changes) emit(change);
    },

    close() {
      const running = watcher;
      watcher = null;
      state.watching = false;
      running?.close();
    },
  };
}

/** Turns one folder event into forgotten state and a `ContentChange` for listeners. */
function fileEventHandler(options: ChangeTrackingOptions): (event: FolderEvent, absolute: string) => Promise<void> {
  const { folder, state, emit } = options;
  return async (event, absolute) => {
    const base = await folder.realRoot();
    if (!base || state.closed) return;
    const file = relative(base, absolute).split(sep).join('/');
    if (file === MANIFEST_FILE) {
      await options.currentManifest();
      state.listings.clear();
      emit({ kind: 'manifest' });
      // The new manifest may turn provenance on.
      void options.provenance.watchRepository().catch(options.onWatchError);
      return;
    }
    const { layout } = state.manifest ?? (await options.currentManifest());
    if (event === 'addDir' || event === 'unlinkDir') {
      state.forgetPagesUnder(file);
      state.listings.clear();
      if (file === SKILLS_FOLDER) emit({ kind: 'skill' });
      const scope = layout.locate(`${file}/page.md`);
      if (scope) emit({ kind: 'page', version: scope.version, locale: scope.locale });
      return;
    }
    state.pages.delete(file);
    const segments = file.split('/');
    if (basename(file) === NAVIGATION_FILE) {
      const scope = layout.navigationScope(segments.length > 1 ? dirname(file) : '');
      if (scope) {
        emit({ kind: 'navigation', ...scope });
        return;
      }
    }
    if (segments.length === 2 && segments[0] === SKILLS_FOLDER && file.endsWith('.md')) {
      emit({ kind: 'skill', path: segments[1]!.slice(0, -'.md'.length) });
      return;
    }
    const located = layout.locate(file);
    if (located) {
      const key = listingKey(located.version, located.locale);
      const listing = state.listings.get(key);
      // A changed file keeps the listing only while it is still the listed page: replacing a file with
      // a link out of the set folder (or a skipped link with a file) is a "change" too.
      if (listing && (event !== 'change' || !(await options.pages.stillListed(listing, file)))) {
        if (state.listings.get(key) === listing) state.listings.delete(key);
      }
      emit({ kind: 'page', ...located });
      return;
    }
    if (!file.endsWith('.md')) emit({ kind: 'asset', path: file });
  };
}
