import { lstat, open, readdir, realpath, stat } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import { normalizeProjectPath, type SyncDenyRules } from './deny.js';
import type { SyncCodeReader } from './ports.js';

/** Longest file text the model is given, in bytes. */
const MAX_FILE_BYTES = 64 * 1024;
/** Most entries one folder listing returns. */
const MAX_ENTRIES = 500;

/**
 * Reads the project's files for the docs agent: only regular files inside `root` (symlinks are
 * followed and the target checked again, so a link cannot reach a denied file or leave the
 * project), never a path the deny rules refuse. A refused path and a missing one get the same
 * answer, so the model cannot probe for secrets.
 *
 * @example
 * const code = createFsCodeReader('/work/app', syncDenyRules(config.ai.sync.deny));
 * await code.read('src/router.ts');
 */
export function createFsCodeReader(root: string, deny: SyncDenyRules): SyncCodeReader {
  const refused = (path: string) => ({
    error: `No readable file or folder "${path}" (missing, outside the project, or in the deny list). Use list_files to see what can be read.`,
  });
  const inside = async (written: string): Promise<{ path: string; absolute: string } | null> => {
    const clean = normalizeProjectPath(written);
    if (clean === null || (clean !== '' && deny.denies(clean))) return null;
    const realRoot = await realpath(root);
    const absolute = resolve(realRoot, clean);
    let real: string;
    try {
      real = await realpath(absolute);
    } catch {
      return null;
    }
    const fromRoot = relative(realRoot, real).split(sep).join('/');
    if (fromRoot.startsWith('..') || resolve(realRoot, fromRoot) !== real) return null;
    if (fromRoot !== '' && deny.denies(fromRoot)) return null;
    return { path: fromRoot, absolute: real };
  };
  return {
    async read(written) {
      const found = await inside(written);
      if (!found || found.path === '') return refused(written);
      const info = await stat(found.absolute).catch(() => null);
      if (!info?.isFile()) return refused(written);
      const handle = await open(found.absolute, 'r');
      try {
        const buffer = Buffer.alloc(Math.min(info.size, MAX_FILE_BYTES));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
        const text = buffer.subarray(0, bytesRead).toString('utf8');
        if (text.includes('\u0000')) return { error: `"${written}" is a binary file; it cannot be read as text.` };
        return { text, truncated: info.size > MAX_FILE_BYTES };
      } finally {
        await handle.close();
      }
    },
    async list(written) {
      const found = await inside(written || '.');
      if (!found) return refused(written);
      const info = await lstat(found.absolute).catch(() => null);
      if (!info) return refused(written);
      const entries: string[] = [];
      for (const entry of await readdir(found.absolute, { withFileTypes: true })) {
        const path = found.path === '' ? entry.name : `${found.path}/${entry.name}`;
        if (deny.denies(path)) continue;
        entries.push(entry.isDirectory() ? `${path}/` : path);
        if (entries.length >= MAX_ENTRIES) break;
      }
      return { entries: entries.sort() };
    },
  };
}
