import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex } from '@noble/hashes/utils';

const encoder = new TextEncoder();

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
  return `sha256:${bytesToHex(sha256(encoder.encode(normalizeForHash(text))))}`;
}

/** True when `value` has the shape of a content hash (`sha256:` and 64 lowercase hex digits). */
export function isContentHash(value: unknown): value is string {
  return typeof value === 'string' && /^sha256:[0-9a-f]{64}$/.test(value);
}
