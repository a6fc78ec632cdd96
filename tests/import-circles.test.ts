// No module of ours imports itself back through others: a circle makes a room impossible to lift
// out and breaks evaluation order the day one import stops being lazy or type-only. Every import
// counts (static, `export … from`, `import type`, lazy `import()`); an edge may stay in a circle
// only when the line above it says why, with a comment starting `import-circle:`.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { handWrittenModules, repoRoot } from './support/modules.js';

const root = repoRoot;

// `from './x.js'`, `import './x.js'`, `import('./x.js')`, over several lines too.
const importPattern = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;

/** The file a relative specifier names: `./x.js` is `./x.ts`, a folder is its index. */
function resolveSpecifier(fromFile: string, specifier: string): string | undefined {
  const target = resolve(dirname(fromFile), specifier);
  const candidates = [
    target.replace(/\.js$/, '.ts'),
    target.replace(/\.mjs$/, '.mts'),
    target,
    `${target}.ts`,
    join(target, 'index.ts'),
  ];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

type Edge = { to: string; explained: boolean };

/** Where the statement holding position `at` begins: its line, or the `import`/`export` above it. */
function statementStart(text: string, at: number): number {
  const lineStart = text.lastIndexOf('\n', at) + 1;
  if (/^\s*(import|export)\b/.test(text.slice(lineStart, at))) return lineStart;
  const head = text.slice(0, at);
  const opener = Math.max(head.lastIndexOf('\nimport '), head.lastIndexOf('\nexport '));
  return opener < 0 ? lineStart : opener + 1;
}

function lineAbove(text: string, lineStart: number): string {
  if (lineStart === 0) return '';
  return text.slice(text.lastIndexOf('\n', lineStart - 2) + 1, lineStart - 1);
}

function importGraph(files: string[]): Map<string, Edge[]> {
  const graph = new Map<string, Edge[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const edges: Edge[] = [];
    for (const match of text.matchAll(importPattern)) {
      const to = resolveSpecifier(file, match[1]!);
      if (!to || to === file) continue;
      edges.push({ to, explained: /import-circle:/.test(lineAbove(text, statementStart(text, match.index))) });
    }
    graph.set(file, edges);
  }
  return graph;
}

/** Strongly connected components of more than one file (Tarjan), unexplained edges only. */
function circles(graph: Map<string, Edge[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (file: string) => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const edge of graph.get(file) ?? []) {
      if (edge.explained || !graph.has(edge.to)) continue;
      if (!index.has(edge.to)) {
        visit(edge.to);
        low.set(file, Math.min(low.get(file)!, low.get(edge.to)!));
      } else if (onStack.has(edge.to)) {
        low.set(file, Math.min(low.get(file)!, index.get(edge.to)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(relative(root, member));
    } while (member !== file);
    if (component.length > 1) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe('import circles', () => {
  const graph = importGraph(handWrittenModules());

  it('reads the modules of every package and app', () => {
    expect(graph.size).toBeGreaterThan(300);
    expect([...graph.values()].flat().length).toBeGreaterThan(1000);
  });

  it('finds a circle where there is one (the check itself works)', () => {
    const a = join(root, 'a.ts');
    const b = join(root, 'b.ts');
    const c = join(root, 'c.ts');
    const loop = new Map<string, Edge[]>([
      [a, [{ to: b, explained: false }]],
      [b, [{ to: c, explained: false }]],
      [c, [{ to: a, explained: false }]],
    ]);
    expect(circles(loop)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    loop.set(c, [{ to: a, explained: true }]);
    expect(circles(loop)).toEqual([]);
  });

  it('has no module that imports itself back, lazily or for types only', () => {
    expect(circles(graph)).toEqual([]);
  });
});
