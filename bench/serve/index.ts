/**
 * Serving speed of Kit with the Laravel docs, as ratios against raw `node:http` writing the same
 * precomputed bytes, measured in the same run (goal: 0.85x), for the page and its Markdown twin,
 * each without Accept-Encoding (curl, many HTTP libraries and agents) and with gzip, and each for
 * three readers: a guest of the public set (the reference server), and a guest and a signed-in
 * reader of a set with a private version (whose pages differ between them). Then the cold start of
 * `apps/server` to the first 200 of /laravel (goal: under 1 s), both as `pnpm start` runs it
 * (TypeScript through tsx) and as `pnpm start:prod` runs the build (`node dist/src/main.js`; run
 * `pnpm build` first, else that row is skipped). Each start also times the first search, asked
 * right after the first page, while the server still prepares the search index in the background.
 * The timed starts find what earlier starts kept in `apps/server/.kit/cache` (the built reader
 * assets, the docs set's git history), as every start after the first does on a developer's
 * machine; one more start per path with those entries removed shows the first start of a fresh
 * clone.
 *
 *   npx tsx --conditions=kit-source bench/serve/index.ts [--duration 5] [--connections 10] [--starts 3] [--only gzip] [--profile dir]
 *
 * The servers run in a child process (bench/serve/servers.ts) and autocannon loads them from this
 * one over loopback, all the same way: same connections, warm-up, then the same duration. A bare
 * one-route Hono app serving the same bytes is measured beside them, to show how much of the gap
 * is Hono's own. Each ratio is the median of the ratios of turns taken a second apart.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import type { BenchCase } from './servers.js';
import { median, summary } from '../stats.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const duration = option('duration', 5);
const connections = option('connections', 10);
const starts = option('starts', 3);
/** Only the cases whose name contains this text (`--only gzip`, `--only "signed in"`). */
const only = args.includes('--only') ? args[args.indexOf('--only') + 1]! : '';
const repoRoot = resolve(import.meta.dirname, '../..');
const nodeArgs = ['--conditions=kit-source', '--import', 'tsx'];

interface Servers {
  kit: Record<BenchCase['set'], string>;
  raw: string;
  bareHono: string;
  cases: BenchCase[];
}

