import type { SearchScope } from '@kit/core';
import type { StoredIndex } from '../engine/persist.js';

export type { StoredIndex } from '../engine/persist.js';
export { STORED_INDEX_FORMAT } from '../engine/persist.js';

/**
 * Where the server driver keeps built indexes between runs, so a restarted server loads each
 * version's index instead of building it. Keys name the content an index was built from (see
 * `SearchIndexOptions.key` in `@kit/core`); the cache adds what names the code. Like a cache
 * store it never throws: what it cannot read is missing, a write it cannot make is dropped.
 * `createDiskIndexCache` from `@kit/search/node` keeps them in `<root>/.kit/cache/search`.
 */
export interface SearchIndexCache {
  /** The value written under `key` for the scope, or undefined when there is none. */
  read(scope: SearchScope, key: string): Promise<unknown>;
  /**
   * Keeps `value` (a structured-clone value: the server driver's {@link StoredIndex}, the client
   * driver's built browser index) under `key`, replacing what the scope had under another key.
   */
  write(scope: SearchScope, key: string, value: StoredIndex | object): Promise<void>;
  /** Told that what `read` gave back is no usable index (`reason` says why): says so and removes it. */
  reject(scope: SearchScope, key: string, reason: string): Promise<void>;
}
