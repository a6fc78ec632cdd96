// The agent files of a generated set of a few hundred pages at small limits, so `llms.txt` and
// `llms-full.txt` split into many files and the sitemap into many parts. The expected bytes
// (`__fixtures__/generated-set.expected.json`, a SHA-256 per file) were made by the builders that
// built every file of a version at once; serving one file at a time must give the same bytes.
// `UPDATE=1` rewrites them: review the diff.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildLlmsFullTxt, buildLlmsTxt, buildSitemap, type DocSet, type Kit, type Viewer } from '@kit/core';
import { buildLlmsFullTxtFile, buildLlmsTxtFile, buildSitemapFile } from '@kit/core/internal';
import { createFsSource } from '@kit/source-fs';
import type { Hono } from 'hono';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { generatedSetFiles } from './__fixtures__/generated-set.js';
import { agentApp, buildKit, fixtures, get, guest, ORIGIN, staff, useFsSource, writeTree } from './__fixtures__/kit.js';

useFsSource(createFsSource);

const EXPECTED = join(fixtures, 'generated-set.expected.json');
const LIMITS = { llms_txt_limit: 1500, llms_full_limit: 6000 };
const SCOPES: Array<{ version?: string; locale?: string }> = [{}, { locale: 'fr' }, { version: '1.x' }];
const VIEWERS: Array<[string, Viewer, Record<string, string>]> = [
  ['guest', guest, {}],
  ['staff', staff, { authorization: 'Bearer staff' }],
];

let kit: Kit;
let app: Hono;
beforeAll(() => {
  const root = writeTree(generatedSetFiles('gen'));
  kit = buildKit(root, { sets: { gen: { source: { path: 'gen' }, agents: LIMITS } } } as never);
  app = agentApp(kit);
});

