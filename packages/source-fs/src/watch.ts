import { type Dirent, type FSWatcher, watch } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { withFileSlot } from '@kit/core/node';

/** What happened to a path under a watched folder. */
export type FolderEvent = 'add' | 'change' | 'unlink' | 'addDir' | 'unlinkDir';

/** Options of {@link watchFolder}. */
export interface WatchFolderOptions {
  /** True for a name (one path segment) to leave out, with everything below it. */
  ignored(name: string): boolean;
  /** Told every change, with the absolute path. */
  onEvent(event: FolderEvent, path: string): void;
  /** Told when watching a folder fails (e.g. the inotify watch limit); the rest stays watched. */
  onError(error: unknown): void;
  /**
   * Quiet time before a burst of events on one path is told as one (an editor's save is often a
   * truncate, a write and a rename).
   * @default 30
   */
  settleMs?: number;
}

/** A running {@link watchFolder}. */
export interface FolderWatcher {
  /** Resolves once every folder present at the start is watched. */
  ready: Promise<void>;
  close(): void;
}

interface WatchedFolder {
  watcher: FSWatcher | null;
  /** Names directly inside, as last seen: a folder or anything else (files, links). */
  entries: Map<string, 'dir' | 'file'>;
}

/**
 * Watches a folder tree with one operating-system watch per folder (not per file), which costs a
 * `readdir` per folder to start: a set of thousands of pages starts watching in a few
 * milliseconds and stays far from the inotify watch limit. Each event is checked against the
 * disk (`lstat`) before it is told, so `add`/`change`/`unlink` say what the path is now. Symbolic
 * links are reported as files and never followed.
 *
 * @example
 * const watcher = watchFolder('/docs', {
 *   ignored: (name) => name.startsWith('.'),
 *   onEvent: (event, path) => console.log(event, path),
 *   onError: console.error,
 * });
 * await watcher.ready;
 */
export function watchFolder(root: string, options: WatchFolderOptions): FolderWatcher {
  const settleMs = options.settleMs ?? 30;
  const folders = new Map<string, WatchedFolder>();
  const settling = new Map<string, ReturnType<typeof setTimeout>>();
  let closed = false;

  const isIgnored = (path: string) =>
    relative(root, path)
      .split(sep)
      .some((segment) => segment !== '' && options.ignored(segment));

  const stopBelow = (folder: string) => {
    for (const [path, watched] of folders) {
      if (path === folder || path.startsWith(folder + sep)) {
        watched.watcher?.close();
        folders.delete(path);
      }
    }
  };

  /** Starts watching a folder and everything below it; `announce` tells what it finds as added. */
  const open = async (folder: string, announce: boolean): Promise<void> => {
    if (closed || folders.has(folder)) return;
    const watched: WatchedFolder = { watcher: null, entries: new Map() };
    folders.set(folder, watched);
    // Watch before listing, so a file created in between is seen by one or the other.
    try {
      watched.watcher = watch(folder, { persistent: true }, (_type, name) => {
        if (name === null) void rescan(folder);
        else schedule(join(folder, name.toString()));
      });
      watched.watcher.on('error', (error) => {
        watched.watcher?.close();
        watched.watcher = null;
        // A folder removed under the watch fails here; its parent reports the removal.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && (error as NodeJS.ErrnoException).code !== 'EPERM') {
          options.onError(error);
        }
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') options.onError(error);
      folders.delete(folder);
      return;
    }
    let entries: Dirent[];
    try {
      // Every folder of the tree is listed at once: the shared pool keeps the open folders few.
      entries = await withFileSlot(() => readdir(folder, { withFileTypes: true }));
    } catch {
      return;
    }
    const below: Array<Promise<void>> = [];
    for (const entry of entries) {
      if (options.ignored(entry.name)) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        watched.entries.set(entry.name, 'dir');
        if (announce) tell('addDir', path);
        below.push(open(path, announce));
      } else {
        watched.entries.set(entry.name, 'file');
        if (announce) tell('add', path);
      }
    }
    await Promise.all(below);
  };

  /** Compares a folder's listing with what was last seen, when the system could not name the entry. */
  const rescan = async (folder: string) => {
    const watched = folders.get(folder);
    if (!watched) return;
    const names = await withFileSlot(() => readdir(folder)).catch(() => [] as string[]);
    for (const name of new Set([...names, ...watched.entries.keys()])) {
      if (!options.ignored(name)) schedule(join(folder, name));
    }
  };

  const schedule = (path: string) => {
    if (closed || isIgnored(path)) return;
    clearTimeout(settling.get(path));
    settling.set(
      path,
      setTimeout(() => {
        settling.delete(path);
        void settle(path);
      }, settleMs),
    );
  };

  const settle = async (path: string) => {
    const parent = folders.get(dirname(path));
    if (closed || !parent) return;
    const name = basename(path);
    const known = parent.entries.get(name);
    const info = await withFileSlot(() => lstat(path)).catch(() => null);
    if (closed) return;
    if (!info) {
      if (known === undefined) return;
      parent.entries.delete(name);
      if (known === 'dir') {
        stopBelow(path);
        tell('unlinkDir', path);
      } else tell('unlink', path);
      return;
    }
    const now = info.isDirectory() ? 'dir' : 'file';
    if (known !== undefined && known !== now) {
      // Replaced by the other kind: the old one went away first.
      if (known === 'dir') {
        stopBelow(path);
        tell('unlinkDir', path);
      } else tell('unlink', path);
    }
    parent.entries.set(name, now);
    if (now === 'dir') {
      if (known === 'dir') return;
      tell('addDir', path);
      await open(path, true);
    } else tell(known === 'file' ? 'change' : 'add', path);
  };

  const tell = (event: FolderEvent, path: string) => {
    if (!closed) options.onEvent(event, path);
  };

  const ready = open(root, false);
  return {
    ready,
    close() {
      closed = true;
      for (const timer of settling.values()) clearTimeout(timer);
      settling.clear();
      stopBelow(root);
    },
  };
}
