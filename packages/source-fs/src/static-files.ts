import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import type { SourceFileContent } from '@kit/core';
import { isServableFileName } from '@kit/core/internal';
import { withFileSlot } from '@kit/core/node';
import { isIgnoredName } from './layout.js';
import type { SetFolder } from './set-folder.js';
import type { SourceState } from './source-state.js';

/** Files larger than this are hashed and sent as streams, never held whole in memory. */
const STREAM_THRESHOLD = 1024 * 1024;

/** The files of a set folder that are not pages: stylesheets and other assets, and served static files. */
export interface StaticFiles {
  /** See `ContentSource.readAsset`. */
  readAsset(name: string): Promise<Uint8Array | null>;
  /** See `ContentSource.openFile`. */
  openFile(name: string): Promise<SourceFileContent | null>;
}

/**
 * Reads assets and served files, never through a link that leads out of the set folder. The
 * content hash of a served file is kept in the source state by inode, size and mtime, so a request
 * answered 304 from the hash reads nothing more.
 *
 * @example
 * const files = createStaticFiles(folder, state);
 * const logo = await files.openFile('images/logo.png');
 */
export function createStaticFiles(folder: SetFolder, state: SourceState): StaticFiles {
  const { disk } = folder;
  return {
    async readAsset(name) {
      if (!isSafeAssetName(name)) return null;
      const absolute = await folder.resolveInside(name);
      if (!absolute) return null;
      const info = await disk.stat(absolute, name);
      return info?.isFile() ? disk.readBytes(absolute, name) : null;
    },

    async openFile(name) {
      if (!isServableFileName(name)) return null;
      const base = await folder.realRoot();
      const absolute = await folder.resolveInside(name);
      if (!base || !absolute) return null;
      // A symlink inside the folder that points at a dotfile or a key is as refused as the file itself.
      if (!isServableFileName(relative(base, absolute).split(sep).join('/'))) return null;
      const info = await disk.stat(absolute, name);
      if (!info?.isFile()) return null;
      const fingerprint = `${info.ino}:${info.mtimeMs}:${info.size}`;
      const known = state.fileHashes.get(absolute);
      const small = info.size <= STREAM_THRESHOLD;
      const read = async () => {
        const bytes = await withFileSlot(() => readFile(absolute));
        return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      };
      if (known?.fingerprint === fingerprint) {
        // Known bytes: a request answered 304 from the hash reads nothing more.
        return {
          size: info.size,
          contentHash: known.hash,
          open: async () =>
            small ? read() : (Readable.toWeb(createReadStream(absolute)) as ReadableStream<Uint8Array>),
        };
      }
      if (small) {
        const bytes = await disk.readBytes(absolute, name);
        if (!bytes) return null;
        const hash = bytesHash(bytes);
        state.rememberFileHash(absolute, fingerprint, hash);
        return { size: bytes.byteLength, contentHash: hash, open: async () => bytes };
      }
      const hash = await disk.streamHash(absolute, name);
      if (hash === null) return null;
      state.rememberFileHash(absolute, fingerprint, hash);
      return {
        size: info.size,
        contentHash: hash,
        open: async () => Readable.toWeb(createReadStream(absolute)) as ReadableStream<Uint8Array>,
      };
    },
  };
}

function bytesHash(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** Asset names stay inside the set folder and never reach page sources, which go through access checks. */
function isSafeAssetName(name: string): boolean {
  if (typeof name !== 'string' || name === '' || isAbsolute(name) || name.includes('\\') || name.includes('\0')) {
    return false;
  }
  if (name.endsWith('.md')) return false;
  return name.split('/').every((segment) => segment !== '' && segment !== '..' && !isIgnoredName(segment));
}
