import { describe, expect, it } from 'vitest';
import {
  createArrayCacheStore,
  createMemoryCacheStore,
  createNullCacheStore,
  DEFAULT_MEMORY_CACHE_BYTES,
  DEFAULT_MEMORY_CACHE_ENTRIES,
  prefixCacheStore,
} from './cache-stores.js';

describe('the memory cache store', () => {
  it('keeps strings and JSON values and tells a stored null from a miss', async () => {
    const store = createMemoryCacheStore();
    await store.set('text', 'hello');
    await store.set('json', { pages: [{ path: 'routing' }], count: 1 });
    await store.set('nothing', null);
    expect(await store.get('text')).toBe('hello');
    expect(await store.get('json')).toEqual({ pages: [{ path: 'routing' }], count: 1 });
    expect(await store.get('nothing')).toBeNull();
    expect(await store.get('missing')).toBeUndefined();
  });

  it('evicts the least recently used entry once max_entries is reached', async () => {
    const store = createMemoryCacheStore({ maxEntries: 3 });
    await store.set('a', 1);
    await store.set('b', 2);
    await store.set('c', 3);
    // Reading `a` makes `b` the least recently used.
    expect(await store.get('a')).toBe(1);
    await store.set('d', 4);
    expect(store.size).toBe(3);
    expect(await store.get('b')).toBeUndefined();
    expect(await store.get('a')).toBe(1);
    expect(await store.get('c')).toBe(3);
    expect(await store.get('d')).toBe(4);
  });

  it('replaces a value in place without growing, and deletes on request', async () => {
    const store = createMemoryCacheStore({ maxEntries: 2 });
    await store.set('a', 1);
    await store.set('a', 2);
    await store.set('b', 3);
    expect(store.size).toBe(2);
    expect(await store.get('a')).toBe(2);
    await store.delete('a');
    expect(await store.get('a')).toBeUndefined();
    expect(store.size).toBe(1);
  });

  it('bounds itself at 1000 entries by default', async () => {
    const store = createMemoryCacheStore();
    for (let i = 0; i < DEFAULT_MEMORY_CACHE_ENTRIES + 5; i++) await store.set(`k${i}`, i);
    expect(DEFAULT_MEMORY_CACHE_ENTRIES).toBe(1000);
    expect(store.size).toBe(1000);
    expect(await store.get('k0')).toBeUndefined();
    expect(await store.get(`k${DEFAULT_MEMORY_CACHE_ENTRIES + 4}`)).toBe(DEFAULT_MEMORY_CACHE_ENTRIES + 4);
  });

  it('bounds itself in bytes too, so a few large entries (page lists, search sections) cannot fill memory', async () => {
    const store = createMemoryCacheStore();
    const mebibyte = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 200; i++) await store.set(`list${i}`, { pages: [{ body: mebibyte }], i });
    expect(DEFAULT_MEMORY_CACHE_BYTES).toBe(64 * 1024 * 1024);
    expect(store.bytes).toBeLessThanOrEqual(DEFAULT_MEMORY_CACHE_BYTES);
    expect(await store.get('list0')).toBeUndefined();
    expect(await store.get('list199')).toEqual({ pages: [{ body: mebibyte }], i: 199 });

    const small = createMemoryCacheStore({ maxBytes: 100 });
    await small.set('fits', 'a'.repeat(40));
    // Larger than the whole store: not kept, and nothing else is pushed out for it.
    await small.set('huge', 'b'.repeat(200));
    expect(await small.get('huge')).toBeUndefined();
    expect(await small.get('fits')).toBe('a'.repeat(40));
    await small.set('second', 'c'.repeat(40));
    await small.set('third', 'd'.repeat(40));
    expect(await small.get('fits')).toBeUndefined();
    expect(small.bytes).toBeLessThanOrEqual(100);
    await small.delete('third');
    await small.set('second', 'e');
    expect(small.bytes).toBe(1);
  });

  it('forgets an entry once its ttl has passed', async () => {
    let clock = 0;
    const store = createMemoryCacheStore({ now: () => clock });
    await store.set('short', 'x', { ttlSeconds: 10 });
    await store.set('forever', 'y');
    clock = 9_999;
    expect(await store.get('short')).toBe('x');
    clock = 10_000;
    expect(await store.get('short')).toBeUndefined();
    expect(await store.get('forever')).toBe('y');
  });

  it('refuses a bound that is not a positive whole number, saying what to give', () => {
    expect(() => createMemoryCacheStore({ maxEntries: 0 })).toThrow(/1 or more/);
    expect(() => createMemoryCacheStore({ maxEntries: 2.5 })).toThrow(/whole number/);
  });
});

describe('the array cache store', () => {
  it('keeps every entry it is given, with no bound', async () => {
    const store = createArrayCacheStore();
    for (let i = 0; i < 5000; i++) await store.set(`k${i}`, { i });
    expect(store.size).toBe(5000);
    expect(await store.get('k0')).toEqual({ i: 0 });
    await store.delete('k0');
    expect(await store.get('k0')).toBeUndefined();
  });
});

describe('the null cache store', () => {
  it('stores nothing, so every read misses', async () => {
    const store = createNullCacheStore();
    await store.set('k', 'value');
    await store.set('json', { a: 1 });
    expect(await store.get('k')).toBeUndefined();
    expect(await store.get('json')).toBeUndefined();
    await expect(store.delete('k')).resolves.toBeUndefined();
  });
});

describe('prefixCacheStore', () => {
  it('keeps two users of one store apart', async () => {
    const shared = createArrayCacheStore();
    const a = prefixCacheStore(shared, 'a:');
    const b = prefixCacheStore(shared, 'b:');
    await a.set('page', 'from a');
    await b.set('page', 'from b');
    expect(await a.get('page')).toBe('from a');
    expect(await b.get('page')).toBe('from b');
    expect(await shared.get('a:page')).toBe('from a');
    await a.delete('page');
    expect(await a.get('page')).toBeUndefined();
    expect(await b.get('page')).toBe('from b');
  });
});
