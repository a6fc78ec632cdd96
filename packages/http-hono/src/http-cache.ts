import { createHash } from 'node:crypto';
import type { Context } from 'hono';

/**
 * Sends a body with the caching rules every Kit response follows: a response that depends on who
 * asks is `Cache-Control: private`; a public one carries a strong ETag and answers a matching
 * `If-None-Match` with 304.
 */
export function sendCached(
  c: Context,
  body: string | Uint8Array,
  options: { contentType: string; isPrivate: boolean; status?: 200 | 404; headers?: Record<string, string> },
): Response {
  const headers: Record<string, string> = { 'Content-Type': options.contentType, ...options.headers };
  const status = options.status ?? 200;
  if (options.isPrivate) {
    headers['Cache-Control'] = 'private, no-cache';
    return c.body(typeof body === 'string' ? body : toArrayBuffer(body), status, headers);
  }
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  headers.ETag = etag;
  headers['Cache-Control'] ??= status === 200 ? 'public, max-age=0, must-revalidate' : 'public, max-age=60';
  if (status === 200 && matchesEtag(c.req.header('If-None-Match'), etag)) {
    return c.body(null, 304, { ETag: etag, 'Cache-Control': headers['Cache-Control'] });
  }
  return c.body(typeof body === 'string' ? body : toArrayBuffer(body), status, headers);
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}

function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}
