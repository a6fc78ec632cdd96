import { join } from 'node:path';
import { isSecretSegment, isServableFileName } from '@kit/core/internal';
import type { SetFiles } from './file-reads.js';

/** Most entries one listing looks at: a set folder holding more is not a docs folder. */
const MAX_ENTRIES = 100_000;
/** Deepest folder a listing descends into. */
const MAX_DEPTH = 32;

/**
 * The static files of a set folder (`base`, links resolved): every file under it whose name the
 * site serves (`isServableFileName`: no dotfiles, Markdown, manifest, navigation files or
 * secret-looking names), relative to the folder and sorted. Folders that are links are not
 * followed (a link may lead outside the set, or in a loop); a file that is a link is listed, and
 * `openFile` still refuses it when it leads outside. Folders that can hold nothing servable
 * (dot folders, `node_modules`, `vendor`, `config`, ...) are skipped whole. Folders are read through
 * `disk` (the set's file pool): a folder that cannot be read is an error naming it, never a file
 * quietly left out.
 */
export async function listSetFiles(base: string | null, disk: SetFiles): Promise<string[]> {
  if (!base) return [];
  const names: string[] = [];
  let seen = 0;
  const walk = async (folder: string, depth: number): Promise<void> => {
    if (depth > MAX_DEPTH) return;
    const entries = (await disk.readdir(join(base, folder), folder === '' ? '.' : folder)) ?? [];
    for (const entry of entries) {
      if (++seen > MAX_ENTRIES) return;
      if (isSecretSegment(entry.name)) continue;
      const name = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) await walk(name, depth + 1);
      else if ((entry.isFile() || entry.isSymbolicLink()) && isServableFileName(name)) names.push(name);
    }
  };
  await walk('', 0);
  return names.sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
}
