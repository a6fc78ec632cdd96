import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// The test data (the MIT-licensed Laravel corpus) ships in tests/data, so a clone of the repository
// alone passes; KIT_SHARED_DIR points the tests at another copy with the same layout.
const sharedDir = process.env.KIT_SHARED_DIR ?? resolve(import.meta.dirname, 'tests', 'data');

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
    // Sized for a 2-core machine shared with other work (CI's): the same checks, more time to reach them.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // expect.poll waits for something asynchronous to happen (a browser's scroll handling, a file a
    // watcher saw): 1 s, vitest's default, is short on a loaded 2-core machine. Still a wait, never
    // a bound on speed: a poll that is never satisfied fails.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    // Two files at once even on two cores: most files wait on processes, PostgreSQL or Chromium, and
    // each keeps to its own schema, port and directory. KIT_TEST_WORKERS sets another count.
    maxWorkers: Number(process.env.KIT_TEST_WORKERS) || Math.max(2, availableParallelism() - 1),
    // CI asks for a JSON report to print its closing `N passed, N failed` line.
    reporters: process.env.KIT_VITEST_JSON ? ['default', 'json'] : ['default'],
    outputFile: process.env.KIT_VITEST_JSON ? { json: process.env.KIT_VITEST_JSON } : undefined,
  },
});
