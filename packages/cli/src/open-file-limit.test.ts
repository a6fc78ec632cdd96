import { truncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type KitProcess, runKit, startKit, tempProjects } from './__fixtures__/kit-binary.js';

// A server's open-file limit is often 1,024; a repository set may have more pages than that. Each
// command here runs (from source) under a limit far below the page count, and must see every page,
// or fail naming the file it cannot read: never serve or check part of the set without a word.

const OPEN_FILES = 256;
const FOLDERS = 30;
const PAGES_PER_FOLDER = 50;
/** The pages, the overview of each folder and the home page. */
const PAGE_COUNT = FOLDERS * (PAGES_PER_FOLDER + 1) + 1;

const project = tempProjects('kit-open-files-');

/**
 * A project whose set has PAGE_COUNT pages in FOLDERS folders, plus a home page linking one
 * overview per folder, which links each page of its folder: a page left out is a broken link.
 */
function bigSet(): Record<string, string> {
  const files: Record<string, string> = { 'docs/kit.json': JSON.stringify({ name: 'Big' }) };
  const parts: string[] = [];
  for (let folder = 1; folder <= FOLDERS; folder += 1) {
    const links: string[] = [];
    for (let page = 1; page <= PAGES_PER_FOLDER; page += 1) {
      files[`docs/part-${folder}/page-${page}.md`] = `---\ntitle: Page ${folder}.${page}\n---\n\nText ${page}.\n`;
      links.push(`- [Page ${page}](page-${page}.md)`);
    }
    files[`docs/part-${folder}/overview.md`] = `# Part ${folder}\n\n${links.join('\n')}\n`;
    parts.push(`- [Part ${folder}](part-${folder}/overview.md)`);
  }
  files['docs/index.md'] = `# Big\n\n${parts.join('\n')}\n`;
  return files;
}

/** Over 2 GiB (sparse, so no disk space): Node.js refuses to read it, whoever runs the test. */
function makeUnreadable(root: string, file: string): void {
  truncateSync(join(root, file), 3 * 1024 ** 3);
}

async function waitUntil(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resume) => setTimeout(resume, 50));
}

describe(`a set of ${PAGE_COUNT} pages under an open-file limit of ${OPEN_FILES}`, () => {
  let server: KitProcess | null = null;
  afterEach(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    server = null;
  });

  it('kit validate checks every page and finds nothing wrong', async () => {
    const dir = await project(bigSet());
    const run = await runKit(['validate', '--json', '--no-cache', '--jobs', '1'], {
      cwd: dir,
      fromSource: true,
      openFiles: OPEN_FILES,
    });
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, issues: [] });
    expect(run.code).toBe(0);
  });

  it('kit serve lists every page in the sitemap and llms.txt', async () => {
    const dir = await project(bigSet());
    server = startKit(['serve', '--port', '0'], { cwd: dir, fromSource: true, openFiles: OPEN_FILES });
    const printed = await server.waitFor(/Press Ctrl\+C to stop\./);
    const site = /site\s+(http:\/\/\S+)/.exec(printed)![1]!;
    const sitemap = await (await fetch(`${site}/sitemap.xml`)).text();
    expect(sitemap.match(/<loc>/g)?.length).toBe(PAGE_COUNT);
    // llms.txt is split by navigation group (one per folder) at this size: each lists its 51 pages.
    const llms = await (await fetch(`${site}/llms.txt`)).text();
    expect(llms).toContain(`${site}/llms/part-30.txt): ${PAGES_PER_FOLDER + 1} pages`);
    const lastGroup = await (await fetch(`${site}/llms/part-30.txt`)).text();
    expect(lastGroup).toContain(`${site}/part-30/page-${PAGES_PER_FOLDER}.md`);
    expect(server.output().stderr).toBe('');
  });

  it('kit validate names a page file it cannot read, and exits 1 without checking pages as missing', async () => {
    const dir = await project(bigSet());
    makeUnreadable(dir, 'docs/part-7/page-3.md');
    const run = await runKit(['validate', '--no-cache', '--jobs', '1'], {
      cwd: dir,
      fromSource: true,
      openFiles: OPEN_FILES,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('source.read');
    expect(run.stdout).toContain('part-7/page-3.md cannot be read (ERR_FS_FILE_TOO_LARGE');
    expect(run.stdout).not.toContain('links.broken');
  });

  it('kit serve says which file it cannot read as it starts, and answers 500 where the page would be missing', async () => {
    const dir = await project(bigSet());
    makeUnreadable(dir, 'docs/part-7/page-3.md');
    server = startKit(['serve', '--port', '0'], { cwd: dir, fromSource: true, openFiles: OPEN_FILES });
    const printed = await server.waitFor(/Press Ctrl\+C to stop\./);
    const site = /site\s+(http:\/\/\S+)/.exec(printed)![1]!;
    const running = server;
    await waitUntil(() => running.output().stderr.includes('part-7/page-3.md'));
    expect(running.output().stderr).toMatch(
      /kit: preparing the "docs" docs \(current, en\) failed: Reading the "docs" docs failed: the file part-7\/page-3\.md cannot be read/,
    );
    expect((await fetch(`${site}/sitemap.xml`)).status).toBe(500);
  });
});
