/**
 * `kit validate` over the three Laravel versions (297 pages), cold (no `.kit/cache/validate`) and
 * cached, against the goal (cold under 5 s on a 2-core machine; 3 s the stretch) and against bare micromark + GFM
 * parsing of the same pages on one thread, measured in the same run. Run after `pnpm build`:
 *
 *   npx tsx --conditions=kit-source bench/validate/index.ts   (ROUNDS=n for more rounds; default 3)
 *
 * Each validate run is the built binary in a fresh process (`node packages/cli/bin/kit.js validate
 * --json`), as a user runs it, on a project set up like the reference server's Laravel set
 * (`html_input: 'allow'`, server search). A round times, in turn: the bare parse (in this process),
 * a cold run on every core (the default `--jobs`), a cached run, and a cold run with `--jobs 1`
 * (the one-thread figure the worker pool is measured against; both render without the article
 * HTML, which validation never reads). The order rotates from round to round. Medians are
 * printed, wall time and CPU time (user + system of every thread, read with GNU `/usr/bin/time`):
 * on a machine shared with others the CPU time is the steadier of the two. Every run must print
 * the same report. The load average says how busy the (shared) machine was.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { LARAVEL_ROOT, LARAVEL_VERSIONS, laravelPages } from '../../packages/render/src/testing/laravel-corpus.js';
import { median, summary } from '../stats.js';

const GOAL_MS = 5_000;
const rounds = Number(process.env.ROUNDS ?? 3);
const repoRoot = resolve(import.meta.dirname, '../..');
const kitBin = join(repoRoot, 'packages/cli/bin/kit.js');
if (!existsSync(join(repoRoot, 'packages/node/dist/render-pool/render-worker.js'))) {
  console.error('bench/validate runs the built CLI: run `pnpm build` first.');
  process.exit(1);
}

const pages = LARAVEL_VERSIONS.flatMap((version) => laravelPages(version));
const project = await mkdtemp(join(tmpdir(), 'kit-bench-validate-'));
await writeFile(
  join(project, 'kit.config.mjs'),
  `export default { sets: { laravel: { route: { prefix: 'laravel' }, source: { path: ${JSON.stringify(LARAVEL_ROOT)} }, html_input: 'allow', search: { driver: 'server' } } } };\n`,
);
const cacheDir = join(project, '.kit');

function bare(): number {
  const start = performance.now();
  for (const page of pages)
    micromark(page.body, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
  return performance.now() - start;
}

/** GNU time, to read the CPU time (user + system, every thread) of each run; wall time only without it. */
const GNU_TIME = '/usr/bin/time';
const cpuTimed = existsSync(GNU_TIME);
const cpuFile = join(project, 'cpu.txt');

/**
 * Wall time and CPU time (user + system of the process and its threads) of one `kit validate
 * --json`, and the report it printed. On a machine shared with others the CPU time is the steadier
 * figure: waiting for a core adds to the wall time only.
 */
function validate(args: string[]): Promise<{ ms: number; cpuMs: number | null; report: string }> {
  return new Promise((done, fail) => {
    const start = performance.now();
    const command = [process.execPath, kitBin, 'validate', '--json', ...args];
    const child = cpuTimed
      ? spawn(GNU_TIME, ['-f', '%U %S', '-o', cpuFile, ...command], {
          cwd: project,
          env: { ...process.env, NO_COLOR: '1' },
          stdio: ['ignore', 'pipe', 'inherit'],
        })
      : spawn(command[0]!, command.slice(1), {
          cwd: project,
          env: { ...process.env, NO_COLOR: '1' },
          stdio: ['ignore', 'pipe', 'inherit'],
        });
    let report = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      report += chunk;
    });
    child.on('error', fail);
    child.on('close', async (code) => {
      const ms = performance.now() - start;
      if (code !== 0 && code !== 1) {
        fail(new Error(`kit validate exited with ${code}`));
        return;
      }
      let cpuMs: number | null = null;
      if (cpuTimed) {
        // The last line: GNU time puts a note about a non-zero exit above it.
        const line = (await readFile(cpuFile, 'utf8')).trim().split('\n').at(-1) ?? '';
        const [user, system] = line.split(' ').map(Number);
        if (Number.isFinite(user) && Number.isFinite(system)) cpuMs = ((user as number) + (system as number)) * 1000;
      }
      done({ ms, cpuMs, report });
    });
  });
}

