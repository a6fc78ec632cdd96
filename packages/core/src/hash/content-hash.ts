import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

const encoder = new TextEncoder();

/** The part of node:crypto the hash uses; typed here so the root entry needs no Node types. */
interface NativeHash {
  createHash(algorithm: 'sha256'): {
    update(data: string | Uint8Array, encoding?: 'utf8'): { digest(encoding: 'hex'): string };
  };
}
// Node's native SHA-256 is many times faster than the portable one: a server hashes every page file
// it lists (about 10 MB for the Laravel corpus at start-up). Looked up without an import so the
// root entry still runs in browsers and edge runtimes, which use @noble/hashes.
const native = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.(
  'node:crypto',
) as NativeHash | undefined;

/**
 * Normalizes page text the way every content hash sees it: a leading BOM removed and CRLF/CR line
 * endings turned into LF, so a file checked out on Windows hashes like the same file on Linux.
 */
export function normalizeForHash(text: string): string {
  const withoutBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return withoutBom.includes('\r') ? withoutBom.replace(/\r\n?/g, '\n') : withoutBom;
}

/**
 * The content hash of a page file (or any text a revision wrote): `sha256:` plus the lowercase hex
 * digest of its UTF-8 bytes after {@link normalizeForHash}. `read_page` returns it and author tools
 * take it back as `based_on`, so it must be identical on every platform and in every source.
 * Synchronous and free of Node-only APIs so it runs in any JavaScript runtime.
 *
 * @example
 * contentHash('# Hello\r\n') === contentHash('# Hello\n'); // true
 * contentHash(''); // 'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
 */
export function contentHash(text: string): string {
  const normalized = normalizeForHash(text);
  if (native) return `sha256:${native.createHash('sha256').update(normalized, 'utf8').digest('hex')}`;
  return `sha256:${bytesToHex(sha256(encoder.encode(normalized)))}`;
}

/**
 * The content hash of a file's raw bytes (an image, a PDF, a stylesheet as stored): `sha256:` plus
 * the lowercase hex digest, with no text normalization. It is what a set's static files carry as
 * their content hash and what `write_asset` takes back as `based_on`.
 *
 * @example
 * bytesContentHash(new Uint8Array()); // 'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
 */
export function bytesContentHash(bytes: Uint8Array): string {
  if (native) return `sha256:${native.createHash('sha256').update(bytes).digest('hex')}`;
  return `sha256:${bytesToHex(sha256(bytes))}`;
}

/** True when `value` has the shape of a content hash (`sha256:` and 64 lowercase hex digits). */
export function isContentHash(value: unknown): value is string {
  return typeof value === 'string' && /^sha256:[0-9a-f]{64}$/.test(value);
}