function startServers(): Promise<{ child: ChildProcess; servers: Servers }> {
  // `--profile <dir>`: a CPU profile of the servers' process, written when the bench ends.
  const profile = args.includes('--profile')
    ? ['--cpu-prof', `--cpu-prof-dir=${args[args.indexOf('--profile') + 1]}`]
    : [];
  const child = spawn(process.execPath, [...profile, ...nodeArgs, resolve(import.meta.dirname, 'servers.ts')], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((done, fail) => {
    child.once('exit', (code) => fail(new Error(`bench/serve/servers.ts exited with ${code} before it was ready.`)));
    createInterface({ input: child.stdout! }).once('line', (line) => done({ child, servers: JSON.parse(line) }));
  });
}

interface Target {
  url: string;
  headers: Record<string, string>;
}

async function load(target: Target, seconds: number) {
  const result = await autocannon({
    url: target.url,
    headers: target.headers,
    connections,
    duration: seconds,
    pipelining: 1,
  });
  return {
    requests: result.requests.total,
    seconds: result.duration,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/**
 * Each server gets the same total time, in one-second slices taken in turns (order swapped every
 * round), so load from elsewhere on a shared machine falls on both alike. `slices` are the
 * requests per second of each turn, for ratios taken turn by turn (see pairedRatio).
 */
async function compare(
  urls: Record<string, Target>,
): Promise<Record<string, { rps: number; p99: number; errors: number; slices: number[] }>> {
  const names = Object.keys(urls);
  for (const name of names) await load(urls[name]!, 2);
  const totals = Object.fromEntries(
    names.map((name) => [name, { requests: 0, seconds: 0, p99: 0, errors: 0, slices: [] as number[] }]),
  );
  for (let round = 0; round < duration; round++) {
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      const slice = await load(urls[name]!, 1);
      const total = totals[name]!;
      total.requests += slice.requests;
      total.seconds += slice.seconds;
      total.p99 = Math.max(total.p99, slice.p99);
      total.errors += slice.errors;
      total.slices.push(slice.requests / slice.seconds);
    }
  }
  return Object.fromEntries(
    names.map((name) => {
      const total = totals[name]!;
      return [
        name,
        { rps: total.requests / total.seconds, p99: total.p99, errors: total.errors, slices: total.slices },
      ];
    }),
  );
}

/**
 * A server's speed against the baseline: the median over rounds of the ratio of their turns in
 * that round, which sit a second apart. On a shared 2-core machine the throughput of both swings
 * by 2x or more from one second to the next; a ratio of whole-run totals would carry whichever
 * turns a burst of other work fell on.
 */
function pairedRatio(server: number[], baseline: number[]): number {
  return median(server.map((rps, round) => rps / baseline[round]!));
}

async function throughput(servers: Servers): Promise<void> {
  console.log(
    `throughput: autocannon, ${connections} connections, 2 s warm-up, then ${duration} s per server in 1 s turns`,
  );
  const rows: string[] = [];
  for (const entry of servers.cases.filter((candidate) => candidate.name.includes(only))) {
    // Every server gets the header; only the raw ones read it, to pick the set's bytes.
    const headers = { ...entry.headers, 'x-bench-set': entry.set };
    const result = await compare({
      kit: { url: servers.kit[entry.set] + entry.path, headers },
      raw: { url: servers.raw + entry.path, headers },
      hono: { url: servers.bareHono + entry.path, headers },
    });
    const { kit, raw, hono } = result as Record<
      'kit' | 'raw' | 'hono',
      { rps: number; p99: number; errors: number; slices: number[] }
    >;
    const ratio = pairedRatio(kit.slices, raw.slices).toFixed(2);
    const honoRatio = pairedRatio(hono.slices, raw.slices).toFixed(2);
    const size = (entry.bytes / 1024).toFixed(1);
    const errors = kit.errors + raw.errors > 0 ? `  [errors: kit ${kit.errors}, raw ${raw.errors}]` : '';
    console.log(
      `  ${entry.name} ${entry.path} (${size} KB): kit ${kit.rps.toFixed(0)} req/s (p99 ${kit.p99} ms), ` +
        `raw node:http ${raw.rps.toFixed(0)} req/s (p99 ${raw.p99} ms) = ${ratio}x raw (goal >= 0.85x); ` +
        `bare Hono ${honoRatio}x raw${errors}`,
    );
    summary({
      bench: 'serve',
      measure: `${entry.name} ${entry.path}`,
      value: `${kit.rps.toFixed(0)} req/s`,
      baseline: `raw node:http ${raw.rps.toFixed(0)} req/s`,
      ratio: `${ratio}x`,
      goal: '>= 0.85x',
    });
    rows.push(
      `| ${entry.name} | ${size} KB | ${kit.rps.toFixed(0)} | ${raw.rps.toFixed(0)} | ${ratio}x | ${honoRatio}x |`,
    );
  }
  console.log('\n| case | bytes sent | kit req/s | raw node:http req/s | kit / raw | bare Hono / raw |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const row of rows) console.log(row);
  console.log('');
}

function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

interface ColdStart {
  firstPage: number;
  ready: number | null;
  /** From spawn to the answer of a search asked right after the first page. */
  firstSearch: number;
  /** The search after it, with the index built. */
  nextSearch: number;
}

/** How each start path runs apps/server: `pnpm start` (tsx, sources) and `pnpm start:prod` (the build). */
const START_PATHS = {
  dev: { args: [...nodeArgs, 'apps/server/src/main.ts'], label: 'pnpm start (tsx, TypeScript sources)' },
  built: { args: ['apps/server/dist/src/main.js'], label: 'pnpm start:prod (node, dist/ of every package)' },
} as const;

/** Spawn of apps/server with KIT_LARAVEL=1 to the first 200 of /laravel, then to its first search. */
async function coldStart(path: keyof typeof START_PATHS): Promise<ColdStart> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, START_PATHS[path].args, {
    cwd: repoRoot,
    env: { ...process.env, KIT_LARAVEL: '1', PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let ready: number | null = null;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (ready === null && line.includes('ready')) ready = performance.now() - started;
  });
  try {
    let firstPage = 0;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`apps/server (${path}) exited with ${child.exitCode}.`);
      if (performance.now() - started > 60_000) throw new Error('No 200 from /laravel within 60 s.');
      const status = await fetch(`http://127.0.0.1:${port}/laravel`).then(
        async (response) => {
          await response.arrayBuffer();
          return response.status;
        },
        () => 0,
      );
      if (status === 200) {
        firstPage = performance.now() - started;
        break;
      }
      if (status !== 0) throw new Error(`/laravel answered ${status}.`);
      await new Promise((next) => setTimeout(next, 5));
    }
    const search = await fetch(`http://127.0.0.1:${port}/laravel/_kit/search?q=eloquent+relationships`);
    const { results } = (await search.json()) as { results: unknown[] };
    if (search.status !== 200 || results.length === 0) throw new Error(`The first search answered ${search.status}.`);
    const firstSearch = performance.now() - started;
    const again = performance.now();
    await fetch(`http://127.0.0.1:${port}/laravel/_kit/search?q=queued+listeners`).then((response) => response.json());
    return { firstPage, ready, firstSearch, nextSearch: performance.now() - again };
  } finally {
    child.kill('SIGTERM');
    await new Promise((done) => (child.exitCode !== null ? done(null) : child.once('exit', done)));
  }
}

