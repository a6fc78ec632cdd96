import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// The shared data (the Laravel corpus, judged search questions) sits beside the repository.
const sharedDir = process.env.KIT_SHARED_DIR ?? resolve(import.meta.dirname, '..', 'shared');

// Workspace packages resolve to their TypeScript sources through the `kit-source` export condition,
// so tests never depend on a previous build.
export default defineConfig({
  resolve: { conditions: ['kit-source', 'import', 'default'] },
  // No explicit 'import' here: vitest hands these to Node as --conditions, and an 'import' condition
  // makes require() inside CommonJS packages (pg -> pg-pool) load their ESM wrappers and break.
  // Node and Vite add 'import' for import statements on their own.
  ssr: { resolve: { conditions: ['kit-source', 'default'], externalConditions: ['kit-source'] } },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'apps/*/src/**/*.test.ts',
      'apps/*/test/**/*.test.ts',
      'tests/**/*.test.ts',
    ],
    env: { KIT_SHARED_DIR: sharedDir },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // CI asks for a JSON report to print its closing `N passed, N failed` line.
    reporters: process.env.KIT_VITEST_JSON ? ['default', 'json'] : ['default'],
    outputFile: process.env.KIT_VITEST_JSON ? { json: process.env.KIT_VITEST_JSON } : undefined,
  },
});
