import { createServer } from 'node:net';
import type { CacheStore } from '../ports/cache-store.js';

/**
 * A cache store that passes every call to `inner` and keeps the keys it currently holds, so a test
 * can assert what a cache wrote and what it removed.
 *
 * @example
 * const { store, keys } = recordingCacheStore(createArrayCacheStore());
 */
export function recordingCacheStore(inner: CacheStore): { store: CacheStore; keys: Set<string> } {
  const keys = new Set<string>();
  const store: CacheStore = {
    get: (key) => inner.get(key),
    async set(key, value, options) {
      keys.add(key);
      await inner.set(key, value, options);
    },
    async delete(key) {
      keys.delete(key);
      await inner.delete(key);
    },
  };
  return { store, keys };
}

/** A port on 127.0.0.1 where nothing listens: a store pointed at it is refused at once. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
