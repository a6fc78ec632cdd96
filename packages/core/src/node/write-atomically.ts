import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

let written = 0;

/**
 * Writes a file whole or not at all, creating its folder: the data goes to a temporary file
 * beside it, then a rename puts it in place, so another reader (or another process starting at
 * the same time) never sees half a file. The temporary name is unique per process and per call,
 * so concurrent writes of the same file never share one.
 *
 * @example
 * await writeFileAtomically('/srv/docs/.kit/cache/git/history.json', JSON.stringify(history));
 */
export async function writeFileAtomically(file: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${++written}.tmp`;
  await writeFile(temporary, data);
  await rename(temporary, file);
}
