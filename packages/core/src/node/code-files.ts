import type { Hash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Source and built files whose text is a package's code (tests and type declarations are not). */
const CODE_FILE = /^(?!.*\.test\.)(?!.*\.d\.ts$).*\.(?:[cm]?js|ts)$/;

/**
 * Feeds `hash` the text of every code file under a package's code folder (`src` in the workspace,
 * `dist` once published), each under its path relative to the folder, in sorted order so the hash
 * does not depend on the directory order. The part every code fingerprint of a cache key shares.
 *
 * @example
 * const hash = createHash('sha256');
 * await hashCodeFiles(hash, '@kit/search', codeFolder);
 */
export async function hashCodeFiles(hash: Hash, name: string, folder: string): Promise<void> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && CODE_FILE.test(entry.name) && !entry.parentPath.includes('node_modules'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  hash.update(`${name}\u0000`);
  for (const file of files) {
    hash.update(`${file.slice(folder.length)}\u0000`);
    hash.update(await readFile(file));
  }
}
