import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFsSnippetReader } from './fs-snippet-reader.js';

describe('createFsSnippetReader', () => {
  it('refuses a FIFO at once instead of waiting for a writer, and still reads regular files', async () => {
    const root = mkdtempSync(join(tmpdir(), 'kit-fifo-'));
    execFileSync('mkfifo', [join(root, 'pipe.txt')]);
    writeFileSync(join(root, 'plain.txt'), 'plain text\n');
    const reader = createFsSnippetReader();
    // Four at once: were each to hold a libuv thread, the fourth would leave none for the file read.
    const refusals = await Promise.allSettled([1, 2, 3, 4].map(() => reader.read(root, 'pipe.txt')));
    for (const refusal of refusals) {
      expect(refusal.status).toBe('rejected');
      expect(String((refusal as PromiseRejectedResult).reason)).toMatch(/no such readable file inside snippets\.root/);
    }
    expect(await reader.read(root, 'plain.txt')).toBe('plain text\n');
  }, 10_000);
});
