/**
 * Time from start to the first answers of each version: `kit serve` and `kit mcp` over the three
 * Laravel versions (297 pages), started cold (no `.kit` folder: every page rendered, every
 * version's search index built from scratch) and warm (restarted on the `.kit/cache` the cold start
 * left: renders and search sections read back from `.kit/cache/store`, each version's built search
 * index loaded from `.kit/cache/search`), measured in the same run. Run after `pnpm build`:
 *
 *   npx tsx --conditions=kit-source bench/start/index.ts   (ROUNDS=n for more rounds; default 3)
 *
 * Each start is the built binary in a fresh process (`node packages/cli/bin/kit.js serve --port 0`),
 * as a user runs it, on a project set up like the reference server's Laravel set. As soon as it
 * listens, one request per version for a page (`/laravel/<version>/queues`, a long page) and one
 * `search_docs`-equivalent search (`/laravel/_kit/search?version=<version>`) are sent at once; each
 * answer is timed from the spawn. `kit serve` prepares every version in the background from the
 * moment it listens, so a search waits for the index being built, not for a second one. The
 * answers must be the same cold and warm. `kit mcp` is started the same way over stdio; as soon as
 * it has answered `initialize`, one `search_docs` call per version is sent at once, each answer
 * timed from the spawn. Medians are printed; the load average says how busy the (shared) machine was.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LARAVEL_ROOT, LARAVEL_VERSIONS } from '../../packages/render/src/testing/laravel-corpus.js';
import { median, summary } from '../stats.js';

const rounds = Number(process.env.ROUNDS ?? 3);
const repoRoot = resolve(import.meta.dirname, '../..');
const kitBin = join(repoRoot, 'packages/cli/bin/kit.js');
if (!existsSync(join(repoRoot, 'packages/cli/dist/bin.js'))) {
  console.error('bench/start runs the built CLI: run `pnpm build` first.');
  process.exit(1);
}

const project = await mkdtemp(join(tmpdir(), 'kit-bench-start-'));
await writeFile(
  join(project, 'kit.config.mjs'),
  `export default { sets: { laravel: { route: { prefix: 'laravel', link_prefix: 'docs' }, source: { path: ${JSON.stringify(LARAVEL_ROOT)} }, html_input: 'allow', search: { driver: 'server' } } } };\n`,
);
const cacheDir = join(project, '.kit');

interface Start {
  listenMs: number;
  /** Spawn to answer, per version. */
  pageMs: Record<string, number>;
  searchMs: Record<string, number>;
  /** What was answered, by request, to compare cold with warm. */
  answers: Record<string, string>;
}

