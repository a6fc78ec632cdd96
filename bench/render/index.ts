/**
 * Render throughput over the Laravel corpus, as ratios against bare micromark + GFM parsing of the
 * same files in the same run. Run: `npx tsx --conditions=kit-source bench/render/index.ts`.
 */
import type { SourcePage } from '@kit/core';
import { createRenderer } from '@kit/render';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { LARAVEL_VERSIONS, laravelContext, laravelPages } from '../../packages/render/src/testing/laravel-corpus.js';

const pages: SourcePage[] = LARAVEL_VERSIONS.flatMap((version) => laravelPages(version));
const rounds = Number(process.env.ROUNDS ?? 2);

function bare(): number {
  const start = performance.now();
  for (const page of pages)
    micromark(page.body, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
  return performance.now() - start;
}

async function pipeline(cached: boolean): Promise<number> {
  const renderer = createRenderer({ cacheSize: pages.length * 2 });
  if (cached) for (const page of pages) await renderer.render(page, laravelContext(page.version));
  const start = performance.now();
  for (const page of pages) await renderer.render(page, laravelContext(page.version));
  return performance.now() - start;
}

bare();
let bareMs = Number.POSITIVE_INFINITY;
let coldMs = Number.POSITIVE_INFINITY;
let cachedMs = Number.POSITIVE_INFINITY;
for (let round = 0; round < rounds; round++) {
  bareMs = Math.min(bareMs, bare());
  coldMs = Math.min(coldMs, await pipeline(false));
  cachedMs = Math.min(cachedMs, await pipeline(true));
}
const rate = (ms: number) => (pages.length / ms) * 1000;
console.log(`pages: ${pages.length} (best of ${rounds} rounds, highlighting off)`);
console.log(`bare micromark+GFM: ${rate(bareMs).toFixed(1)} pages/s`);
console.log(
  `pipeline, cold:     ${rate(coldMs).toFixed(1)} pages/s = ${(bareMs / coldMs).toFixed(2)}x bare (goal >= 0.7x)`,
);
console.log(
  `pipeline, cached:   ${rate(cachedMs).toFixed(0)} pages/s = ${(coldMs / cachedMs).toFixed(0)}x cold (goal >= 50x)`,
);
