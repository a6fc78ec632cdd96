// Search speed: index build time, client index size per 1,000 sections and query latency.
//
//   npx tsx --conditions=kit-source bench/search-speed/index.ts [--pages 10000]
//
// The large corpus is the three Laravel versions replicated under varied paths up to --pages
// pages. MiniSearch over Laravel 13.x is the baseline measured in the same run; on the large
// corpus, so is ranking without pruning (every page a query word is on scored in full). The pages
// each query scores are counted too: counts, unlike timings, do not depend on the machine's load.
import { gzipSync } from 'node:zlib';
import type { SearchScope, SearchSection } from '@kit/core';
import { createClientSearch, createServerSearch } from '@kit/search';
import { queryClientIndex } from '@kit/search/client';
import MiniSearch from 'minisearch';
import { buildEngineIndex } from '../../packages/search/src/engine/build.js';
import {
  DEFAULT_RANKING,
  prepareRanking,
  type RankStats,
  rankSections,
} from '../../packages/search/src/engine/rank.js';
import { readLaravelPages, readQueries, sectionsOf } from '../search-quality/corpus.js';

const args = process.argv.slice(2);
const pagesArg = args.indexOf('--pages');
const targetPages = pagesArg >= 0 ? Number(args[pagesArg + 1]) : 10_000;
const scope: SearchScope = { set: 'laravel', version: '13.x', locale: 'en', audience: 'public' };
const started = performance.now();

const time = async <T>(run: () => T | Promise<T>): Promise<[T, number]> => {
  const begin = performance.now();
  const value = await run();
  return [value, performance.now() - begin];
};
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const ms = (value: number) => `${value.toFixed(2)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const questions = readQueries().map((query) => query.query);
// Also what a reader types: unfinished words and typos.
const typed = [
  'rout',
  'queue wor',
  'validat',
  'eloquent relat',
  'valdation rule',
  'evnet listner',
  'midleware',
  'cach',
];
const workload = [...questions, ...typed];

async function latencies(search: (query: string) => unknown | Promise<unknown>, rounds: number): Promise<number[]> {
  // Warm-up: one pass over the workload, so the figures are a running server's rather than the
  // engine compiling its code paths for this index (with ten queries, the first round measured did).
  for (const query of workload) await search(query);
  const samples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const query of workload) {
      const begin = performance.now();
      await search(query);
      samples.push(performance.now() - begin);
    }
  }
  return samples;
}

// Laravel 13.x: the real set.
const laravel = sectionsOf(readLaravelPages('13.x'), '/docs/13.x');
const perThousand = 1000 / laravel.length;
const server = createServerSearch();
const [, serverBuild] = await time(() => server.index(scope, laravel));
const client = createClientSearch();
const [, clientBuild] = await time(() => client.index(scope, laravel));
const report = (await client.clientIndexReport(scope))!;
const body = (await client.clientIndex(scope))!.body;
const [, miniBuild] = await time(() => {
  const mini = new MiniSearch({ fields: ['title', 'heading', 'text'] });
  mini.addAll(laravel.map((s, id) => ({ id, title: s.title, heading: s.headingPath.join(' '), text: s.text })));
  return mini;
});
const mini = new MiniSearch({ fields: ['title', 'heading', 'text'] });
mini.addAll(laravel.map((s, id) => ({ id, title: s.title, heading: s.headingPath.join(' '), text: s.text })));

const serverSmall = await latencies((query) => server.search(scope, query, { limit: 8 }), 5);
const browserSmall = await latencies((query) => queryClientIndex(body, query, 8), 5);
const miniSmall = await latencies((query) => mini.search(query, { prefix: true, fuzzy: 0.2 }), 5);
const [, parseClient] = await time(() => queryClientIndex(`${body} `, 'warm', 1));

console.log(`Laravel 13.x: ${laravel.length} sections`);
console.log(`  server index build          ${ms(serverBuild)} (${ms(serverBuild * perThousand)} per 1,000 sections)`);
console.log(`  client index build + fit    ${ms(clientBuild)}`);
console.log(
  `  MiniSearch build (baseline) ${ms(miniBuild)} → server/MiniSearch ${(serverBuild / miniBuild).toFixed(2)}x`,
);
console.log(
  `  client index                ${kb(report.bytes)} raw, ${kb(report.gzipBytes)} gzipped (budget ${report.budgetKb} KB, ${report.overBudget ? 'OVER' : 'within'}); per 1,000 sections ${kb(report.bytes * perThousand)} raw, ${kb(report.gzipBytes * perThousand)} gzipped; leads ${report.leadChars} chars`,
);
console.log(`  client index load + model   ${ms(parseClient)}`);
for (const [name, samples] of [
  ['server search', serverSmall],
  ['queryClientIndex (browser)', browserSmall],
  ['MiniSearch (baseline)', miniSmall],
] as const) {
  console.log(`  ${name.padEnd(27)} p50 ${ms(percentile(samples, 50))}, p95 ${ms(percentile(samples, 95))}`);
}
console.log(`  server p95 / MiniSearch p95 ${(percentile(serverSmall, 95) / percentile(miniSmall, 95)).toFixed(2)}x`);

// The large corpus: every version replicated under varied paths.
const versions = ['13.x', '12.x', '11.x'].map((version) => ({ version, pages: readLaravelPages(version) }));
const base = versions.flatMap(({ version, pages }) =>
  pages.map((page) => ({ version, page, sections: sectionsOf([page], `/docs/${version}`) })),
);
const large: SearchSection[] = [];
let pageCount = 0;
for (let copy = 0; pageCount < targetPages; copy++) {
  for (const { version, page, sections } of base) {
    if (pageCount >= targetPages) break;
    const path = `${version}/area-${copy}/${page.path}`;
    for (const section of sections) {
      large.push({
        ...section,
        id: `${path}#${section.anchor ?? ''}`,
        path,
        url: `/docs/${path}`,
        markdownUrl: `/docs/${path}.md`,
      });
    }
    pageCount++;
  }
}
const bigServer = createServerSearch();
const [, bigBuild] = await time(() => bigServer.index(scope, large));
const bigSamples = await latencies((query) => bigServer.search(scope, query, { limit: 8 }), 2);
const p95 = percentile(bigSamples, 95);
console.log(`\n${pageCount} pages, ${large.length} sections`);
console.log(
  `  server index build          ${ms(bigBuild)} (${ms((bigBuild * 1000) / large.length)} per 1,000 sections)`,
);
console.log(
  `  server search               p50 ${ms(percentile(bigSamples, 50))}, p95 ${ms(p95)} (goal p95 < 5 ms: ${p95 < 5 ? 'met' : 'NOT met'})`,
);
console.log(`  memory (heap used)          ${(process.memoryUsage().heapUsed / 1024 / 1024).toFixed(0)} MB`);