function startServer(): Promise<{ child: ChildProcess; origin: string; startedAt: number; listenMs: number }> {
  return new Promise((done, fail) => {
    const startedAt = performance.now();
    const child = spawn(process.execPath, [kitBin, 'serve', '--port', '0'], {
      cwd: project,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const origin = /site\s+(http:\/\/[^/\s]+)/.exec(out)?.[1];
      if (origin && out.includes('Press Ctrl+C'))
        done({ child, origin, startedAt, listenMs: performance.now() - startedAt });
    });
    child.on('error', fail);
    child.on('exit', (code) => fail(new Error(`kit serve exited with ${code} before listening:\n${out}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  child.removeAllListeners('exit');
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
}

async function start(): Promise<Start> {
  const { child, origin, startedAt, listenMs } = await startServer();
  try {
    const timed = async (path: string) => {
      const response = await fetch(origin + path);
      // Absolute links carry the origin, whose port differs per start (`--port 0`).
      const body = (await response.text()).replaceAll(origin, 'http://kit.test');
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${body.slice(0, 200)}`);
      return { ms: performance.now() - startedAt, body };
    };
    const pageOf = (version: string) => `/laravel/${version}/queues.md`;
    const searchOf = (version: string) => `/laravel/_kit/search?q=retry+failed+jobs&version=${version}`;
    const [pages, searches] = await Promise.all([
      Promise.all(LARAVEL_VERSIONS.map((version) => timed(pageOf(version)))),
      Promise.all(LARAVEL_VERSIONS.map((version) => timed(searchOf(version)))),
    ]);
    return {
      listenMs,
      pageMs: Object.fromEntries(LARAVEL_VERSIONS.map((version, at) => [version, pages[at]!.ms])),
      searchMs: Object.fromEntries(LARAVEL_VERSIONS.map((version, at) => [version, searches[at]!.ms])),
      answers: Object.fromEntries(
        LARAVEL_VERSIONS.flatMap((version, at) => [
          [pageOf(version), pages[at]!.body],
          [searchOf(version), searches[at]!.body],
        ]),
      ),
    };
  } finally {
    await stop(child);
  }
}

/** `kit mcp` over stdio: spawn, `initialize`, then one `search_docs` per version at once. */
async function startMcp(): Promise<{ searchMs: Record<string, number>; answers: Record<string, string> }> {
  const startedAt = performance.now();
  const child = spawn(process.execPath, [kitBin, 'mcp'], {
    cwd: project,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const waiting = new Map<number, (message: { result?: unknown; error?: unknown }) => void>();
  let buffered = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end).trim();
      buffered = buffered.slice(end + 1);
      if (line === '') continue;
      const message = JSON.parse(line) as { id?: number; result?: unknown; error?: unknown };
      if (typeof message.id === 'number') waiting.get(message.id)?.(message);
    }
  });
  const exited = new Promise<never>((_, fail) =>
    child.once('exit', (code) => fail(new Error(`kit mcp exited with ${code} before answering`))),
  );
  let nextId = 0;
  const call = async (method: string, params: unknown) => {
    const id = ++nextId;
    const answered = new Promise<{ result?: unknown; error?: unknown }>((done) => waiting.set(id, done));
    child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    const message = await Promise.race([answered, exited]);
    if (message.error) throw new Error(`${method} failed: ${JSON.stringify(message.error)}`);
    return message.result;
  };
  try {
    await call('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'bench-start', version: '0' },
    });
    child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    const searches = await Promise.all(
      LARAVEL_VERSIONS.map(async (version) => {
        const result = (await call('tools/call', {
          name: 'search_docs',
          arguments: { query: 'retry failed jobs', version },
        })) as { isError?: boolean; content?: Array<{ text?: string }> };
        if (result.isError) throw new Error(`search_docs ${version}: ${result.content?.[0]?.text}`);
        return { ms: performance.now() - startedAt, body: JSON.stringify(result.content) };
      }),
    );
    return {
      searchMs: Object.fromEntries(LARAVEL_VERSIONS.map((version, at) => [version, searches[at]!.ms])),
      answers: Object.fromEntries(
        LARAVEL_VERSIONS.map((version, at) => [`search_docs ${version}`, searches[at]!.body]),
      ),
    };
  } finally {
    child.removeAllListeners('exit');
    const gone = new Promise((done) => child.once('exit', done));
    child.stdin!.end();
    child.kill('SIGTERM');
    await gone;
  }
}

