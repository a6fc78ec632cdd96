/**
 * Runs the benches that measure what users feel (issue #21) one after the other and prints their
 * figures in one table, each beside the baseline it was measured against in the same run and its
 * goal. Run after `pnpm build` (validate and start run the built CLI):
 *
 *   pnpm bench:all                      (every bench below)
 *   pnpm bench:all validate start       (only these)
 *
 * Each bench runs in its own process as it runs alone, with its own options from the environment
 * (ROUNDS, WRITES) or the defaults below, and hands its rows over through a file named by
 * `KIT_BENCH_SUMMARY` (`summary()` in bench/stats.ts). A bench that fails is named under the table
 * and makes the exit code 1; the others still report.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { SummaryRow } from './stats.js';

const BENCHES: Record<string, string[]> = {
  validate: ['bench/validate/index.ts'],
  start: ['bench/start/index.ts'],
  'after-write': ['bench/validate/after-write.ts'],
  // Throughput only: the server's own cold start is reported by bench/serve run alone.
  serve: ['bench/serve/index.ts', '--starts', '0'],
};

const repoRoot = resolve(import.meta.dirname, '..');
const chosen = process.argv.slice(2).filter((name) => !name.startsWith('-'));
const unknown = chosen.filter((name) => !(name in BENCHES));
if (unknown.length > 0) {
  console.error(`Unknown bench ${unknown.join(', ')}: pick from ${Object.keys(BENCHES).join(', ')}.`);
  process.exit(2);
}
const names = chosen.length > 0 ? chosen : Object.keys(BENCHES);

const dir = await mkdtemp(join(tmpdir(), 'kit-bench-report-'));
const file = join(dir, 'rows.jsonl');
const failed: string[] = [];
const loads: number[] = [loadavg()[0] as number];
try {
  for (const name of names) {
    console.log(`\n== bench ${name}`);
    const code = await new Promise<number | null>((done) => {
      const child = spawn(process.execPath, ['--conditions=kit-source', '--import', 'tsx', ...BENCHES[name]!], {
        cwd: repoRoot,
        env: { ...process.env, KIT_BENCH_SUMMARY: file },
        stdio: 'inherit',
      });
      child.on('close', done);
    });
    if (code !== 0) failed.push(`${name} (exit code ${code})`);
    loads.push(loadavg()[0] as number);
  }
  const rows = (await readFile(file, 'utf8').catch(() => ''))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as SummaryRow);
  console.log(
    `\nAll figures (load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} on ${availableParallelism()} cores; each ratio against a baseline of the same run):\n`,
  );
  console.log('| bench | measure | figure | baseline (same run) | ratio | goal |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const row of rows) {
    console.log(`| ${row.bench} | ${row.measure} | ${row.value} | ${row.baseline} | ${row.ratio} | ${row.goal} |`);
  }
  if (failed.length > 0) {
    console.error(`\nFailed: ${failed.join(', ')}`);
    process.exitCode = 1;
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
