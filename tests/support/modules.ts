import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The repository root. */
export const repoRoot = resolve(import.meta.dirname, '../..');

function modulesBelow(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (name === 'node_modules' || name === '__fixtures__' || name === 'dist') return [];
    if (statSync(full).isDirectory()) return modulesBelow(full);
    return /\.(ts|mts)$/.test(name) && !/\.(test|d|generated)\.ts$/.test(name) ? [full] : [];
  });
}

/**
 * Every hand-written TypeScript module of the packages and apps (`src/`, `client/`, `scripts/`):
 * tests, declaration files, generated files and fixtures left out. The file-size and import-circle
 * checks read the same list.
 */
export function handWrittenModules(): string[] {
  return ['packages', 'apps'].flatMap((group) =>
    readdirSync(join(repoRoot, group)).flatMap((name) =>
      ['src', 'client', 'scripts']
        .map((dir) => join(repoRoot, group, name, dir))
        .filter((dir) => existsSync(dir))
        .flatMap(modulesBelow),
    ),
  );
}
