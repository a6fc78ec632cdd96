// Small rooms (style.md, "Size and shape"): a hand-written module holds one concern and fits in a
// reader's head, about 600 lines at most. Tests, generated files and fixtures are exempt; so is a
// data file listed below with the reason it is data. Functions have their own limit, Biome's
// `complexity/noExcessiveLinesPerFunction` in biome.json, which `pnpm lint` checks.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const MAX_LINES = 600;

/** Data, not logic: path → why it may be longer. */
const dataFiles: Record<string, string> = {};

const root = resolve(import.meta.dirname, '..');

function handWrittenModules(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (name === 'node_modules' || name === '__fixtures__' || name === 'dist') return [];
    if (statSync(full).isDirectory()) return handWrittenModules(full);
    return /\.(ts|mts)$/.test(name) && !/\.(test|d|generated)\.ts$/.test(name) ? [full] : [];
  });
}

const modules = ['packages', 'apps'].flatMap((group) =>
  readdirSync(join(root, group)).flatMap((name) =>
    ['src', 'client', 'scripts']
      .map((dir) => join(root, group, name, dir))
      .filter((dir) => existsSync(dir))
      .flatMap(handWrittenModules),
  ),
);

describe('file sizes', () => {
  it('reads every hand-written module', () => {
    expect(modules.length).toBeGreaterThan(300);
  });

  it(`keeps every hand-written module within ${MAX_LINES} lines`, () => {
    const over = modules
      .map((file) => ({ file: relative(root, file), lines: readFileSync(file, 'utf8').split('\n').length }))
      .filter(({ file, lines }) => lines > MAX_LINES && !(file in dataFiles))
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(over).toEqual([]);
  });

  it('lists only data files that exist', () => {
    expect(Object.keys(dataFiles).filter((file) => !existsSync(join(root, file)))).toEqual([]);
  });
});
