/**
 * Kit at the sizes real documentation reaches: sets of 1,000, 10,000 and 100,000 pages generated
 * from the Laravel corpus (bench/scale/generate.ts), served by the built `kit serve` (watching on,
 * its default; search driver `server`) and measured row by row against the goals of issue #34:
 *
 *   start to first page (cold: no `.kit` cache; warm: a restart), first search (cold and after a
 *   restart), server RSS after N random pages and N searches, HTML page size and p50 uncached and
 *   cached, server search p50/p95, the bytes a browser fetches for one query (driver `client`,
 *   gzipped: the index, or over budget the pointer to server search and one server answer), one changed page searchable and served, `kit validate` cold and after one
 *   change, `llms.txt`, one split `llms-full.txt` file and the sitemap (time and bytes), and every
 *   page present in the sitemap with the open-file limit below the page count.
 *
 * Run after `pnpm build`:
 *
 *   npx tsx --conditions=kit-source bench/scale/index.ts [--pages 1000,10000] [--shape realistic|whole] [--requests 1000] [--only start,search]
 *
 * Sizes grow the set, not the work per request: the growth column from one size to the next is
 * the figure to read (a flat row scales; a row that grows with the pages does not). Absolute times
 * depend on the machine; RSS and bytes do not.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { seededRandom } from '../../packages/search/src/engine/random.js';
import { median } from '../stats.js';
import { generateScaleSet, type PageShape } from './generate.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1]! : fallback;
};
const sizes = option('pages', '1000').split(',').map(Number);
const shape = option('shape', 'realistic') as PageShape;
const requests = Number(option('requests', '1000'));
const repoRoot = resolve(import.meta.dirname, '../..');
const kitBin = join(repoRoot, 'packages/cli/bin/kit.js');
if (!existsSync(join(repoRoot, 'packages/node/dist/render-pool/render-worker.js'))) {
  console.error('bench/scale runs the built CLI: run `pnpm build` first.');
  process.exit(1);
}

const QUERIES = [
  'route model binding',
  'queue retry failed jobs',
  'eloquent relationships',
  'validation rules',
  'blade components',
  'cache tags',
  'middleware groups',
  'database migrations',
  'mail attachments',
  'rate limiting',
];

interface Server {
  child: ChildProcess;
  base: string;
  startedAt: number;
  readyAt: number;
}

async function writeProject(project: string, driver: 'server' | 'client') {
  await writeFile(
    join(project, 'kit.config.mjs'),
    `export default { sets: { docs: { route: { prefix: 'docs' }, source: { path: 'docs' }, html_input: 'allow', search: { driver: '${driver}' } } } };\n`,
  );
}

function startServer(project: string, shell = ''): Promise<Server> {
  const startedAt = performance.now();
  // The real Node binary, not a `node` shim on PATH that would run the server as its child (and
  // leave it running when the shim is stopped, its memory unmeasured).
  const command = `${shell}exec ${JSON.stringify(process.execPath)} ${JSON.stringify(kitBin)} serve --port 0`;
  const child = spawn('sh', ['-c', command], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolveServer, reject) => {
    let printed = '';
    const onData = (chunk: Buffer) => {
      printed += chunk.toString();
      const match = /site\s+(http:\/\/[^/\s]+)/.exec(printed);
      if (match) resolveServer({ child, base: match[1]!, startedAt, readyAt: performance.now() });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`kit serve exited (${code}):\n${printed.slice(-2000)}`)));
  });
}

async function stopServer(server: Server) {
  const exited = new Promise((done) => server.child.once('exit', done));
  server.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((done) => setTimeout(done, 10_000))]);
  if (server.child.exitCode === null) server.child.kill('SIGKILL');
}

/** Resident memory of the server process now and at its peak (Linux), in MB. */
function memoryOf(server: Server): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

async function timed(
  url: string,
  init?: RequestInit,
): Promise<{ ms: number; status: number; bytes: number; text: string }> {
  const start = performance.now();
  const response = await fetch(url, init);
  const text = await response.text();
  return { ms: performance.now() - start, status: response.status, bytes: Buffer.byteLength(text), text };
}

async function untilOk(url: string, accept: (text: string) => boolean, limitMs: number): Promise<number> {
  const start = performance.now();
  while (performance.now() - start < limitMs) {
    const answer = await fetch(url)
      .then(async (r) => (r.ok ? r.text() : ''))
      .catch(() => '');
    if (accept(answer)) return performance.now() - start;
    await new Promise((done) => setTimeout(done, 50));
  }
  return Number.NaN;
}

