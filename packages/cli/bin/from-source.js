#!/usr/bin/env node
// Runs the `kit` command from its TypeScript sources (src/bin.ts through tsx, workspace packages
// from their sources by the `kit-source` condition), in a child process so that condition applies.
// `pnpm kit <command>` at the repository root runs this file; pnpm starts scripts in the root, so
// the folder the command was typed in comes from INIT_CWD, and `pnpm kit init` in a sub-folder
// writes there.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Runs `kit` from source in `cwd` with `args`, and exits with its code.
 * @param {string} cwd
 * @param {string[]} [args]
 */
export function runFromSource(cwd, args = process.argv.slice(2)) {
  const source = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
  if (!existsSync(source)) {
    process.stderr.write('kit: this copy of @kit/cli has neither dist/ nor src/; install it again.\n');
    process.exit(1);
  }
  const child = spawn(
    process.execPath,
    ['--conditions=kit-source', '--import', import.meta.resolve('tsx'), source, ...args],
    { cwd, stdio: 'inherit' },
  );
  const forward = (signal) => child.kill(signal);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, forward);
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? (signal ? 1 : 0);
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  runFromSource(process.env.INIT_CWD || process.cwd());
}
