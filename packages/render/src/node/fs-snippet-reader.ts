import { constants } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { withFileSlot } from '@kit/core/node';
import { checkSnippetPath, type SnippetReader, snippetRefused } from '../snippets/policy.js';

/** Snippet files larger than this are refused: an include is an excerpt, not a dump. */
const MAX_SNIPPET_BYTES = 512 * 1024;

/**
 * Reads snippet includes from disk, inside `root` only. The real path (symlinks resolved) must lie
 * inside the real root (compared with a trailing separator, so `/docs-secret` is not inside
 * `/docs`) and must itself pass the secret-file rules; anything else gets the one uniform refusal.
 * Files are read through the process-wide pool of `@kit/core/node`, so pages rendered side by side
 * never run the process out of open files, and a read that meets `EMFILE` is tried again rather
 * than shown as a missing snippet.
 */
export function createFsSnippetReader(): SnippetReader {
  return {
    async read(root, relativePath) {
      const checked = checkSnippetPath(relativePath);
      try {
        const realRoot = await withFileSlot(() => realpath(root));
        const target = await withFileSlot(() => realpath(join(realRoot, checked)));
        const inside = relative(realRoot, target);
        if (inside === '' || inside.startsWith(`..${sep}`) || inside === '..' || target.indexOf(realRoot + sep) !== 0) {
          throw snippetRefused(relativePath);
        }
        checkSnippetPath(inside.split(sep).join('/'));
        // Opening a FIFO or a device waits for a writer, holding a libuv thread for good: only a
        // regular file is opened, and without blocking should it be swapped for one in between.
        const found = await withFileSlot(() => stat(target));
        if (!found.isFile() || found.size > MAX_SNIPPET_BYTES) throw snippetRefused(relativePath);
        return await withFileSlot(async () => {
          const handle = await open(target, constants.O_RDONLY | constants.O_NONBLOCK);
          try {
            const stats = await handle.stat();
            if (!stats.isFile() || stats.size > MAX_SNIPPET_BYTES) throw snippetRefused(relativePath);
            return await handle.readFile('utf8');
          } finally {
            await handle.close();
          }
        });
      } catch {
        throw snippetRefused(relativePath);
      }
    },
  };
}