const searchUrl = (base: string, query: string) => `${base}/docs/_kit/search?q=${encodeURIComponent(query)}`;
const percentile = (values: number[], share: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * share))]!;
const round = (value: number) => (Number.isFinite(value) ? Math.round(value * 10) / 10 : value);

type Row = Record<string, number | string>;

async function measureStarts(project: string, paths: string[], row: Row) {
  const cold = await startServer(project);
  const firstPage = await timed(`${cold.base}/docs/${paths[0]}`);
  row['start to first page, cold (ms)'] = round(firstPage.ms + cold.readyAt - cold.startedAt);
  await untilOk(searchUrl(cold.base, 'eloquent'), (text) => text.includes('"url"'), 900_000);
  row['first search, cold (ms)'] = round(performance.now() - cold.startedAt);
  await stopServer(cold);
  const warm = await startServer(project);
  const warmPage = await timed(`${warm.base}/docs/${paths[1]}`);
  row['start to first page, warm (ms)'] = round(warmPage.ms + warm.readyAt - warm.startedAt);
  await untilOk(searchUrl(warm.base, 'eloquent'), (text) => text.includes('"url"'), 900_000);
  row['first search, warm restart (ms)'] = round(performance.now() - warm.startedAt);
  return warm;
}

async function measureServing(server: Server, paths: string[], row: Row) {
  // Seeded, so every run asks for the same pages.
  const random = seededRandom(7);
  const uncached: number[] = [];
  const sizes: number[] = [];
  const asked = Array.from(
    { length: Math.min(requests, paths.length) },
    () => paths[Math.floor(random() * paths.length)]!,
  );
  for (const path of asked) {
    const page = await timed(`${server.base}/docs/${path}`);
    uncached.push(page.ms);
    sizes.push(page.bytes);
  }
  const cached: number[] = [];
  for (const path of asked.slice(0, 200)) cached.push((await timed(`${server.base}/docs/${path}`)).ms);
  const searches: number[] = [];
  for (let index = 0; index < requests; index += 1) {
    const query = `${QUERIES[index % QUERIES.length]} ${index % 7 === 0 ? 'example' : ''}`.trim();
    searches.push((await timed(`${searchUrl(server.base, query)}&n=${index}`)).ms);
  }
  row['HTML page, median size (KB)'] = round(median(sizes) / 1024);
  row['HTML page p50, uncached (ms)'] = round(median(uncached));
  row['HTML page p50, cached (ms)'] = round(median(cached));
  row['server search p50 (ms)'] = round(median(searches));
  row['server search p95 (ms)'] = round(percentile(searches, 0.95));
  const memory = memoryOf(server);
  row[`server RSS after ${requests} pages and ${requests} searches (MB)`] = memory.rss;
  row['server RSS peak (MB)'] = memory.peak;
}

async function measureAgentFiles(server: Server, row: Row) {
  const llms = await timed(`${server.base}/docs/llms.txt`);
  row['llms.txt (ms / KB)'] = `${round(llms.ms)} / ${round(llms.bytes / 1024)}`;
  const full = await timed(`${server.base}/docs/llms-full.txt`);
  // Past `agents.llms_full_limit` the file is an index of split files: time one of them.
  const split = /\(https?:\/\/[^/)]+(\/docs\/llms-full\/[^)]+\.txt)\)/.exec(full.text)?.[1];
  const part = split ? await timed(`${server.base}${split}`) : full;
  row['llms-full.txt, one file (ms / KB)'] = `${round(part.ms)} / ${round(part.bytes / 1024)}`;
  const sitemap = await timed(`${server.base}/sitemap.xml`).then((answer) =>
    answer.status === 200 ? answer : timed(`${server.base}/docs/sitemap.xml`),
  );
  row['sitemap (ms / KB)'] = `${round(sitemap.ms)} / ${round(sitemap.bytes / 1024)}`;
}

async function measureChange(server: Server, docs: string, paths: string[], row: Row) {
  const word = `zyxscale${Date.now().toString(36)}`;
  const path = paths[Math.floor(paths.length / 2)]!;
  await appendFile(join(docs, `${path}.md`), `\n\nThe ${word} setting changes everything.\n`);
  const served = untilOk(`${server.base}/docs/${path}`, (text) => text.includes(word), 120_000);
  const found = untilOk(searchUrl(server.base, word), (text) => text.includes(path), 120_000);
  const [servedMs, foundMs] = await Promise.all([served, found]);
  row['one changed page served (ms)'] = round(servedMs);
  row['one changed page searchable (ms)'] = round(foundMs);
}