// The same corpus ranked directly (the driver's ranking without building its results), pruned and
// scoring every page, with the work each query took.
const engine = buildEngineIndex(large);
prepareRanking(engine);
const work = workload.map((query) => {
  const stats: RankStats = { candidates: 0, scored: 0, completed: 0 };
  rankSections(engine, query, 8, DEFAULT_RANKING, { stats });
  return stats;
});
const pruned = await latencies((query) => rankSections(engine, query, 8), 2);
const exhaustive = await latencies((query) => rankSections(engine, query, 8, DEFAULT_RANKING, { exhaustive: true }), 1);
const counts = (pick: (stats: RankStats) => number) =>
  `p50 ${percentile(work.map(pick), 50)}, p95 ${percentile(work.map(pick), 95)}`;
console.log(
  `  pages scored per query      ${counts((stats) => stats.scored)} (to the end: ${counts((stats) => stats.completed)})`,
);
console.log(`  pages a query word is on    ${counts((stats) => stats.candidates)} (all scored without pruning)`);
console.log(
  `  ranking, pruned             p50 ${ms(percentile(pruned, 50))}, p95 ${ms(percentile(pruned, 95))}; scoring every page p50 ${ms(percentile(exhaustive, 50))}, p95 ${ms(percentile(exhaustive, 95))} → pruned/every page p50 ${(percentile(pruned, 50) / percentile(exhaustive, 50)).toFixed(2)}x, p95 ${(percentile(pruned, 95) / percentile(exhaustive, 95)).toFixed(2)}x`,
);
void gzipSync;
console.log(`\n(${((performance.now() - started) / 1000).toFixed(1)} s)`);
