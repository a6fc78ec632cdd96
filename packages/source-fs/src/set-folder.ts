import { realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { withFileSlot } from '@kit/core/node';
import type { SetFiles } from './file-reads.js';

/** The set folder as the other parts of a repository source reach it: links resolved, never left. */
export interface SetFolder {
  /** The set folder as given, absolute. */
  readonly root: string;
  /** The set's file reads (see `setFiles`). */
  readonly disk: SetFiles;
  /** The set folder with links resolved, or null when it does not exist or cannot be read. */
  realRoot(): Promise<string | null>;
  /** Resolves a set-relative file, or null when it is absent or a link leads outside the set folder. */
  resolveInside(file: string): Promise<string | null>;
  /** `mtimeMs:size` of a regular file, or null when it is no file. */
  fingerprintOf(absolute: string, file: string): Promise<string | null>;
}

/**
 * The boundary of a set folder: the real path of `root` is looked up once (again after a failure),
 * and every file is resolved through it.
 *
 * @example
 * const folder = createSetFolder('/srv/docs', setFiles('docs'));
 * const manifest = await folder.resolveInside('kit.json'); // null when it links out of the folder
 */
export function createSetFolder(root: string, disk: SetFiles): SetFolder {
  let realRootPromise: Promise<string | null> | null = null;

  const realRoot = (): Promise<string | null> => {
    realRootPromise ??= withFileSlot(() => realpath(root)).catch(() => {
      realRootPromise = null;
      return null;
    });
    return realRootPromise;
  };

  return {
    root,
    disk,
    realRoot,
    async resolveInside(file) {
      const base = await realRoot();
      if (!base) return null;
      const target = await disk.realpath(join(base, file), file);
      return target !== null && isInside(base, target) ? target : null;
    },
    async fingerprintOf(absolute, file) {
      const info = await disk.stat(absolute, file);
      return info?.isFile() ? `${info.mtimeMs}:${info.size}` : null;
    },
  };
}

function isInside(base: string, target: string): boolean {
  return target === base || target.startsWith(base + sep);
}