async function measureClientIndex(project: string, row: Row) {
  await writeProject(project, 'client');
  const server = await startServer(project);
  // The index a reader's page names: the browser fetches it whole for its first query, unless it is
  // over search.budget_kb and the engine answers a pointer to server search; then the query itself
  // goes to the server, and both count.
  const page = await fetch(`${server.base}/docs`).then((r) => r.text());
  const indexPath = /\/docs\/_kit\/search-index\/[^"']+/.exec(page)?.[0];
  const bytesOf = async (url: string) =>
    fetch(url, { headers: { accept: 'application/json' } }).then(async (r) =>
      r.ok ? Buffer.from(await r.arrayBuffer()) : null,
    );
  const index = indexPath ? await bytesOf(`${server.base}${indexPath}`) : null;
  const pointer = index !== null && index.length < 1024 && index.toString().includes('"kit-search-server/');
  const hits = pointer ? await bytesOf(searchUrl(server.base, 'queued listeners')) : null;
  row['browser search, bytes for one query (KB gzipped)'] = index
    ? round((gzipSync(index).length + (hits ? gzipSync(hits).length : 0)) / 1024)
    : 'n/a';
  row['browser search, how'] = index ? (pointer ? 'server (index over budget)' : 'client index') : 'n/a';
  await stopServer(server);
  await writeProject(project, 'server');
}

async function measureValidate(project: string, docs: string, paths: string[], row: Row) {
  const run = () =>
    new Promise<number>((done) => {
      const start = performance.now();
      const child = spawn(process.execPath, [kitBin, 'validate', '--json'], { cwd: project, stdio: 'ignore' });
      child.once('exit', () => done(performance.now() - start));
    });
  await rm(join(project, '.kit'), { recursive: true, force: true });
  row['kit validate, cold (s)'] = round((await run()) / 1000);
  await appendFile(join(docs, `${paths[3]}.md`), '\n\nOne more line.\n');
  row['kit validate, after one change (s)'] = round((await run()) / 1000);
}

/** The URLs a sitemap lists, following a sitemap index (past 50,000 URLs) into its parts. */
async function sitemapUrls(base: string, path: string): Promise<number> {
  const text = await fetch(`${base}${path}`).then((r) => r.text());
  const locs = [...text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!);
  if (!text.includes('<sitemapindex')) return locs.length;
  let count = 0;
  for (const loc of locs) count += await sitemapUrls(base, new URL(loc).pathname);
  return count;
}

async function measureOpenFileLimit(project: string, paths: string[], row: Row) {
  const limit = Math.max(256, Math.min(1024, Math.floor(paths.length / 2)));
  const server = await startServer(project, `ulimit -n ${limit}; `).catch((error: Error) => error);
  if (server instanceof Error) {
    row[`pages in the sitemap, open-file limit ${limit}`] = `clear error: ${server.message.split('\n')[1] ?? ''}`;
    return;
  }
  row[`pages in the sitemap, open-file limit ${limit}`] =
    `${(await sitemapUrls(server.base, '/docs/sitemap.xml')) - 1} of ${paths.length}`;
  await stopServer(server);
}

const only = option('only', '');
const wants = (part: string) => !only || only.split(',').includes(part);
const rows: Row[] = [];
for (const pages of sizes) {
  const project = await mkdtemp(join(tmpdir(), `kit-bench-scale-${pages}-`));
  const generateStart = performance.now();
  const set = await generateScaleSet(project, pages, shape);
  await writeProject(project, 'server');
  const row: Row = { pages, 'Markdown (MB)': round(set.bytes / 1024 / 1024) };
  row['generate (s)'] = round((performance.now() - generateStart) / 1000);
  console.error(`-- ${pages} pages (${shape}) in ${project}`);
  const server = await measureStarts(project, set.paths, row);
  if (wants('serve')) await measureServing(server, set.paths, row);
  if (wants('agents')) await measureAgentFiles(server, row);
  if (wants('change')) await measureChange(server, set.docs, set.paths, row);
  await stopServer(server);
  if (wants('client')) await measureClientIndex(project, row);
  if (wants('validate')) await measureValidate(project, set.docs, set.paths, row);
  if (wants('files')) await measureOpenFileLimit(project, set.paths, row);
  rows.push(row);
  console.error(JSON.stringify(row, null, 1));
  await rm(project, { recursive: true, force: true });
}

const names = [...new Set(rows.flatMap((row) => Object.keys(row)))];
console.log(`\n| row | ${rows.map((row) => `${row.pages} pages`).join(' | ')} |`);
console.log(`| --- | ${rows.map(() => '---').join(' | ')} |`);
for (const name of names.filter((name) => name !== 'pages'))
  console.log(`| ${name} | ${rows.map((row) => row[name] ?? '').join(' | ')} |`);
