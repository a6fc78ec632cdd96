/**
 * Hostile page content: how long each construct of packages/http-hono/src/testing/hostile-pages.ts
 * takes to render cold, how much memory the render takes, and how long a light page waits when it
 * is asked for while the hostile page renders, all as ratios against a light page measured in the
 * same run. Run: `npx tsx --conditions=kit-source bench/hostile/index.ts` (`ROUNDS=n` renders
 * each page n times and keeps the best; the default is 3).
 *
 * Two pages per construct: the hostile one (past the complexity guard: it is answered as plain
 * text) and, where the guard has a limit, the largest page of the same shape it still renders. The
 * bound Kit documents (apps/site/guides/markdown.md) is that every page renders cold within about
 * ten times Laravel's largest page, measured here as well.
 *
 * Render time and memory: each page is rendered with a fresh renderer (nothing cached, code
 * highlighted, its grammar already loaded) after a full garbage collection; memory is the growth
 * of the resident set over the render. Meanwhile latency: the set is served over HTTP by a child
 * process (bench/hostile/server.ts); this process asks for the hostile page (cold, the first time
 * it is asked for) and 20 ms later for the light page (served from the page cache), and reports
 * the light page's wait against its median alone. Renders run on the server's event loop, so a
 * light page waits for a render in progress: the ratio shows how long.
 *
 * Render pool: the same wait while a heavy page (Laravel's largest page three times over, under
 * every limit) renders cold, on a server rendering on its event loop and on one rendering on a pool
 * of worker threads as `kit serve` does; `POOL_ONLY=1` measures only this.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parsePageFile, type RenderContext, type SourcePage } from '@kit/core';
import { createRenderer } from '@kit/render';
import { HOSTILE_CONSTRUCTS, LIGHT_PAGE } from '../../packages/http-hono/src/testing/hostile-pages.js';
import { laravelContext, laravelPages } from '../../packages/render/src/testing/laravel-corpus.js';
import { median } from '../stats.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
const rounds = Number(process.env.ROUNDS ?? 3);
const repoRoot = resolve(import.meta.dirname, '../..');

const context: RenderContext = laravelContext('13.x', { highlight: true });

function pageOf(path: string, text: string): SourcePage {
  const parsed = parsePageFile(text, `${path}.md`);
  return {
    path,
    version: '13.x',
    locale: 'en',
    frontmatter: parsed.frontmatter,
    body: parsed.body,
    title: parsed.title ?? path,
    contentHash: parsed.contentHash,
    bodyLine: parsed.bodyLine,
    file: `${path}.md`,
    visibility: parsed.visibility,
    problems: parsed.problems,
  };
}

interface Measured {
  ms: number;
  rssMb: number;
  degraded: boolean;
}

/** Best of `rounds` cold renders of the page file (split included), with the memory of the first. */
async function measureRender(path: string, text: string): Promise<Measured> {
  let best = Number.POSITIVE_INFINITY;
  let rssMb = 0;
  let degraded = false;
  for (let round = 0; round < rounds; round++) {
    collectGarbage();
    const before = process.memoryUsage().rss;
    const started = performance.now();
    const rendered = await createRenderer().render(pageOf(path, text), context);
    best = Math.min(best, performance.now() - started);
    if (round === 0) rssMb = (process.memoryUsage().rss - before) / 1024 / 1024;
    degraded = rendered.problems.some((problem) => problem.rule === 'markdown.complexity');
  }
  return { ms: best, rssMb, degraded };
}

function startServer(env: Record<string, string> = {}): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(
    process.execPath,
    ['--conditions=kit-source', '--import', 'tsx', resolve(import.meta.dirname, 'server.ts')],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } },
  );
  return new Promise((done, fail) => {
    child.once('exit', (code) => fail(new Error(`bench/hostile/server.ts exited with ${code} before it was ready.`)));
    createInterface({ input: child.stdout! }).once('line', (line) => done({ child, origin: JSON.parse(line).origin }));
  });
}

async function timedGet(url: string): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  return { ms: performance.now() - started, status: response.status };
}

const fixed = (value: number, digits = 0) => value.toFixed(digits);

// Warm-up: the render pipeline compiled and the JavaScript grammar loaded before anything is timed.
await createRenderer().render(pageOf('warm', '# Warm\n\n```js\nconst a = 1;\n```\n\n| a |\n| - |\n| b |\n'), context);
for (let index = 0; index < 3; index++) await measureRender('light', LIGHT_PAGE);

const light = await measureRender('light', LIGHT_PAGE);
const largest = laravelPages('13.x').sort((a, b) => b.body.length - a.body.length)[0] as SourcePage;
const laravel = await measureRender(largest.path, largest.body);

/**
 * The light page's wait while each heavy page renders cold, against its median alone, on a server
 * rendering on its event loop (`workers` 0) or on that many worker threads.
 */
