import { createHash } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import type { SearchScope } from '@kit/core';
import { hashCodeFiles, projectCacheDir, writeFileAtomically } from '@kit/core/node';
import type { SearchIndexCache } from '../drivers/index-cache.js';
import { STORED_INDEX_FORMAT } from '../engine/persist.js';

/** First bytes of every index file; the header length (4 bytes, big-endian) and the header JSON follow. */
const MAGIC = Buffer.from('KIT-SEARCH-INDEX\n');

/** What the header of an index file says about the payload after it. */
interface FileHeader {
  /** The content key the index was built from. */
  key: string;
  /** {@link searchCodeFingerprint} of the code that built it. */
  code: string;
  /** Payload length in bytes and its SHA-256 (hex): a truncated or altered file is told apart. */
  bytes: number;
  sha256: string;
}

/** Options of {@link createDiskIndexCache}. */
export interface DiskIndexCacheOptions {
  /** The folder index files live in (created on the first write): `searchIndexCacheDir(root)`. */
  dir: string;
  /** Told when a file is there but unusable (it is then removed and the index built again). Default: `console.warn`. */
  onWarning?: (message: string) => void;
  /** What names the code; default {@link searchCodeFingerprint}. Tests pass their own. */
  code?: () => Promise<string>;
}

/**
 * `<root>/.kit/cache/search`: where `kit serve`, `kit mcp` and the reference server keep built
 * search indexes. Deleting it is always safe (the next start builds them again).
 *
 * @example
 * createDiskIndexCache({ dir: searchIndexCacheDir('/srv/docs') });
 */
export function searchIndexCacheDir(root: string): string {
  return join(projectCacheDir(root), 'search');
}

/**
 * A {@link SearchIndexCache} in files: one per (set, version, locale, audience), at
 * `<dir>/<set>/<version>/<locale>.<audience>.<hash>.bin`, where the hash names both the content
 * key and the code that built the index (the search engine's files, its format version and the
 * V8 serialization of this Node.js), so another release or changed pages never read an index that
 * is not theirs. Each file is written whole or not at all (temporary file, then rename) and
 * carries the length and SHA-256 of its payload; a file that is cut short, altered or not an index
 * is ignored with a warning, removed and built again. Writing a scope's new index removes its
 * older ones.
 *
 * @example
 * const search = createServerSearch({ cache: createDiskIndexCache({ dir: searchIndexCacheDir(config.root) }) });
 */
