import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { warmKit } from '@kit/core';
import { diskCacheStoreDir } from '@kit/core/node';
import { loadKit } from '@kit/node';
import type { SearchIndexReport } from '@kit/search';
import { searchIndexCacheDir } from '@kit/search/node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempProject, writeFiles } from './__fixtures__/kit-binary.js';
import { validatorFor } from './validate/validate.js';

const projects: Array<{ cleanup: () => Promise<void> }> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const project of projects.splice(0)) await project.cleanup();
});

async function project(search: 'client' | 'server' = 'client'): Promise<string> {
  const made = await tempProject('kit-disk-cache-');
  projects.push(made);
  await writeFiles(made.dir, {
    'kit.config.mjs': `export default { sets: { docs: { route: { prefix: 'docs' }, source: { path: 'docs' }, search: { driver: '${search}' } } } };\n`,
    'docs/kit.json': JSON.stringify({ name: 'Docs', versions: ['2.x', '1.x'] }),
    'docs/2.x/index.md': '# Home\n\nStart here.\n',
    'docs/2.x/queues.md': "# Queues\n\n## Retrying\n\nFailed jobs retry.\n\n```php\nreturn <<<'EOT'\nx\nEOT;\n```\n",
    'docs/1.x/index.md': '# Home\n\nOld retry rules.\n',
  });
  return made.dir;
}

/** Each index a kit made ready: `<version> <audience> built|cache`. */
function indexLog(): { reports: string[]; onSearchIndex: (report: SearchIndexReport) => void } {
  const reports: string[] = [];
  return {
    reports,
    onSearchIndex: (report) => reports.push(`${report.scope.version} ${report.scope.audience} ${report.origin}`),
  };
}

async function filesUnder(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).length;
}

describe('loadKit and the disk cache of repository sets', () => {
  it('renders nothing after a restart: pages and every version’s search sections come from .kit/cache/store', async () => {
    const cwd = await project();
    const first = await loadKit({ cwd, git: false });
    const firstRenders = vi.spyOn(first.renderer, 'render');
    await warmKit(first);
    const page = await first.set().readPage({ path: 'queues', version: '2.x' }, { user: null });
    const found = await first.set().search({ query: 'retry', version: '1.x' }, { user: null }, 'mcp');
    await first.close();
    expect(firstRenders.mock.calls.length).toBeGreaterThan(0);
    expect(await filesUnder(diskCacheStoreDir(cwd))).toBeGreaterThan(0);

    const second = await loadKit({ cwd, git: false });
    const secondRenders = vi.spyOn(second.renderer, 'render');
    try {
      await warmKit(second);
      expect((await second.set().readPage({ path: 'queues', version: '2.x' }, { user: null })).text).toBe(page.text);
      expect((await second.set().search({ query: 'retry', version: '1.x' }, { user: null }, 'mcp')).results).toEqual(
        found.results,
      );
      expect(secondRenders).not.toHaveBeenCalled();
      // validate_docs reads the same renders: the check parses no page either.
      const report = (await validatorFor(second)({ set: 'docs', version: '2.x' })) as { issues: unknown[] };
      expect(report.issues).toEqual([]);
      expect(secondRenders).not.toHaveBeenCalled();
    } finally {
      await second.close();
    }
  });

  it('keeps nothing on disk when diskCache is false', async () => {
    const cwd = await project();
    const kit = await loadKit({ cwd, git: false, diskCache: false });
    try {
      await warmKit(kit);
    } finally {
      await kit.close();
    }
    expect(await filesUnder(join(cwd, '.kit', 'cache', 'store'))).toBe(0);
  });

  it.each(['server', 'client'] as const)(
    'loads every version’s %s search index from .kit/cache/search after a restart instead of building it',
    async (driver) => {
      const cwd = await project(driver);
      const cold = indexLog();
      const first = await loadKit({ cwd, git: false, onSearchIndex: cold.onSearchIndex });
      await warmKit(first);
      const found = await first.set().search({ query: 'retry', version: '1.x' }, { user: null }, 'mcp');
      await first.close();
      expect(cold.reports.sort()).toEqual(['1.x public built', '2.x public built']);
      expect(await filesUnder(searchIndexCacheDir(cwd))).toBe(2);

      const warm = indexLog();
      const second = await loadKit({ cwd, git: false, onSearchIndex: warm.onSearchIndex });
      try {
        await warmKit(second);
        expect(warm.reports.sort()).toEqual(['1.x public cache', '2.x public cache']);
        expect((await second.set().search({ query: 'retry', version: '1.x' }, { user: null }, 'mcp')).results).toEqual(
          found.results,
        );
      } finally {
        await second.close();
      }
    },
  );

  it('builds again only the index of the version whose page changed', async () => {
    const cwd = await project('server');
    const first = await loadKit({ cwd, git: false });
    await warmKit(first);
    await first.close();
    await writeFiles(cwd, { 'docs/1.x/index.md': '# Home\n\nOld retry rules, and the new backoff.\n' });

    const log = indexLog();
    const second = await loadKit({ cwd, git: false, onSearchIndex: log.onSearchIndex });
    try {
      await warmKit(second);
      expect(log.reports.sort()).toEqual(['1.x public built', '2.x public cache']);
      const found = await second.set().search({ query: 'backoff', version: '1.x' }, { user: null }, 'mcp');
      expect(found.results.map((hit) => hit.path)).toEqual(['index']);
      // The changed version's older index file is replaced, not kept beside the new one.
      expect(await filesUnder(searchIndexCacheDir(cwd))).toBe(2);
    } finally {
      await second.close();
    }
  });

  it('warns about a spoiled index file, builds it again and still answers', async () => {
    const cwd = await project('server');
    const first = await loadKit({ cwd, git: false });
    await warmKit(first);
    const found = await first.set().search({ query: 'retry', version: '2.x' }, { user: null }, 'mcp');
    await first.close();
    const files = (await readdir(searchIndexCacheDir(cwd), { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile() && entry.parentPath.endsWith('2.x'))
      .map((entry) => join(entry.parentPath, entry.name));
    expect(files).toHaveLength(1);
    const bytes = await readFile(files[0]!);
    await writeFile(files[0]!, bytes.subarray(0, bytes.length >> 1));

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const log = indexLog();
    const second = await loadKit({ cwd, git: false, onSearchIndex: log.onSearchIndex });
    try {
      const again = await second.set().search({ query: 'retry', version: '2.x' }, { user: null }, 'mcp');
      expect(again.results).toEqual(found.results);
      expect(log.reports).toEqual(['2.x public built']);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toMatch(/search index kept in .*2\.x.* is unusable .*building it again/);
    } finally {
      await second.close();
    }
  });

  it('builds a version’s index once for two first searches arriving together', async () => {
    const cwd = await project('server');
    const log = indexLog();
    const kit = await loadKit({ cwd, git: false, diskCache: false, onSearchIndex: log.onSearchIndex });
    try {
      const [one, two] = await Promise.all([
        kit.set().search({ query: 'retry', version: '2.x' }, { user: null }, 'mcp'),
        kit.set().search({ query: 'retrying', version: '2.x' }, { user: null }, 'http'),
      ]);
      expect(one.results.length).toBeGreaterThan(0);
      expect(two.results.length).toBeGreaterThan(0);
      expect(log.reports).toEqual(['2.x public built']);
    } finally {
      await kit.close();
    }
  });
});
