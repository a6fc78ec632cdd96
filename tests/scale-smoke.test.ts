import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateScaleSet } from '../bench/scale/generate.js';

// The 1,000-page case of bench/scale, as a smoke test of behaviour (never of time): the built
// `kit serve` under an open-file limit far below the page count serves and finds every page, a
// page's HTML does not carry the whole navigation, a changed page is served and found again, and
// the agent files split and answer part by part.

const PAGES = 1000;
const OPEN_FILES = 256;
const kitBin = resolve(import.meta.dirname, '../packages/cli/bin/kit.js');
const built = existsSync(resolve(import.meta.dirname, '../packages/cli/dist/bin.js'));

let project = '';
let paths: string[] = [];
let child: ChildProcess | null = null;
let base = '';

async function until<T>(probe: () => Promise<T | undefined>, what: string, limitMs = 180_000): Promise<T> {
  const start = Date.now();
  while (Date.now() - start < limitMs) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((resume) => setTimeout(resume, 100));
  }
  throw new Error(`Gave up waiting for ${what}.`);
}

const text = async (path: string) => {
  const response = await fetch(`${base}${path}`);
  return { status: response.status, body: await response.text() };
};

describe(`kit serve on a generated set of ${PAGES} pages, open-file limit ${OPEN_FILES}`, () => {
  beforeAll(async () => {
    if (!built)
      throw new Error('tests/scale-smoke.test.ts runs the built CLI: run `pnpm build` first (`pnpm test` does).');
    project = await mkdtemp(join(tmpdir(), 'kit-scale-smoke-'));
    paths = (await generateScaleSet(project, PAGES, 'realistic')).paths;
    await writeFile(
      join(project, 'kit.config.mjs'),
      `export default { sets: { docs: { route: { prefix: 'docs' }, source: { path: 'docs' }, html_input: 'allow', search: { driver: 'server' } } } };\n`,
    );
    const command = `ulimit -n ${OPEN_FILES}; exec ${JSON.stringify(process.execPath)} ${JSON.stringify(kitBin)} serve --port 0`;
    child = spawn('sh', ['-c', command], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    let printed = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
    });
    base = await until(
      async () => /site\s+(http:\/\/[^/\s]+)/.exec(printed)?.[1],
      `kit serve to start (it printed: ${printed})`,
    );
  });

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((done) => child!.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('lists every page in the sitemap and serves the last one', async () => {
    const sitemap = await text('/docs/sitemap.xml');
    // The pages and the set's landing page.
    expect(sitemap.body.match(/<loc>/g)?.length).toBe(PAGES + 1);
    expect((await text(`/docs/${paths.at(-1)}`)).status).toBe(200);
  });

  it('keeps a page to a window of the navigation, with the rest one link away', async () => {
    const page = await text(`/docs/${paths[PAGES / 2]}`);
    expect(page.status).toBe(200);
    const links = page.body.match(/class="kit-nav-link/g)?.length ?? 0;
    expect(links).toBeGreaterThan(10);
    expect(links).toBeLessThan(PAGES / 2);
    expect(page.body).toContain('aria-current="page"');
    // A link to the rest of a list, and the same list as JSON for the reader's script.
    const more = /href="(\/docs\/_kit\/nav\/[^"?]+)\?([^"]+)"/.exec(page.body);
    expect(more).not.toBeNull();
    expect((await text(`${more![1]}?${more![2]!.replace(/&amp;/g, '&')}`)).status).toBe(200);
    const listing = JSON.parse((await text(`${more![1]}.json?${more![2]!.replace(/&amp;/g, '&')}`)).body);
    expect(listing.items.length).toBeGreaterThan(0);
    expect(listing.items.length).toBeLessThanOrEqual(100);
  });

  it('answers a search, and finds and serves a changed page without a restart', async () => {
    const first = await until(async () => {
      const answer = JSON.parse((await text('/docs/_kit/search?q=eloquent%20relationships')).body);
      return answer.results?.length > 0 ? answer.results : undefined;
    }, 'the first search');
    expect(first[0].url).toMatch(/^\/docs\//);
    const word = 'zyxscalesmoke';
    const path = paths[PAGES / 4]!;
    await appendFile(join(project, 'docs', `${path}.md`), `\n\nThe ${word} setting changes everything.\n`);
    await until(
      async () => ((await text(`/docs/${path}`)).body.includes(word) ? true : undefined),
      'the change served',
    );
    const found = await until(async () => {
      const answer = JSON.parse((await text(`/docs/_kit/search?q=${word}`)).body);
      return answer.results?.length > 0 ? answer.results : undefined;
    }, 'the change found');
    expect(found[0].path).toBe(path);
  });

  it('splits llms-full.txt by group and answers one part on its own', async () => {
    const index = await text('/docs/llms-full.txt');
    expect(index.status).toBe(200);
    const part = /\(https?:\/\/[^/)]+(\/docs\/llms-full\/[^)]+\.txt)\)/.exec(index.body)?.[1];
    expect(part).toBeDefined();
    const file = await text(part!);
    expect(file.status).toBe(200);
    expect(file.body).toMatch(/^Source: /m);
  });
});