const digest = (text: string) => `${text.length}:${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;

/** Every agent file of the set, by viewer and URL path, as the bundle builders make them. */
async function bundles(set: DocSet): Promise<Record<string, Record<string, string>>> {
  const out: Record<string, Record<string, string>> = {};
  for (const [name, viewer] of VIEWERS) {
    const files: Record<string, string> = {};
    for (const scope of SCOPES) {
      for (const build of [buildLlmsTxt, buildLlmsFullTxt]) {
        const bundle = await build(set, viewer, { origin: ORIGIN, ...scope });
        for (const file of bundle.files) files[file.path] = digest(file.text);
      }
    }
    out[name] = files;
  }
  const sitemap = await buildSitemap(set, { origin: ORIGIN, maxUrls: 40 });
  out.sitemap = Object.fromEntries(sitemap.map((file) => [file.path, digest(file.text)]));
  return out;
}

describe('agent files of a generated set split into many files', () => {
  let expected: Record<string, Record<string, string>>;
  beforeAll(async () => {
    if (process.env.UPDATE || !existsSync(EXPECTED)) {
      writeFileSync(EXPECTED, `${JSON.stringify(await bundles(kit.set('gen')), null, 2)}\n`);
    }
    expected = JSON.parse(readFileSync(EXPECTED, 'utf8'));
  });

  it('builds the same bytes as the builders that held every file at once', async () => {
    expect(await bundles(kit.set('gen'))).toEqual(expected);
    expect(Object.keys(expected.guest!).length).toBeGreaterThan(100);
  });

  it('serves each file alone with the same bytes, and nothing else under the folders', async () => {
    for (const [name, , headers] of VIEWERS) {
      for (const [path, want] of Object.entries(expected[name]!)) {
        const response = await get(app, path, headers);
        expect(response.status, path).toBe(200);
        expect(digest(await response.text()), path).toBe(want);
      }
    }
    for (const path of ['/gen/llms-full/index.txt', '/gen/llms-full/guides.1.txt', '/gen/llms/nowhere.txt']) {
      expect((await get(app, path)).status, path).toBe(404);
    }
    const groups = Object.keys(expected.guest!).filter((path) => /^\/gen\/llms-full\/[^/]+\.txt$/.test(path));
    const last = groups.map((path) => /\/([a-z0-9-]+)(?:\.(\d+))?\.txt$/.exec(path)!).at(-1)!;
    const beyond = `/gen/llms-full/${last[1]}.${Number(last[2] ?? 1) + 1}.txt`;
    if (!groups.includes(beyond)) expect((await get(app, beyond)).status, beyond).toBe(404);
  });

  it('builds each sitemap part alone with the same bytes, reading only the versions it covers', async () => {
    const set = kit.set('gen');
    const listed: string[] = [];
    const counted: DocSet = {
      ...set,
      visiblePages: (input, viewer) => {
        listed.push(`${input.version}/${input.locale}`);
        return set.visiblePages(input, viewer);
      },
    };
    const names = Object.keys(expected.sitemap!).map((path) => path.slice(path.lastIndexOf('/') + 1));
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) {
      const file = await buildSitemapFile(counted, { origin: ORIGIN, name, maxUrls: 40 });
      expect(digest(file!.text), name).toBe(expected.sitemap![`/gen/${name}`]);
      expect(file!.text.match(/<url>/g)?.length ?? 0, name).toBeLessThanOrEqual(40);
    }
    const after = `sitemap-${names.length}.xml`;
    expect(await buildSitemapFile(counted, { origin: ORIGIN, name: after, maxUrls: 40 })).toBeNull();
    listed.length = 0;
    await buildSitemapFile(counted, { origin: ORIGIN, name: 'sitemap-1.xml', maxUrls: 40 });
    // The first 40 URLs are all in the default version: the other version's lists are not read.
    expect(listed).toEqual(['2.x/en', '2.x/fr']);
  });

  it('serves a split file by reading only pages of its part, once page lengths are known', async () => {
    const set = kit.set('gen');
    const reads: string[] = [];
    const counted: DocSet = {
      ...set,
      readPage: (input, viewer) => {
        reads.push(input.path);
        return set.readPage(input, viewer);
      },
    };
    const visible = (await set.visiblePages({}, guest)).map((page) => page.path);
    const main = await buildLlmsFullTxtFile(counted, guest, { origin: ORIGIN });
    expect(main.file!.text).toContain('/gen/llms-full/index.2.txt');
    expect(expected.guest).toHaveProperty(['/gen/llms-full/reference-api.3.txt']);
    expect(new Set(reads)).toEqual(new Set(visible));
    reads.length = 0;
    const { file } = await buildLlmsFullTxtFile(counted, guest, { origin: ORIGIN, file: 'reference-api.3.txt' });
    expect(digest(file!.text)).toBe(expected.guest!['/gen/llms-full/reference-api.3.txt']);
    const group = visible.filter((path) => path.startsWith('reference/g5/'));
    const held = [...file!.text.matchAll(/^Source: https:\/\/docs\.test\/gen\/(\S+)\.md$/gm)].map((m) => m[1]);
    expect(held.length).toBeGreaterThan(0);
    for (const path of held) expect(reads).toContain(path);
    for (const path of reads) expect(group).toContain(path);
    expect(reads.length).toBeLessThan(group.length / 2);
  });

  // Staff see every page, so the set answers them with the same visible list while nothing changes.
  it('lists and groups a watched set’s pages once for all the files of a viewer who sees every page, and again after a page is added', async () => {
    const root = writeTree(generatedSetFiles('gen'));
    const watched = buildKit(root, { sets: { gen: { source: { path: 'gen' }, agents: LIMITS } } } as never, {
      watch: true,
    });
    try {
      const set = watched.set('gen');
      await (set.source as { ready?: Promise<void> }).ready;
      let listings = 0;
      const counted: DocSet = {
        ...set,
        listPages: (input, viewer) => {
          listings += 1;
          return set.listPages(input, viewer);
        },
      };
      await buildLlmsTxtFile(counted, staff, { origin: ORIGIN });
      await buildLlmsTxtFile(counted, staff, { origin: ORIGIN, file: 'reference-api.2.txt' });
      const part = await buildLlmsFullTxtFile(counted, staff, { origin: ORIGIN, file: 'reference-api.2.txt' });
      expect(digest(part.file!.text)).toBe(expected.staff!['/gen/llms-full/reference-api.2.txt']);
      expect(listings).toBe(1);
      writeFileSync(join(root, 'gen/2.x/extra/added.md'), '# Added\n\nA page added while serving.\n');
      await vi.waitFor(async () => {
        expect((await set.visiblePages({}, staff)).map((page) => page.path)).toContain('extra/added');
      });
      const { file } = await buildLlmsTxtFile(counted, staff, { origin: ORIGIN, file: 'other-pages.txt' });
      expect(file!.text).toContain(`${ORIGIN}/gen/extra/added.md`);
      expect(listings).toBe(2);
    } finally {
      await watched.close();
    }
  });
});
