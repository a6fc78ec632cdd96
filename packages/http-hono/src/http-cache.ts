import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import type { StatusCode } from 'hono/utils/http-status';

/** What {@link sendCached} sends: a status, a body and its headers, not yet a Response. */
export interface PreparedResponse {
  status: number;
  body: string | Uint8Array<ArrayBuffer> | ArrayBuffer | null;
  headers: Record<string, string>;
}

/** Options of {@link sendCached} and {@link cachedResponse}. */
export interface CachedResponseOptions {
  contentType: string;
  isPrivate: boolean;
  status?: 200 | 404;
  headers?: Record<string, string>;
  /** The body's ETag when the caller already has it (a cached response); computed otherwise. */
  etag?: string;
  /**
   * Where a kept response keeps the headers it is sent with, made on its first sending: the same
   * options give the same headers, so a repeat builds none.
   */
  sentHeaders?: { headers?: Record<string, string> };
}

/**
 * Sends a body with the caching rules every Kit response follows: a response that depends on who
 * asks is `Cache-Control: private`; a public one carries a strong ETag and answers a matching
 * `If-None-Match` with 304.
 */
export function sendCached(c: Context, body: string | Uint8Array, options: CachedResponseOptions): Response {
  const prepared = cachedResponse(body, options, c.req.header('If-None-Match'));
  return respond(c, prepared.body, prepared.status, prepared.headers);
}

/** The response {@link sendCached} sends, for a request that sent `ifNoneMatch`. */
export function cachedResponse(
  body: string | Uint8Array,
  options: CachedResponseOptions,
  ifNoneMatch: string | undefined,
): PreparedResponse {
  const status = options.status ?? 200;
  let headers = options.sentHeaders?.headers;
  if (!headers) {
    headers = { 'content-type': options.contentType };
    for (const name in options.headers) headers[name.toLowerCase()] = options.headers[name]!;
    if (options.isPrivate) {
      headers['cache-control'] = 'private, no-cache';
    } else {
      headers.etag = options.etag ?? etagOf(body);
      headers['cache-control'] ??= status === 200 ? 'public, max-age=0, must-revalidate' : 'public, max-age=60';
    }
    if (options.sentHeaders) options.sentHeaders.headers = headers;
  }
  if (!options.isPrivate && status === 200 && matchesEtag(ifNoneMatch, headers.etag!)) {
    return { status: 304, body: null, headers: { ETag: headers.etag!, 'Cache-Control': headers['cache-control']! } };
  }
  return { status, body: typeof body === 'string' ? body : sendableBytes(body), headers };
}

/**
 * The response `c.body` would make, with the headers middleware set on the context before it
 * (`web`'s, an application's) and `headers` over them, but held as a plain record: Hono would copy
 * them into a `Headers` object, checking each, and the Node adapter would read them back out of it,
 * which costs a cached page more than sending it. A header given twice (Set-Cookie) keeps Hono's way.
 */
export function respond(
  c: Context,
  body: string | Uint8Array<ArrayBuffer> | ArrayBuffer | null,
  status: number,
  headers: Record<string, string>,
): Response {
  c.set('kitHeadersKept', true);
  // Nothing ran before Kit's first middleware (see createKitApp), so nothing set a header yet.
  if (c.get('kitAnsweredFirst')) return new Response(body, { status, headers });
  // What c.body would start from: the headers set so far, without making the response they would join.
  const record: Record<string, string> = {};
  for (const [name, value] of c.newResponse(null).headers) {
    if (name === 'set-cookie') return c.newResponse(body, status as StatusCode, headers);
    record[name] = value;
  }
  for (const name in headers) record[name.toLowerCase()] = headers[name]!;
  return new Response(body, { status, headers: record });
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

/** The strong ETag `sendCached` gives a body. */
export function etagOf(body: string | Uint8Array): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}