const times = { bare: [] as number[], cold: [] as number[], cached: [] as number[], serial: [] as number[] };
/** CPU time (user + system) of the same runs. */
const cpu = { cold: [] as number[], cached: [] as number[], serial: [] as number[] };
const keepCpu = (list: number[], ms: number | null) => {
  if (ms !== null) list.push(ms);
};
const reports = new Set<string>();
type Step = 'bare' | 'cold' | 'serial';
const steps: Record<Step, () => Promise<void>> = {
  bare: async () => {
    times.bare.push(bare());
  },
  cold: async () => {
    await rm(cacheDir, { recursive: true, force: true });
    const cold = await validate([]);
    // Right after the cold run, so the cache it wrote is the one read.
    const cached = await validate([]);
    times.cold.push(cold.ms);
    times.cached.push(cached.ms);
    keepCpu(cpu.cold, cold.cpuMs);
    keepCpu(cpu.cached, cached.cpuMs);
    reports.add(cold.report).add(cached.report);
  },
  serial: async () => {
    await rm(cacheDir, { recursive: true, force: true });
    const serial = await validate(['--jobs', '1']);
    times.serial.push(serial.ms);
    keepCpu(cpu.serial, serial.cpuMs);
    reports.add(serial.report);
  },
};

// Warm-up: the disk cache holds the corpus and the bare parser is compiled before anything counts.
bare();
await validate(['--no-cache']);

const loads: number[] = [];
const order: Step[] = ['bare', 'cold', 'serial'];
try {
  for (let round = 0; round < rounds; round++) {
    for (let step = 0; step < order.length; step++) await steps[order[(round + step) % order.length] as Step]();
    loads.push(loadavg()[0] as number);
  }
} finally {
  await rm(project, { recursive: true, force: true });
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const bareMs = median(times.bare);
const coldMs = median(times.cold);
const cachedMs = median(times.cached);
const serialMs = median(times.serial);
/** `, 4.10 s CPU` (user + system, every thread), or nothing without GNU time. */
const cpuOf = (list: number[]) => (list.length > 0 ? `, ${seconds(median(list))} CPU` : '');

console.log(
  `pages: ${pages.length} (${LARAVEL_VERSIONS.join(', ')}), ${rounds} rounds, medians; load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} on ${availableParallelism()} cores`,
);
console.log(`bare micromark+GFM, one thread:  ${seconds(bareMs)}`);
console.log(
  `kit validate, cold (every core): ${seconds(coldMs)} wall${cpuOf(cpu.cold)} = ${(coldMs / GOAL_MS).toFixed(2)}x the 5 s goal (goal < 1), ${(coldMs / bareMs).toFixed(2)}x bare`,
);
console.log(
  `kit validate, cold, --jobs 1:    ${seconds(serialMs)} wall${cpuOf(cpu.serial)} = ${(serialMs / bareMs).toFixed(2)}x bare; every core is ${(serialMs / coldMs).toFixed(2)}x faster`,
);
console.log(
  `kit validate, cached:            ${seconds(cachedMs)} wall${cpuOf(cpu.cached)} = ${(cachedMs / GOAL_MS).toFixed(2)}x the goal, ${(coldMs / cachedMs).toFixed(1)}x faster than cold`,
);
const load = `load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`;
summary({
  bench: 'validate',
  measure: `kit validate cold, Laravel 3 versions (${load})`,
  value: `${seconds(coldMs)} wall${cpuOf(cpu.cold)}`,
  baseline: `bare micromark+GFM, one thread ${seconds(bareMs)}`,
  ratio: `${(coldMs / bareMs).toFixed(2)}x`,
  goal: '< 5 s (stretch 3 s)',
});
summary({
  bench: 'validate',
  measure: 'kit validate cold, --jobs 1',
  value: `${seconds(serialMs)} wall${cpuOf(cpu.serial)}`,
  baseline: `bare ${seconds(bareMs)}`,
  ratio: `${(serialMs / bareMs).toFixed(2)}x`,
  goal: '-',
});
summary({
  bench: 'validate',
  measure: 'kit validate warm (.kit/cache/validate)',
  value: `${seconds(cachedMs)} wall${cpuOf(cpu.cached)}`,
  baseline: `cold ${seconds(coldMs)}`,
  ratio: `${(cachedMs / coldMs).toFixed(2)}x`,
  goal: '-',
});
if (reports.size !== 1) {
  console.error(`The runs printed ${reports.size} different reports; every run must print the same.`);
  process.exitCode = 1;
}
