/**
 * Render throughput over the Laravel corpus, as ratios against bare micromark + GFM parsing of the
 * same files in the same run. Run: `npx tsx --conditions=kit-source bench/render/index.ts`
 * (`ROUNDS=n` for more rounds; the default is 5).
 *
 * Fairness: both sides read the same pages from memory and are warmed up first. The corpus is cut
 * into slices of ten pages; every round renders each slice both ways back to back (alternating which
 * side goes first) with a fresh renderer per round, so the pipeline is cold the first time it sees
 * a slice and cached the second time. A full garbage collection starts each round.
 *
 * The machine is shared, so one busy moment can spoil a whole pass. The headline figure sums each
 * slice's best time over the rounds (the best of several, taken slice by slice); the best whole
 * round is printed beside it, and CPU time (all threads of the process) as a steadier check. The
 * load average says how busy the machine was.
 */
import { availableParallelism, loadavg } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { SourcePage } from '@kit/core';
import { createRenderer } from '@kit/render';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { LARAVEL_VERSIONS, laravelContext, laravelPages } from '../../packages/render/src/testing/laravel-corpus.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const pages: SourcePage[] = LARAVEL_VERSIONS.flatMap((version) => laravelPages(version));
const rounds = Number(process.env.ROUNDS ?? 5);
const SLICE = 10;
const slices: SourcePage[][] = [];
for (let at = 0; at < pages.length; at += SLICE) slices.push(pages.slice(at, at + SLICE));

type Side = 'bare' | 'cold' | 'cached';
const SIDES: Side[] = ['bare', 'cold', 'cached'];
/** times[side][round][slice], wall and CPU milliseconds. */
const table = () =>
  Object.fromEntries(SIDES.map((side) => [side, Array.from({ length: rounds }, () => [] as number[])])) as Record<
    Side,
    number[][]
  >;
const wall = table();
const cpu = table();

async function timed(side: Side, round: number, slice: number, run: () => unknown): Promise<void> {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  await run();
  const elapsed = performance.now() - start;
  const used = process.cpuUsage(cpuStart);
  (wall[side][round] as number[])[slice] = elapsed;
  (cpu[side][round] as number[])[slice] = (used.user + used.system) / 1000;
}

function bare(subset: SourcePage[]): void {
  for (const page of subset)
    micromark(page.body, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
}

type Renderer = ReturnType<typeof createRenderer>;
async function renderAll(renderer: Renderer, subset: SourcePage[]): Promise<void> {
  for (const page of subset) await renderer.render(page, laravelContext(page.version));
}

// Warm-up: compile both code paths before anything is timed.
const warmUp = pages.filter((_, index) => index % 10 === 0);
bare(warmUp);
await renderAll(createRenderer(), warmUp);

const loads: number[] = [];
for (let round = 0; round < rounds; round++) {
  collectGarbage();
  const renderer = createRenderer({ cacheSize: pages.length * 2 });
  for (let index = 0; index < slices.length; index++) {
    const slice = slices[index] as SourcePage[];
    const pipeline = async () => {
      await timed('cold', round, index, () => renderAll(renderer, slice));
      // The slice is now in the renderer's cache: the same pages again are the cached figure.
      await timed('cached', round, index, () => renderAll(renderer, slice));
    };
    if ((round + index) % 2 === 0) {
      await timed('bare', round, index, () => bare(slice));
      await pipeline();
    } else {
      await pipeline();
      await timed('bare', round, index, () => bare(slice));
    }
  }
  loads.push(loadavg()[0] as number);
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
/** Each slice's best round, added up. */
const bestBySlice = (times: number[][]) =>
  sum(slices.map((_, index) => Math.min(...times.map((round) => round[index] as number))));
/** The best whole round. */
const bestRound = (times: number[][]) => Math.min(...times.map(sum));
const rate = (ms: number) => ((pages.length / ms) * 1000).toFixed(1);
const ratio = (base: number, ms: number) => (base / ms).toFixed(2);

const bareMs = bestBySlice(wall.bare);
const coldMs = bestBySlice(wall.cold);
const cachedMs = bestBySlice(wall.cached);
const load = `load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} on ${availableParallelism()} cores`;
console.log(
  `pages: ${pages.length} in ${slices.length} slices, ${rounds} interleaved rounds, highlighting off; ${load}`,
);
console.log(`bare micromark+GFM: ${rate(bareMs)} pages/s`);
console.log(
  `pipeline, cold:     ${rate(coldMs)} pages/s = ${ratio(bareMs, coldMs)}x bare (goal >= 0.7x); best whole round ${ratio(bestRound(wall.bare), bestRound(wall.cold))}x; CPU time ${ratio(bestBySlice(cpu.bare), bestBySlice(cpu.cold))}x`,
);
console.log(`pipeline, cached:   ${rate(cachedMs)} pages/s = ${ratio(coldMs, cachedMs)}x cold (goal >= 50x)`);
