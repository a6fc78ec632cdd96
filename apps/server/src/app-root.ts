import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder of the reference server's package.json, found by walking up from this module. The same
 * code runs from `src/` (through tsx) and from the build in `dist/src/`, so paths relative to the app
 * (`../site`, `.env`) cannot count folders from the module's own location.
 */
export function findAppRoot(from: string): string {
  for (let folder = from; ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'package.json'))) return folder;
    if (dirname(folder) === folder) {
      throw new Error(`No package.json above ${from}; run the reference server from inside apps/server.`);
    }
  }
}

/** apps/server, wherever this module was loaded from. */
export const APP_ROOT = findAppRoot(dirname(fileURLToPath(import.meta.url)));
