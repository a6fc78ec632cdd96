import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The layers of typescript.md: a package may use only the packages listed for it.
const allowed: Record<string, string[]> = {
  core: [],
  render: ['core'],
  search: ['core'],
  'source-fs': ['core'],
  'source-db': ['core'],
  mcp: ['core'],
  ai: ['core'],
  'http-hono': ['core', 'render', 'search', 'mcp', 'ai'],
  node: ['core', 'render', 'search', 'source-fs', 'source-db', 'mcp', 'ai', 'http-hono'],
  cli: ['core', 'render', 'search', 'source-fs', 'source-db', 'mcp', 'ai', 'http-hono', 'node'],
};

const root = join(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mts)$/.test(name) ? [full] : [];
  });
}

describe('package layering', () => {
  for (const [name, mayUse] of Object.entries(allowed)) {
    it(`@kit/${name} depends only on ${mayUse.length ? mayUse.join(', ') : 'nothing of ours'}`, () => {
      const manifest = JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8'));
      const declared = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })
        .filter((dep) => dep.startsWith('@kit/'))
        .map((dep) => dep.slice('@kit/'.length));
      expect(declared.filter((dep) => !mayUse.includes(dep))).toEqual([]);

      const imported = new Set<string>();
      for (const file of sourceFiles(join(root, 'packages', name, 'src'))) {
        for (const match of readFileSync(file, 'utf8').matchAll(/from\s+['"]@kit\/([a-z-]+)/g)) {
          // Tests and their helpers (src/testing) may compose higher layers as devDependencies.
          if (!file.endsWith('.test.ts') && !file.includes('/testing/')) imported.add(match[1]!);
        }
      }
      expect([...imported].filter((dep) => dep !== name && !mayUse.includes(dep))).toEqual([]);
    });
  }
});
