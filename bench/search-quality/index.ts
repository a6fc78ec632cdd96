// Search quality on the judged Laravel questions: page-level MRR@10 and Recall@5 of the server and
// client drivers next to off-the-shelf lunr, MiniSearch and Orama over the same sections.
//
//   npx tsx --conditions=kit-source bench/search-quality/index.ts [--verbose] [--misses] [--ranking '{"title":4}'] [--only-drivers] [--segment-pages N]
//
// Odd lines of the questions file are the tuning split the ranking defaults were chosen on; even
// lines are held out. Each figure is reported for tuned, held-out and all questions. `--misses`
// describes the held-out questions missing from the first five without showing their words: where
// the judged pages rank and on how many pages each query word occurs.
//
// It also runs questions the Laravel docs have no answer to (random tokens, everyday questions,
// other fields' tools) and reports how many each driver answers with no results, as it should.
import type { SearchScope } from '@kit/core';
import { analyzeQuery, createClientSearch, createServerSearch, type RankingParams, tokenize } from '@kit/search';
import { type JudgedQuery, readLaravelPages, readQueries, sectionsOf } from './corpus.js';
import { lunrRanker, miniSearchRanker, oramaRanker, type PageRanker } from './engines.js';

const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const onlyDrivers = args.includes('--only-drivers');
const misses = args.includes('--misses');
const rankingArg = args.indexOf('--ranking');
const ranking = rankingArg >= 0 ? (JSON.parse(args[rankingArg + 1] ?? '{}') as Partial<RankingParams>) : {};
// `--segment-pages 25` cuts the server index into segments of about 25 pages (as a set past
// SEGMENT_PAGES is cut), to measure what ranking segments side by side costs in relevance.
const segmentArg = args.indexOf('--segment-pages');
const segmentPages = segmentArg >= 0 ? Number(args[segmentArg + 1]) : undefined;

const VERSION = '13.x';

/**
 * Questions with no answer in the Laravel docs: random tokens, everyday questions and other
 * fields' tools. The threshold (`minCoverage`) sits between what the best page covers of these
 * (at most 0.45) and of the tuning questions (at least 0.57); held-out questions were not read.
 */
const NO_MATCH_QUERIES = [
  'xK9qvT2mLp8RzW4nB7cY',
  '3fa85f6457174562b3fc',
  'qwhzkvlxjprmtbnfdgsc',
  'colorless green ideas sleep furiously',
  'how do I bake a chocolate cake',
  'what is the capital of France',
  'best hiking trails near the mountains',
  'recipe for banana bread without eggs',
  'kubernetes pod autoscaling yaml',
  'train a neural network with pytorch',
  'django orm select_related prefetch',
  'react useEffect cleanup function',
];
const scope: SearchScope = { set: 'laravel', version: VERSION, locale: 'en', audience: 'public' };

interface Scored {
  query: JudgedQuery;
  pages: string[];
  reciprocalRank: number;
  recall5: number;
  hit5: number;
}

function dedupe(paths: string[]): string[] {
  return [...new Set(paths)];
}

function score(query: JudgedQuery, ranked: string[]): Scored {
  const pages = dedupe(ranked).slice(0, 10);
  const first = pages.findIndex((page) => query.pages.includes(page));
  const top5 = pages.slice(0, 5);
  const found = query.pages.filter((page) => top5.includes(page)).length;
  return {
    query,
    pages,
    reciprocalRank: first === -1 ? 0 : 1 / (first + 1),
    recall5: found / query.pages.length,
    hit5: found > 0 ? 1 : 0,
  };
}

const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);

function summarize(scored: Scored[]) {
  const split = (keep: (line: number) => boolean) => scored.filter((entry) => keep(entry.query.line));
  const figures = (entries: Scored[]) => ({
    mrr10: mean(entries.map((e) => e.reciprocalRank)),
    recall5: mean(entries.map((e) => e.recall5)),
    hit5: mean(entries.map((e) => e.hit5)),
  });
  return {
    tuned: figures(split((line) => line % 2 === 1)),
    heldOut: figures(split((line) => line % 2 === 0)),
    all: figures(scored),
  };
}

async function evaluate(ranker: PageRanker, queries: JudgedQuery[]) {
  const scored: Scored[] = [];
  for (const query of queries) scored.push(score(query, await ranker.search(query.query)));
  return { name: ranker.name, scored, summary: summarize(scored) };
}

const started = performance.now();
const pages = readLaravelPages(VERSION);
const sections = sectionsOf(pages, `/docs/${VERSION}`);
const queries = readQueries().filter((query) => query.version === VERSION);
console.log(`Laravel ${VERSION}: ${pages.length} pages, ${sections.length} sections, ${queries.length} questions`);

