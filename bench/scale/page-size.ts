/**
 * The HTML size of one reader page as the set grows (issue #34): sets of 1,000 and 10,000 pages
 * generated from the Laravel corpus (bench/scale/generate.ts), served in process by the HTTP app.
 * For each size it reports the bytes of a page in the middle of the navigation (raw and gzipped),
 * the sidebar links it carries, the median time to answer 20 pages asked for the first time, and
 * the bytes of the navigation's top level as JSON and as a page (`/_kit/nav`, paged).
 * A flat row from one size to the next scales; a row that grows with the pages does not.
 *
 *   npx tsx --conditions=kit-source bench/scale/page-size.ts [--pages 1000,10000]
 *
 * No build needed. The baseline is the same page of the smaller set: the figure to read is the
 * growth column.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createKitApp } from '../../packages/http-hono/src/index.js';
import { loadKit } from '../../packages/node/src/index.js';
import { median } from '../stats.js';
import { generateScaleSet } from './generate.js';

const args = process.argv.slice(2);
const at = args.indexOf('--pages');
const sizes = (at >= 0 ? args[at + 1]! : '1000,10000').split(',').map(Number);
const HTML = { accept: 'text/html' };

const rows: Array<Record<string, string | number>> = [];
for (const pages of sizes) {
  const project = await mkdtemp(join(tmpdir(), `kit-bench-page-size-${pages}-`));
  const set = await generateScaleSet(project, pages, 'realistic');
  await writeFile(
    join(project, 'kit.config.mjs'),
    `export default { sets: { docs: { route: { prefix: 'docs' }, source: { path: 'docs' }, search: { driver: 'server' } } } };\n`,
  );
  const kit = await loadKit({ cwd: project, watch: true });
  const app = createKitApp({ kit, cacheDir: null });
  const middle = set.paths[Math.floor(set.paths.length / 2)]!;
  const first = await (await app.request(`/docs/${middle}`, { headers: HTML })).text();
  if (process.env.DUMP) await writeFile(`${process.env.DUMP}-${pages}.html`, first);
  const times: number[] = [];
  for (let index = 0; index < 20; index += 1) {
    const path = set.paths[Math.floor((set.paths.length * (index + 0.5)) / 20)]!;
    const started = performance.now();
    const response = await app.request(`/docs/${path}`, { headers: HTML });
    await response.text();
    times.push(performance.now() - started);
  }
  // The navigation's top level as JSON and as the page without the script: paged, never the set.
  const navJson = await (await app.request('/docs/_kit/nav/current/en.json')).text();
  const navPage = await (await app.request('/docs/_kit/nav/current/en', { headers: HTML })).text();
  rows.push({
    pages,
    'page HTML (KB)': Math.round(Buffer.byteLength(first) / 1024),
    'page HTML gzipped (KB)': Math.round(gzipSync(first).length / 1024),
    'sidebar links': (/<nav class="kit-nav"[\s\S]*?<\/nav>/.exec(first)?.[0].match(/<a /g) ?? []).length,
    'first answer p50 (ms)': Math.round(median(times)),
    'navigation JSON, top level (KB)': Math.round(Buffer.byteLength(navJson) / 1024),
    'navigation page, top level (KB)': Math.round(Buffer.byteLength(navPage) / 1024),
  });
  console.error(JSON.stringify(rows.at(-1)));
  await kit.close();
  await rm(project, { recursive: true, force: true });
}
const names = Object.keys(rows[0] ?? {}).filter((name) => name !== 'pages');
console.log(`| row | ${rows.map((row) => `${row.pages} pages`).join(' | ')} |`);
console.log(`| --- | ${rows.map(() => '---').join(' | ')} |`);
for (const name of names) console.log(`| ${name} | ${rows.map((row) => row[name]).join(' | ')} |`);
