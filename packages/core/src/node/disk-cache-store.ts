import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { CacheSetOptions, CacheStore } from '../ports/cache-store.js';
import { projectCacheDir } from './cache-dir.js';
import { writeFileAtomically } from './write-atomically.js';

/** What one file of a disk store holds: the key it was written under, its value and its expiry. */
interface DiskEntry {
  key: string;
  value: unknown;
  /** Epoch milliseconds after which the entry is gone, or null for none. */
  expires: number | null;
}

/** Options of {@link createDiskCacheStore}. */
export interface DiskCacheStoreOptions {
  /** The folder the entries live in (created on the first write). */
  dir: string;
  /** Clock in epoch milliseconds (tests pass their own). */
  now?: () => number;
}

/**
 * Where a repository set keeps its renders and search sections between runs:
 * `<root>/.kit/cache/store` (under {@link projectCacheDir}). Deleting it is always safe.
 *
 * @example
 * createDiskCacheStore({ dir: diskCacheStoreDir('/srv/docs') });
 */
export function diskCacheStoreDir(root: string): string {
  return join(projectCacheDir(root), 'store');
}

/**
 * A cache store kept in files, one per key (named by the key's SHA-256, in a folder per first two
 * hex digits), written whole or not at all, so a server restarted on the same folder finds what the
 * last one rendered and indexed, and two processes on one folder never read half an entry. Kit's
 * keys are content-addressed (they carry the hashes of the page, the manifest and the renderer's
 * code), so an entry is never stale, only unused. Like every store it never throws: an entry it
 * cannot read is missing, a write it cannot make is dropped.
 *
 * @example
 * const cache = createDiskCacheStore({ dir: diskCacheStoreDir(config.root) });
 * createDocSet({ config, source, renderer, search, cache });
 */
export function createDiskCacheStore(options: DiskCacheStoreOptions): CacheStore {
  const now = options.now ?? Date.now;
  const fileOf = (key: string) => {
    const name = createHash('sha256').update(key).digest('hex');
    return join(options.dir, name.slice(0, 2), `${name}.json`);
  };
  return {
    async get<T>(key: string): Promise<T | undefined> {
      let entry: DiskEntry;
      try {
        entry = JSON.parse(await readFile(fileOf(key), 'utf8')) as DiskEntry;
      } catch {
        return undefined;
      }
      // A file whose key differs (a hash collision, or a file put there by hand) is not this entry.
      if (entry === null || typeof entry !== 'object' || entry.key !== key || !('value' in entry)) return undefined;
      if (typeof entry.expires === 'number' && entry.expires <= now()) return undefined;
      return entry.value as T;
    },
    async set(key: string, value: unknown, setOptions?: CacheSetOptions): Promise<void> {
      if (value === undefined) throw new TypeError(`Cache value for "${key}" is undefined; store null instead.`);
      const ttl = setOptions?.ttlSeconds;
      const entry: DiskEntry = { key, value, expires: ttl === undefined ? null : now() + ttl * 1000 };
      await writeFileAtomically(fileOf(key), JSON.stringify(entry)).catch(() => {});
    },
    async delete(key: string): Promise<void> {
      await rm(fileOf(key), { force: true }).catch(() => {});
    },
  };
}