async function heavyMeanwhile(workers: number, pages: number) {
  const server = await startServer({ BENCH_RENDER_WORKERS: String(workers), BENCH_HEAVY_PAGES: String(pages) });
  const url = `${server.origin}/docs/light`;
  try {
    const alone: number[] = [];
    for (let index = 0; index < 25; index++) alone.push((await timedGet(url)).ms);
    const waits: number[] = [];
    const heavy: number[] = [];
    for (let index = 1; index <= pages; index++) {
      const page = timedGet(`${server.origin}/docs/heavy/${index}`);
      await new Promise((next) => setTimeout(next, 20));
      const meanwhile = await timedGet(url);
      const served = await page;
      if (served.status !== 200 || meanwhile.status !== 200) {
        throw new Error(`heavy/${index} answered ${served.status}, the light page ${meanwhile.status}.`);
      }
      waits.push(meanwhile.ms);
      heavy.push(served.ms);
    }
    return { alone: median(alone), meanwhile: median(waits), heavy: median(heavy) };
  } finally {
    server.child.kill();
  }
}

const heavyRounds = Number(process.env.HEAVY_ROUNDS ?? 3);
const onLoop = await heavyMeanwhile(0, heavyRounds);
const onPool = await heavyMeanwhile(2, heavyRounds);
const poolReport = [
  `A light page asked for while a heavy page (13.x/${largest.path} three times over, ${largest.body.length * 3} characters) renders cold; medians of ${heavyRounds}:`,
  '',
  '| server | heavy page served ms | light page alone ms | light page meanwhile ms | x light alone |',
  '| --- | ---: | ---: | ---: | ---: |',
  `| renders on the event loop | ${fixed(onLoop.heavy)} | ${fixed(onLoop.alone, 1)} | ${fixed(onLoop.meanwhile)} | ${fixed(onLoop.meanwhile / onLoop.alone, 1)}x |`,
  `| render pool, 2 workers | ${fixed(onPool.heavy)} | ${fixed(onPool.alone, 1)} | ${fixed(onPool.meanwhile)} | ${fixed(onPool.meanwhile / onPool.alone, 1)}x |`,
  '',
  `With the pool the light page waits ${fixed(onLoop.meanwhile / onPool.meanwhile, 1)}x less.`,
  '',
].join('\n');
if (process.env.POOL_ONLY) {
  console.log(
    `Load average ${loadavg()
      .map((load) => fixed(load, 2))
      .join(' ')}.\n`,
  );
  console.log(poolReport);
  process.exit(0);
}

const { child, origin } = await startServer();
const lightUrl = `${origin}/docs/light`;
try {
  for (let index = 0; index < 5; index++) await timedGet(lightUrl);
  const alone = median(
    await Promise.all(Array.from({ length: 1 }, () => timedGet(lightUrl))).then(async (first) => {
      const all = first.map((entry) => entry.ms);
      for (let index = 0; index < 20; index++) all.push((await timedGet(lightUrl)).ms);
      return all;
    }),
  );

  const rows: string[] = [];
  const row = async (name: string, family: string, kind: 'hostile' | 'limit', text: string) => {
    const render = await measureRender(`${kind}/${name}`, text);
    const page = timedGet(`${origin}/docs/${kind}/${name}`);
    await new Promise((next) => setTimeout(next, 20));
    const meanwhile = await timedGet(lightUrl);
    const served = await page;
    if (served.status !== 200 || meanwhile.status !== 200) {
      throw new Error(`${kind}/${name} answered ${served.status}, the light page ${meanwhile.status}.`);
    }
    rows.push(
      `| ${name} | ${family} | ${kind === 'hostile' ? 'hostile' : 'at limit'} | ${render.degraded ? 'plain text' : 'rendered'} | ${fixed(render.ms, 1)} | ${fixed(render.ms / light.ms)}x | ${fixed(render.ms / laravel.ms, 2)}x | ${fixed(render.rssMb)} | ${fixed(served.ms)} | ${fixed(meanwhile.ms)} | ${fixed(meanwhile.ms / alone, 1)}x |`,
    );
  };
  for (const construct of HOSTILE_CONSTRUCTS) {
    process.stderr.write(`${construct.name} `);
    await row(construct.name, construct.family, 'hostile', construct.hostile);
    if (construct.atLimit) await row(construct.name, construct.family, 'limit', construct.atLimit);
  }

  console.log(
    `Load average ${loadavg()
      .map((load) => fixed(load, 2))
      .join(' ')}; best of ${rounds} cold renders.`,
  );
  console.log(`Light page: cold render ${fixed(light.ms, 2)} ms; served alone (cached) median ${fixed(alone, 1)} ms.`);
  console.log(
    `Laravel's largest page (13.x/${largest.path}, ${largest.body.length} characters): cold render ${fixed(laravel.ms, 1)} ms = ${fixed(laravel.ms / light.ms)}x the light page.\n`,
  );
  console.log(
    '| construct | family | page | answer | render ms | x light render | x largest Laravel page | RSS growth MB | page served ms | light page meanwhile ms | x light alone |',
  );
  console.log('| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const line of rows) console.log(line);
  console.log(`\n${poolReport}`);
} finally {
  child.kill();
}