export function createDiskIndexCache(options: DiskIndexCacheOptions): SearchIndexCache {
  const warn = options.onWarning ?? ((message: string) => console.warn(message));
  const codeOf = options.code ?? searchCodeFingerprint;
  // Where the code cannot be read (a bundled deployment) nothing is kept: an index of another
  // release could not be told apart.
  const code = codeOf().catch(() => null);

  const folderOf = (scope: SearchScope) =>
    join(options.dir, encodeURIComponent(scope.set), encodeURIComponent(scope.version));
  const prefixOf = (scope: SearchScope) => `${encodeURIComponent(scope.locale)}.${scope.audience}.`;
  const fileOf = (scope: SearchScope, key: string, codeKey: string) => {
    const hash = createHash('sha256').update(`${codeKey}\u0000${key}`).digest('hex').slice(0, 32);
    return join(folderOf(scope), `${prefixOf(scope)}${hash}.bin`);
  };

  async function discard(file: string, reason: string): Promise<void> {
    warn(
      `Kit: the search index kept in ${file} is unusable (${reason}); building it again. Deleting .kit/cache/search is always safe.`,
    );
    await rm(file, { force: true }).catch(() => {});
  }

  return {
    async read(scope, key) {
      const codeKey = await code;
      if (codeKey === null) return undefined;
      const file = fileOf(scope, key, codeKey);
      let bytes: Buffer;
      try {
        bytes = await readFile(file);
      } catch {
        return undefined;
      }
      const header = readHeader(bytes);
      if (typeof header === 'string') {
        await discard(file, header);
        return undefined;
      }
      // Another key or code under this name (a hash collision, a file copied in by hand): not this index.
      if (header.value.key !== key || header.value.code !== codeKey) return undefined;
      const payload = bytes.subarray(header.end);
      if (payload.length !== header.value.bytes) {
        await discard(file, `${payload.length} bytes of ${header.value.bytes}`);
        return undefined;
      }
      if (createHash('sha256').update(payload).digest('hex') !== header.value.sha256) {
        await discard(file, 'its checksum does not match');
        return undefined;
      }
      try {
        return deserialize(payload) as unknown;
      } catch (error) {
        await discard(file, `it does not decode: ${(error as Error).message}`);
        return undefined;
      }
    },

    async write(scope, key, value) {
      const codeKey = await code;
      if (codeKey === null) return;
      const file = fileOf(scope, key, codeKey);
      try {
        const payload = serialize(value);
        const header: FileHeader = {
          key,
          code: codeKey,
          bytes: payload.length,
          sha256: createHash('sha256').update(payload).digest('hex'),
        };
        const headerBytes = Buffer.from(JSON.stringify(header));
        const length = Buffer.alloc(4);
        length.writeUInt32BE(headerBytes.length);
        await writeFileAtomically(file, Buffer.concat([MAGIC, length, headerBytes, payload]));
        // The scope's older indexes name content that is gone: one file per scope stays.
        const name = file.slice(folderOf(scope).length + 1);
        for (const other of await readdir(folderOf(scope)).catch(() => [])) {
          if (other !== name && other.startsWith(prefixOf(scope)) && other.endsWith('.bin')) {
            await rm(join(folderOf(scope), other), { force: true }).catch(() => {});
          }
        }
      } catch {
        // A cache that cannot be written costs the next start a build, nothing else.
      }
    },

    async reject(scope, key, reason) {
      const codeKey = await code;
      if (codeKey === null) return;
      await discard(fileOf(scope, key, codeKey), reason);
    },
  };
}

/** The header of an index file and where its payload starts, or why there is none. */
function readHeader(bytes: Buffer): { value: FileHeader; end: number } | string {
  if (bytes.length < MAGIC.length + 4 || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return 'not an index file';
  const length = bytes.readUInt32BE(MAGIC.length);
  const start = MAGIC.length + 4;
  if (start + length > bytes.length) return 'its header is cut short';
  let value: unknown;
  try {
    value = JSON.parse(bytes.subarray(start, start + length).toString('utf8'));
  } catch {
    return 'its header is not JSON';
  }
  const header = value as Partial<FileHeader> | null;
  if (
    header === null ||
    typeof header !== 'object' ||
    typeof header.key !== 'string' ||
    typeof header.code !== 'string' ||
    typeof header.bytes !== 'number' ||
    typeof header.sha256 !== 'string'
  )
    return 'its header lacks key, code, bytes or sha256';
  return { value: header as FileHeader, end: start + length };
}

let computed: Promise<string> | null = null;

/**
 * What identifies the code that builds server indexes: a SHA-256 over the text of every code file
 * of `@kit/search` (source in the workspace, `dist` once published), its version, the stored
 * index format ({@link STORED_INDEX_FORMAT}) and the V8 version whose serializer wrote the file.
 * Read once per process; rejects where the files cannot be read.
 *
 * @example
 * createDiskIndexCache({ dir, code: searchCodeFingerprint });
 */
export function searchCodeFingerprint(): Promise<string> {
  computed ??= (async () => {
    const hash = createHash('sha256');
    // This file sits in `node/` under the package's code folder (`src` or `dist`).
    const codeFolder = dirname(dirname(fileURLToPath(import.meta.url)));
    await hashCodeFiles(hash, '@kit/search', codeFolder);
    const manifest = JSON.parse(await readFile(join(dirname(codeFolder), 'package.json'), 'utf8')) as {
      version?: string;
    };
    hash.update(`@kit/search@${manifest.version ?? ''}\u0000${STORED_INDEX_FORMAT}\u0000v8@${process.versions.v8}`);
    return hash.digest('hex').slice(0, 32);
  })();
  return computed;
}
