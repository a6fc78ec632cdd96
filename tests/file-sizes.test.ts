// Small rooms (style.md, "Size and shape"): a hand-written module holds one concern and fits in a
// reader's head, about 600 lines at most. Tests, generated files and fixtures are exempt; so is a
// data file listed below with the reason it is data. Functions have their own limit, Biome's
// `complexity/noExcessiveLinesPerFunction` in biome.json, which `pnpm lint` checks.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { handWrittenModules, repoRoot } from './support/modules.js';

const MAX_LINES = 600;

/** Data, not logic: path → why it may be longer. */
const dataFiles: Record<string, string> = {};

const root = repoRoot;
const modules = handWrittenModules();

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
