import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { join, resolve, sep } from 'node:path';
import { KitError } from '@kit/core';
import { writeFileAtomically } from '@kit/core/node';

/**
 * A filesystem disk holding database-set assets (`source.disk`). Paths are relative and chosen by
 * Kit (`<set>/<hash hex>`), never by a reader.
 */
export interface AssetDisk {
  /** The disk's name in the configuration (`local`, ...), stored with each asset row. */
  readonly name: string;
  read(path: string): Promise<Uint8Array | null>;
  /** The bytes as a stream, for serving a large asset without holding it in memory; null when missing. */
  stream?(path: string): Promise<ReadableStream<Uint8Array> | null>;
  write(path: string, bytes: Uint8Array): Promise<void>;
}

/**
 * A disk in a local folder (by default `<root>/.kit/assets`). Writes go through a temporary file
 * and a rename, so a reader never sees half a file.
 *
 * @example
 * const disk = createLocalDisk({ root: join(root, '.kit/assets') });
 * await writeAsset(db, 'docs', { name: 'images/logo.png', content: bytes }, { disk });
 */
export function createLocalDisk(options: { root: string; name?: string }): AssetDisk {
  const root = resolve(options.root);
  const locate = (path: string) => {
    const full = resolve(join(root, path));
    if (!full.startsWith(root + sep)) {
      throw new KitError(
        'argument.invalid',
        `The disk path "${path}" leaves the disk folder. Use a relative path inside it.`,
      );
    }
    return full;
  };
  return {
    name: options.name ?? 'local',
    async read(path) {
      try {
        return new Uint8Array(await readFile(locate(path)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async stream(path) {
      const full = locate(path);
      const info = await stat(full).catch(() => null);
      if (!info?.isFile()) return null;
      return Readable.toWeb(createReadStream(full)) as ReadableStream<Uint8Array>;
    },
    async write(path, bytes) {
      await writeFileAtomically(locate(path), bytes);
    },
  };
}