/** Spawn to exit of `node --import tsx` running nothing: the runtime's own share of every start. */
async function runtimeBoot(): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, '--input-type=module', '--eval', ''], {
    cwd: repoRoot,
    stdio: 'ignore',
  });
  await new Promise((done) => child.once('exit', done));
  return performance.now() - started;
}

if (duration > 0) {
  const { child, servers } = await startServers();
  try {
    await throughput(servers);
  } finally {
    child.kill('SIGTERM');
  }
}

const paths = (Object.keys(START_PATHS) as Array<keyof typeof START_PATHS>).filter((path) => {
  if (path === 'built' && !existsSync(resolve(repoRoot, 'apps/server/dist/src/main.js'))) {
    console.log('cold start (built): skipped; run `pnpm build` first to measure `pnpm start:prod`.');
    return false;
  }
  return true;
});
/** What a start keeps for the next one (see apps/server's `.kit/cache`): removed for the fresh-clone start. */
function clearStartCaches(): void {
  for (const entry of ['reader-assets', 'git']) {
    rmSync(resolve(repoRoot, 'apps/server/.kit/cache', entry), { recursive: true, force: true });
  }
}

const fresh = new Map<keyof typeof START_PATHS, ColdStart>();
if (starts > 0) {
  for (const path of paths) {
    clearStartCaches();
    fresh.set(path, await coldStart(path));
  }
}
const runs = new Map<keyof typeof START_PATHS, ColdStart[]>(paths.map((path) => [path, []]));
const boots: number[] = [];
for (let run = 0; run < starts; run++) {
  // Interleaved, so load from elsewhere on a shared machine falls on both paths alike.
  for (const path of paths) runs.get(path)!.push(await coldStart(path));
  boots.push(await runtimeBoot());
}
if (starts === 0) process.exit(0);
for (const [path, list] of runs) {
  const firsts = list.map((run) => run.firstPage);
  const searches = list.map((run) => run.firstSearch);
  console.log(
    `cold start, ${START_PATHS[path].label}: spawn (KIT_LARAVEL=1) to the first 200 of /laravel, ${starts} runs`,
  );
  console.log(
    `  runs: ${list.map((run) => `${run.firstPage.toFixed(0)} ms (listening at ${run.ready?.toFixed(0) ?? '?'} ms)`).join(', ')}`,
  );
  console.log(
    `  median ${median(firsts).toFixed(0)} ms, best ${Math.min(...firsts).toFixed(0)} ms (goal < 1000 ms) = ${(median(firsts) / 1000).toFixed(2)}x goal`,
  );
  const first = fresh.get(path);
  if (first) {
    console.log(
      `  with an empty .kit/cache (a fresh clone's first start, building the reader assets): ${first.firstPage.toFixed(0)} ms (listening at ${first.ready?.toFixed(0) ?? '?'} ms)`,
    );
  }
  console.log(
    `  first search, asked right after the first page: answered at median ${median(searches).toFixed(0)} ms from spawn (runs: ${searches.map((value) => value.toFixed(0)).join(', ')} ms); the next one took median ${median(list.map((run) => run.nextSearch)).toFixed(0)} ms`,
  );
}
console.log(
  `  of which node + tsx starting up with nothing to run (dev path only): median ${median(boots).toFixed(0)} ms (runs: ${boots.map((boot) => boot.toFixed(0)).join(', ')} ms)`,
);
