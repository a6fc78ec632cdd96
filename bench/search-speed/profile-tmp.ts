import type { SearchSection } from '@kit/core';
import { readLaravelPages, readQueries, sectionsOf } from '../search-quality/corpus.js';
import { buildEngineIndex } from '../../packages/search/src/engine/build.js';
import { rankSections, prepareRanking, DEFAULT_RANKING } from '../../packages/search/src/engine/rank.js';
import { toSearchHits } from '../../packages/search/src/engine/hits.js';
const target = Number(process.argv[2] ?? 10000);
const versions = ['13.x', '12.x', '11.x'].map((version) => ({ version, pages: readLaravelPages(version) }));
const base = versions.flatMap(({ version, pages }) => pages.map((page) => ({ version, page, sections: sectionsOf([page], `/docs/${version}`) })));
const large: SearchSection[] = [];
let pageCount = 0;
for (let copy = 0; pageCount < target; copy++) for (const { version, page, sections } of base) {
  if (pageCount >= target) break;
  const path = `${version}/area-${copy}/${page.path}`;
  for (const section of sections) large.push({ ...section, id: path, path, url: `/docs/${path}`, markdownUrl: `/docs/${path}.md` });
  pageCount++;
}
let t = performance.now();
const index = buildEngineIndex(large);
console.log('build', (performance.now() - t).toFixed(0));
t = performance.now(); prepareRanking(index, DEFAULT_RANKING); console.log('prepare', (performance.now() - t).toFixed(0));
const qs = readQueries();
const work = [...qs.map((q) => ({ q: q.query, label: q.line % 2 ? `#${q.line} ${q.query}` : `#${q.line} (held-out)` })), ...['rout','queue wor','validat','eloquent relat','valdation rule','evnet listner','midleware','cach'].map((q) => ({ q, label: q }))];
for (const w of work.slice(0, 10)) rankSections(index, w.q, 8);
const rows: Array<[number, number, string]> = [];
for (let r = 0; r < 2; r++) for (const w of work) {
  const a = performance.now();
  const out = rankSections(index, w.q, 8);
  const b = performance.now();
  toSearchHits(index, out);
  const c = performance.now();
  if (r === 1) rows.push([b - a, c - b, w.label]);
}
rows.sort((x, y) => y[0] + y[1] - x[0] - x[1]);
for (const row of rows.slice(0, 15)) console.log(row[0].toFixed(2), row[1].toFixed(2), row[2]);
const rank = rows.map((r) => r[0]).sort((a, b) => a - b); const snip = rows.map((r) => r[1]).sort((a, b) => a - b);
console.log('rank p50', rank[Math.floor(rank.length/2)]!.toFixed(2), 'p95', rank[Math.floor(rank.length*0.95)]!.toFixed(2), 'snip p95', snip[Math.floor(snip.length*0.95)]!.toFixed(2));
