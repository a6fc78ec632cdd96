import { createHash } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { contentHash, isContentHash, normalizeForHash } from './content-hash.js';

describe('contentHash', () => {
  it('matches the published SHA-256 test vectors', () => {
    expect(contentHash('')).toBe('sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(contentHash('abc')).toBe('sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(contentHash('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      'sha256:248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('hashes the UTF-8 bytes of non-ASCII text exactly as node:crypto does', () => {
    const text = '# مرحبا\n\nÜmlaut, emoji 🚀, CJK 文档\n'.repeat(50);
    expect(contentHash(text)).toBe(`sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`);
  });

  it('gives CRLF, CR and LF line endings the same hash', () => {
    const lf = '---\ntitle: Routing\n---\n\n# Routing\n\nBody line\n';
    expect(contentHash(lf.replace(/\n/g, '\r\n'))).toBe(contentHash(lf));
    expect(contentHash(lf.replace(/\n/g, '\r'))).toBe(contentHash(lf));
    expect(contentHash('a\r\n\rb')).toBe(contentHash('a\n\nb'));
  });

  it('ignores a leading byte order mark but not one inside the text', () => {
    expect(contentHash('\uFEFF# Title\n')).toBe(contentHash('# Title\n'));
    expect(contentHash('a\uFEFFb')).not.toBe(contentHash('ab'));
  });

  it('changes when the content changes', () => {
    expect(contentHash('# Title\n')).not.toBe(contentHash('# Title\n\n'));
  });

  it('normalizes only line endings and the BOM', () => {
    expect(normalizeForHash('\uFEFFa\r\nb\rc\n')).toBe('a\nb\nc\n');
    expect(normalizeForHash('  tabs\tstay ')).toBe('  tabs\tstay ');
  });

  it('recognizes its own output as a content hash', () => {
    expect(isContentHash(contentHash('x'))).toBe(true);
    expect(isContentHash('sha256:abc')).toBe(false);
    expect(isContentHash('md5:d41d8cd98f00b204e9800998ecf8427e')).toBe(false);
    expect(isContentHash(42)).toBe(false);
  });

  it('gives the same hash as the portable SHA-256 used outside Node, for any text', () => {
    for (const text of ['', 'plain', 'مرحبا بكم 👋', 'lone \uD800 surrogate', 'x'.repeat(70_000)]) {
      expect(contentHash(text)).toBe(`sha256:${bytesToHex(sha256(new TextEncoder().encode(text)))}`);
    }
  });
});