const cold: Start[] = [];
const warm: Start[] = [];
const mcpCold: Array<Awaited<ReturnType<typeof startMcp>>> = [];
const mcpWarm: Array<Awaited<ReturnType<typeof startMcp>>> = [];
/** Requests whose answer differed between starts. */
const differed = new Set<string>();
const compare = (one: Record<string, string>, other: Record<string, string>) => {
  for (const [request, body] of Object.entries(one)) {
    if (other[request] === body) continue;
    differed.add(request);
    const at = [...body].findIndex((char, index) => other[request]?.[index] !== char);
    console.error(
      `${request} differs from character ${at}:\n  ${body.slice(at, at + 200)}\n  ${other[request]?.slice(at, at + 200)}`,
    );
  }
};
const loads: number[] = [];
try {
  for (let round = 0; round < rounds; round++) {
    await rm(cacheDir, { recursive: true, force: true });
    const first = await start();
    // Right after the cold start, so the cache it wrote is the one read.
    const second = await start();
    cold.push(first);
    warm.push(second);
    compare(first.answers, second.answers);
    if (cold.length > 1) compare(cold[0]!.answers, first.answers);
    await rm(cacheDir, { recursive: true, force: true });
    const firstMcp = await startMcp();
    const secondMcp = await startMcp();
    mcpCold.push(firstMcp);
    mcpWarm.push(secondMcp);
    compare(firstMcp.answers, secondMcp.answers);
    if (mcpCold.length > 1) compare(mcpCold[0]!.answers, firstMcp.answers);
    loads.push(loadavg()[0] as number);
  }
} finally {
  await rm(project, { recursive: true, force: true });
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

console.log(
  `kit serve, Laravel ${LARAVEL_VERSIONS.join(', ')}: ${rounds} rounds, medians, times from spawn; load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} on ${availableParallelism()} cores`,
);
const listenCold = median(cold.map((run) => run.listenMs));
const listenWarm = median(warm.map((run) => run.listenMs));
console.log(`listening:              cold ${seconds(listenCold)}, warm ${seconds(listenWarm)}`);
for (const version of LARAVEL_VERSIONS) {
  for (const [label, of] of [
    ['first page', (run: Start) => run.pageMs[version]!],
    ['first search', (run: Start) => run.searchMs[version]!],
  ] as const) {
    const coldMs = median(cold.map(of));
    const warmMs = median(warm.map(of));
    console.log(
      `${`${version} ${label}:`.padEnd(24)}cold ${seconds(coldMs)}, warm ${seconds(warmMs)} = ${(warmMs / coldMs).toFixed(2)}x cold`,
    );
    summary({
      bench: 'start',
      measure: `kit serve, ${version} ${label} from spawn, warm`,
      value: seconds(warmMs),
      baseline: `cold ${seconds(coldMs)}`,
      ratio: `${(warmMs / coldMs).toFixed(2)}x`,
      goal: 'warm rebuilds nothing',
    });
  }
}
const allCold = median(cold.map((run) => Math.max(...Object.values(run.searchMs), ...Object.values(run.pageMs))));
const allWarm = median(warm.map((run) => Math.max(...Object.values(run.searchMs), ...Object.values(run.pageMs))));
console.log(
  `every version answered:  cold ${seconds(allCold)}, warm ${seconds(allWarm)} = ${(allWarm / allCold).toFixed(2)}x cold`,
);
summary({
  bench: 'start',
  measure: `kit serve, every version answered (load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)})`,
  value: `warm ${seconds(allWarm)}`,
  baseline: `cold ${seconds(allCold)}`,
  ratio: `${(allWarm / allCold).toFixed(2)}x`,
  goal: '-',
});
console.log('kit mcp (stdio), first search_docs of each version, all sent once initialize is answered:');
for (const version of LARAVEL_VERSIONS) {
  const coldMs = median(mcpCold.map((run) => run.searchMs[version]!));
  const warmMs = median(mcpWarm.map((run) => run.searchMs[version]!));
  console.log(
    `${`${version} search_docs:`.padEnd(24)}cold ${seconds(coldMs)}, warm ${seconds(warmMs)} = ${(warmMs / coldMs).toFixed(2)}x cold`,
  );
  summary({
    bench: 'start',
    measure: `kit mcp, ${version} first search_docs from spawn, warm`,
    value: seconds(warmMs),
    baseline: `cold ${seconds(coldMs)}`,
    ratio: `${(warmMs / coldMs).toFixed(2)}x`,
    goal: 'warm rebuilds nothing',
  });
}
if (differed.size > 0) {
  console.error(
    `These answers differed between starts (cold and warm must answer the same): ${[...differed].join(', ')}`,
  );
  process.exitCode = 1;
}
