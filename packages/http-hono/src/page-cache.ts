import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { DocSet } from '@kit/core';

/** One finished page response: the bytes, their ETag and the headers it was sent with. */
export interface CachedPage {
  body: Uint8Array<ArrayBuffer>;
  etag: string;
  contentType: string;
  headers: Record<string, string>;
  /** The body gzipped, made on the first request that accepts gzip. */
  gzip?: Uint8Array<ArrayBuffer>;
  /** When the cache last moved it to the end of its order (a count of uses). */
  usedAt?: number;
  /**
   * The headers each way of sending it went out with (see sendCached's `sentHeaders`), by a small
   * number for gzipped, private and with the `web` headers.
   */
  sent?: Array<{ headers?: Record<string, string> } | undefined>;
}

/**
 * Finished page responses of one set, dropped whenever its source reports a change: a guest's of a
 * public set by address, and a signed-in reader's by address and the class of viewers shown the same.
 */
export interface PageResponseCache {
  get(key: string): CachedPage | undefined;
  /** Counts content changes; read it before building a response and hand it to `set`. */
  generation(): number;
  /** Keeps the response unless the content changed after `generation` was read. */
  set(key: string, generation: number, entry: Omit<CachedPage, 'etag'>): CachedPage;
}

/** Bytes of page bodies kept per set by default (the Laravel set's three versions fit twice over). */
const DEFAULT_MAX_BYTES = 128 * 1024 * 1024;

/**
 * The response cache of a set whose source watches its content, or null for one that does not:
 * without change notices a cached page could go stale, so those sets build every response afresh.
 * A `shared` source (a database other processes write) hears of their writes late, so its set
 * gets none either: its pages are rendered through its cache store, keyed by content hash.
 * A public page is the same for every guest, so the page route answers a repeat request for the
 * same origin, path and representation with the stored bytes and ETag instead of resolving,
 * laying out and hashing the page again. A signed-in reader's page is kept too, under what they
 * may see (the app's viewer class), so only the access checks run again.
 */
export function pageResponseCache(set: DocSet, maxBytes = DEFAULT_MAX_BYTES): PageResponseCache | null {
  if (typeof set.source.watch !== 'function' || set.source.shared === true) return null;
  const entries = new Map<string, CachedPage>();
  let bytes = 0;
  let changes = 0;
  let uses = 0;
  set.source.watch(() => {
    changes += 1;
    entries.clear();
    bytes = 0;
  });
  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    bytes -= entry.body.byteLength;
    entries.delete(key);
  };
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      // Least recently used goes first: an entry outside the newer half of the order is moved to
      // its end (re-inserted); one inside it is left, which spares a hot page two map writes a hit.
      uses += 1;
      if (uses - (entry.usedAt ?? 0) > entries.size / 2) {
        entries.delete(key);
        entries.set(key, entry);
        entry.usedAt = uses;
      }
      return entry;
    },
    generation: () => changes,
    set(key, generation, entry) {
      const stored: CachedPage = { ...entry, etag: etagOf(entry.body) };
      if (generation !== changes || entry.body.byteLength > maxBytes) return stored;
      drop(key);
      uses += 1;
      stored.usedAt = uses;
      entries.set(key, stored);
      bytes += entry.body.byteLength;
      while (bytes > maxBytes) drop(entries.keys().next().value as string);
      return stored;
    },
  };
}

/**
 * The representation of a cached page for a request's Accept-Encoding (`gzipped` when it goes
 * with `Content-Encoding: gzip`): gzipped once and kept, so a browser's request costs no
 * compression (the compress middleware leaves a response alone that already names its encoding).
 * The gzipped bytes carry the weak form of the page's ETag, as the compress middleware would.
 */
export function cachedVariant(
  entry: CachedPage,
  acceptEncoding: string | undefined,
): { body: Uint8Array<ArrayBuffer>; etag: string; gzipped: boolean } {
  if (entry.body.byteLength < 1024 || !acceptsGzip(acceptEncoding)) {
    return { body: entry.body, etag: entry.etag, gzipped: false };
  }
  entry.gzip ??= new Uint8Array(gzipSync(entry.body)) as Uint8Array<ArrayBuffer>;
  return { body: entry.gzip, etag: `W/${entry.etag}`, gzipped: true };
}

function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let wildcard = false;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    const accepted = q === undefined || Number(q.slice(2)) > 0;
    if (name.trim() === 'gzip') return accepted;
    if (name.trim() === '*') wildcard = accepted;
  }
  return wildcard;
}

/** The strong ETag `sendCached` gives a body. */
export function etagOf(body: string | Uint8Array): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}
