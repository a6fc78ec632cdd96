import type { Context } from 'hono';
import { etagOf } from './page-cache.js';

/**
 * Sends a body with the caching rules every Kit response follows: a response that depends on who
 * asks is `Cache-Control: private`; a public one carries a strong ETag and answers a matching
 * `If-None-Match` with 304.
 */
export function sendCached(
  c: Context,
  body: string | Uint8Array,
  options: {
    contentType: string;
    isPrivate: boolean;
    status?: 200 | 404;
    headers?: Record<string, string>;
    /** The body's ETag when the caller already has it (a cached response); computed otherwise. */
    etag?: string;
  },
): Response {
  const headers: Record<string, string> = { 'Content-Type': options.contentType, ...options.headers };
  const status = options.status ?? 200;
  if (options.isPrivate) {
    headers['Cache-Control'] = 'private, no-cache';
    return c.body(typeof body === 'string' ? body : sendableBytes(body), status, headers);
  }
  const etag = options.etag ?? etagOf(body);
  headers.ETag = etag;
  headers['Cache-Control'] ??= status === 200 ? 'public, max-age=0, must-revalidate' : 'public, max-age=60';
  if (status === 200 && matchesEtag(c.req.header('If-None-Match'), etag)) {
    return c.body(null, 304, { ETag: etag, 'Cache-Control': headers['Cache-Control'] });
  }
  return c.body(typeof body === 'string' ? body : sendableBytes(body), status, headers);
}

/** If-None-Match uses the weak comparison: `W/"x"` matches `"x"` either way round. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = etag.replace(/^W\//, '');
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === opaque || tag === '*');
}

/** Bytes as Hono sends them; a Uint8Array over a plain ArrayBuffer goes out without a copy. */
export function sendableBytes(bytes: Uint8Array): Uint8Array<ArrayBuffer> | ArrayBuffer {
  if (bytes.buffer instanceof ArrayBuffer) return bytes as Uint8Array<ArrayBuffer>;
  return bytes.slice().buffer as ArrayBuffer;
}