const server = createServerSearch({ ranking, ...(segmentPages ? { segmentPages } : {}) });
await server.index(scope, sections);
const client = createClientSearch();
await client.index(scope, sections);
const report = (await client.clientIndexReport(scope))!;

const driverRanker = (name: string, driver: typeof server): PageRanker => ({
  name,
  async search(query) {
    return (await driver.search(scope, query, { limit: 10 })).map((hit) => hit.path);
  },
});

const rankers: PageRanker[] = [driverRanker('server driver', server), driverRanker('client driver', client)];
if (!onlyDrivers) rankers.push(lunrRanker(sections), miniSearchRanker(sections), await oramaRanker(sections));

const results = [];
for (const ranker of rankers) results.push(await evaluate(ranker, queries));

const f = (value: number) => value.toFixed(3);
console.log('\nPage-level figures (tuned = odd lines, held-out = even lines)\n');
console.log(
  `${'engine'.padEnd(14)} ${'MRR@10 tuned'.padStart(13)} ${'held-out'.padStart(9)} ${'all'.padStart(6)}   ${'Recall@5 tuned'.padStart(14)} ${'held-out'.padStart(9)} ${'all'.padStart(6)}   ${'Hit@5 all'.padStart(9)}`,
);
for (const { name, summary } of results) {
  console.log(
    `${name.padEnd(14)} ${f(summary.tuned.mrr10).padStart(13)} ${f(summary.heldOut.mrr10).padStart(9)} ${f(summary.all.mrr10).padStart(6)}   ${f(summary.tuned.recall5).padStart(14)} ${f(summary.heldOut.recall5).padStart(9)} ${f(summary.all.recall5).padStart(6)}   ${f(summary.all.hit5).padStart(9)}`,
  );
}
for (const driver of [server, client]) {
  let empty = 0;
  for (const query of NO_MATCH_QUERIES) if ((await driver.search(scope, query, { limit: 10 })).length === 0) empty++;
  console.log(
    `${driver.name} driver: ${empty} of ${NO_MATCH_QUERIES.length} no-match questions answered with no results`,
  );
}
const serverAll = results[0]!.summary.all.mrr10;
const clientAll = results[1]!.summary.all.mrr10;
console.log(
  `\nclient index: ${report.bytes} bytes, ${report.gzipBytes} gzipped (${(report.gzipBytes / 1024).toFixed(1)} KB of ${report.budgetKb} KB budget${report.overBudget ? ', OVER BUDGET' : ''}), section leads ${report.leadChars} chars`,
);
console.log(`client MRR@10 - server MRR@10: ${(clientAll - serverAll).toFixed(3)}`);
for (const baseline of results.slice(2)) {
  console.log(
    `server MRR@10 / ${baseline.name} MRR@10: ${(serverAll / (baseline.summary.all.mrr10 || 1)).toFixed(2)}x`,
  );
}

if (verbose) {
  for (const { name, scored } of results.slice(0, 1)) {
    console.log(`\nMisses of ${name} (tuning split only; held-out lines stay unseen):`);
    for (const entry of scored) {
      if (entry.query.line % 2 === 0 || (entry.reciprocalRank === 1 && entry.recall5 === 1)) continue;
      console.log(
        `  #${entry.query.line} ${entry.query.query} → want ${entry.query.pages.join(',')}; got ${entry.pages.slice(0, 5).join(', ')}`,
      );
    }
  }
}
if (misses) {
  // Pages each term occurs on, to tell a wording gap (a word no page has) from a question of
  // common words (every word on most pages) without printing the question.
  const pagesWith = new Map<string, number>();
  for (const page of pages)
    for (const term of new Set(tokenize(page.markdown).map((token) => token.term))) {
      pagesWith.set(term, (pagesWith.get(term) ?? 0) + 1);
    }
  console.log(`\nHeld-out questions missing from the server driver's first five (words not shown):`);
  for (const entry of results[0]!.scored) {
    if (entry.query.line % 2 === 1 || entry.hit5 === 1) continue;
    const ranked = dedupe((await server.search(scope, entry.query.query, { limit: 20 })).map((hit) => hit.path));
    const ranks = entry.query.pages.map((page) => (ranked.includes(page) ? String(ranked.indexOf(page) + 1) : '>20'));
    const counts = analyzeQuery(entry.query.query).map((word) => pagesWith.get(word.term) ?? 0);
    console.log(
      `  judged page rank ${ranks.join(', ')}; ${counts.length} query words, on ${counts.sort((a, b) => a - b).join(', ')} of ${pages.length} pages`,
    );
  }
}
console.log(`\n(${((performance.now() - started) / 1000).toFixed(1)} s)`);
