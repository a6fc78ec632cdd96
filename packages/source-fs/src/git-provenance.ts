import type { ContentChange } from '@kit/core';
import { createGitHistory, type GitHistory, type HistoryWatcher, type LastChange, watchHistory } from './git.js';
import type { SetFolder } from './set-folder.js';
import type { ManifestState, SourceState } from './source-state.js';

/** What {@link createGitProvenance} needs. */
export interface GitProvenanceOptions {
  folder: SetFolder;
  state: SourceState;
  /** False when the source was created with `git: false`. */
  useGit: boolean;
  cacheDir: string | undefined;
  emit(change: ContentChange): void;
  onWatchError(error: unknown): void;
}

/** The git history of a set folder, as page provenance. */
export interface GitProvenance {
  /** The last change of each file, or null when provenance is off or the folder is in no repository. */
  lastChanges(manifest: ManifestState): Promise<Map<string, LastChange> | null>;
  /**
   * Watches the repository's HEAD while provenance is shown: a commit changes no file of the set
   * folder (and `.git` is never watched with it), yet it changes the provenance and update date of
   * the committed pages, so listeners must hear of it to drop what they built from the old history.
   */
  watchRepository(): Promise<void>;
  close(): void;
}

/**
 * Page provenance from git: one history per set folder (created on first use, kept in `cacheDir`
 * between runs), and a watch on the repository's HEAD once asked for.
 *
 * @example
 * const provenance = createGitProvenance({ folder, state, useGit: true, cacheDir, emit, onWatchError });
 * const changes = await provenance.lastChanges(await currentManifest());
 */
export function createGitProvenance(options: GitProvenanceOptions): GitProvenance {
  const { folder, state } = options;
  let gitHistory: GitHistory | null = null;
  let historyWatcher: HistoryWatcher | null = null;

  const history = async (): Promise<GitHistory | null> => {
    const base = await folder.realRoot();
    if (!base) return null;
    gitHistory ??= createGitHistory(base, options.cacheDir);
    return gitHistory;
  };

  return {
    async lastChanges(manifest) {
      if (!options.useGit || !manifest.manifest.provenance) return null;
      return (await history())?.lastChanges() ?? null;
    },
    async watchRepository() {
      if (!options.useGit || historyWatcher || state.closed || !state.manifest?.manifest.provenance) return;
      const location = await (await history())?.location();
      if (!location || historyWatcher || state.closed) return;
      const started = watchHistory(
        location,
        () => {
          if (!state.closed && state.manifest?.manifest.provenance) options.emit({ kind: 'page' });
        },
        options.onWatchError,
      );
      historyWatcher = started;
      await started.ready;
    },
    close() {
      historyWatcher?.close();
      historyWatcher = null;
    },
  };
}
