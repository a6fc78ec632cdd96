import { lstat, readFile, realpath, rm, rmdir, stat } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { KitError } from '@kit/core';
import { capitalize } from './write-checks.js';

/** What stands at a file to write. */
export interface FileState {
  /** Where to write: the file itself, or the file a link inside the set leads to. */
  absolute: string;
  /** The current text, or null when there is no file. */
  text: string | null;
  /** The current bytes, or null when there is no file. */
  bytes: Uint8Array | null;
}

/** Runs a write after every write before it; see {@link createWriteQueue}. */
export type WriteQueue = <T>(what: string, task: () => Promise<T>) => Promise<T>;

/**
 * Runs the writes of one writer one at a time, so two of them can never both pass the check of the
 * content hash, and turns unexpected file-system failures into `source.error` naming `root`.
 *
 * @example
 * const serialized = createWriteQueue('/srv/docs');
 * await serialized('the manifest', async () => writeFileAtomically(file, text));
 */
export function createWriteQueue(root: string): WriteQueue {
  let queue: Promise<unknown> = Promise.resolve();
  return <T>(what: string, task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task).catch((error: unknown) => {
      if (error instanceof KitError) throw error;
      const code = (error as NodeJS.ErrnoException)?.code;
      throw new KitError(
        'source.error',
        `Writing ${what} failed${code ? ` (${code})` : ''}; nothing was changed. Check that the server may write to ${root}.`,
        { cause: error },
      );
    });
    queue = run.catch(() => undefined);
    return run;
  };
}

/** The set folder with links resolved, refusing a write when it does not exist. */
export async function existingSetFolder(root: string, realRoot: () => Promise<string | null>): Promise<string> {
  const base = await realRoot();
  if (!base) {
    throw new KitError(
      'source.error',
      `The set folder ${root} does not exist, so nothing can be written to it. Create it, or point \`source.path\` of the set at the folder holding kit.json.`,
    );
  }
  return base;
}

/** Reads what stands at `file` now, refusing a link or a folder that leads outside the set folder. */
export async function inspect(base: string, file: string, label: string): Promise<FileState> {
  const absolute = join(base, file);
  if (await lstat(absolute).catch(() => null)) {
    const target = await realpath(absolute).catch(() => null);
    if (!target || !isInside(base, target)) throw escapeError(label, file);
    if (!(await stat(target)).isFile()) {
      throw new KitError(
        'page.invalid_path',
        `${capitalize(label)} cannot be written: ${file} is a folder. Choose another path, or move the folder away first.`,
      );
    }
    const bytes = await readFile(target);
    return { absolute: target, text: bytes.toString('utf8'), bytes };
  }
  // Nothing there yet: the nearest folder that exists must lie inside the set folder, or a link
  // on the way would carry the new file out of it.
  let folder = dirname(absolute);
  for (;;) {
    const real = await realpath(folder).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (real !== null) {
      if (!isInside(base, real)) throw escapeError(label, file);
      if (!(await stat(real)).isDirectory()) {
        throw new KitError(
          'page.invalid_path',
          `${capitalize(label)} cannot be written: ${file} would go inside a file. Choose another path.`,
        );
      }
      return { absolute, text: null, bytes: null };
    }
    if (folder === base || dirname(folder) === folder) throw escapeError(label, file);
    folder = dirname(folder);
  }
}

/** Removes a page file and the folders it leaves empty, up to its page folder (which stays). */
export async function removeFile(base: string, file: string, pageFolder: string): Promise<void> {
  // The entry itself goes, not what a link leads to: the page is the name in its folder.
  await rm(join(base, file));
  let folder = parentOf(file);
  // Stop at the page folder: a version or locale folder stays even when it holds no page.
  while (folder !== pageFolder && folder !== '' && (pageFolder === '' || folder.startsWith(`${pageFolder}/`))) {
    try {
      await rmdir(join(base, folder));
    } catch {
      return;
    }
    folder = parentOf(folder);
  }
}

function escapeError(label: string, file: string): KitError {
  return new KitError(
    'page.invalid_path',
    `${capitalize(label)} cannot be written: ${file} leads outside the set folder through a symbolic link. Write it to a path inside the set folder, or replace the link with a folder.`,
  );
}

function isInside(base: string, target: string): boolean {
  return target === base || target.startsWith(base + sep);
}

function parentOf(file: string): string {
  const slash = file.lastIndexOf('/');
  return slash === -1 ? '' : file.slice(0, slash);
}
