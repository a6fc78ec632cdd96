/**
 * Moves every name another package imports from `@kit/core` that the public entry
 * (`src/index.ts`) does not export to an import from `@kit/core/internal`, in `packages/*` (core's
 * own entries aside), `apps/`, `bench/` and `tests/`. A branch that still imports an internal name
 * from `@kit/core` runs it once after merging: `pnpm --filter @kit/core exec tsx
 * scripts/split-core-imports.ts`, then `pnpm format`.
 *
 * It reads the public names through the TypeScript 5.9 compiler API (`typescript-api`), as
 * `src/index.test.ts` does.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript-api';

const repoRoot = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const coreSrc = join(repoRoot, 'packages', 'core', 'src');

function publicNames(): Set<string> {
  const file = join(coreSrc, 'index.ts');
  const program = ts.createProgram([file], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
    skipLibCheck: true,
    resolveJsonModule: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
  return new Set(checker.getExportsOfModule(module).map((symbol) => symbol.name));
}

function sourceFiles(dir: string, into: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(path, into);
    else if (/\.[cm]?tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) into.push(path);
  }
  return into;
}

type Specifier = ts.ImportSpecifier | ts.ExportSpecifier;

/** The named specifiers of an `import {…}` or `export {…}` from `@kit/core`, with its keyword. */
function coreSpecifiers(statement: ts.Statement): { keyword: string; elements: readonly Specifier[] } | null {
  if (ts.isImportDeclaration(statement)) {
    const clause = statement.importClause;
    const bindings = clause?.namedBindings;
    if (!ts.isStringLiteral(statement.moduleSpecifier) || statement.moduleSpecifier.text !== '@kit/core') return null;
    if (!clause || clause.name || !bindings || !ts.isNamedImports(bindings)) return null;
    return { keyword: clause.isTypeOnly ? 'import type' : 'import', elements: bindings.elements };
  }
  if (ts.isExportDeclaration(statement)) {
    const from = statement.moduleSpecifier;
    if (!from || !ts.isStringLiteral(from) || from.text !== '@kit/core') return null;
    if (!statement.exportClause || !ts.isNamedExports(statement.exportClause)) return null;
    return { keyword: statement.isTypeOnly ? 'export type' : 'export', elements: statement.exportClause.elements };
  }
  return null;
}

/** The file's text with internal names moved to `@kit/core/internal`, or null when nothing moves. */
function rewrite(path: string, text: string, publicApi: Set<string>): string | null {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const edits: { start: number; end: number; text: string }[] = [];
  for (const statement of source.statements) {
    const found = coreSpecifiers(statement);
    if (!found) continue;
    const isPublic = (element: Specifier) => publicApi.has((element.propertyName ?? element.name).text);
    const moved = found.elements.filter((element) => !isPublic(element));
    if (moved.length === 0) continue;
    const kept = found.elements.filter(isPublic);
    const line = (list: readonly Specifier[], from: string) =>
      `${found.keyword} { ${list.map((element) => element.getText()).join(', ')} } from '${from}';`;
    const lines = kept.length
      ? [line(kept, '@kit/core'), line(moved, '@kit/core/internal')]
      : [line(moved, '@kit/core/internal')];
    edits.push({ start: statement.getStart(), end: statement.getEnd(), text: lines.join('\n') });
  }
  if (edits.length === 0) return null;
  let next = text;
  for (const edit of edits.reverse()) next = next.slice(0, edit.start) + edit.text + next.slice(edit.end);
  return next;
}

const publicApi = publicNames();
const files = ['packages', 'apps', 'bench', 'tests'].flatMap((folder) => sourceFiles(join(repoRoot, folder)));
let changed = 0;
for (const path of files) {
  if (path === join(coreSrc, 'index.ts') || path === join(coreSrc, 'internal.ts')) continue;
  const text = readFileSync(path, 'utf8');
  if (!text.includes("'@kit/core'")) continue;
  const next = rewrite(path, text, publicApi);
  if (next === null) continue;
  writeFileSync(path, next);
  changed += 1;
}
console.log(`${changed} files now import internal names from @kit/core/internal.`);
