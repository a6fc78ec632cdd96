import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { warmKit } from '@kit/core';
import { diskCacheStoreDir } from '@kit/core/node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempProject, writeFiles } from './__fixtures__/kit-binary.js';
import { loadKit } from './load-kit.js';
import { validatorFor } from './validate/validate.js';

const projects: Array<{ cleanup: () => Promise<void> }> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const project of projects.splice(0)) await project.cleanup();
});

async function project(): Promise<string> {
  const made = await tempProject('kit-disk-cache-');
  projects.push(made);
  await writeFiles(made.dir, {
    'kit.config.mjs': "export default { sets: { docs: { route: { prefix: 'docs' }, source: { path: 'docs' } } } };\n",
    'docs/kit.json': JSON.stringify({ name: 'Docs', versions: ['2.x', '1.x'] }),
    'docs/2.x/index.md': '# Home\n\nStart here.\n',
    'docs/2.x/queues.md': "# Queues\n\n## Retrying\n\nFailed jobs retry.\n\n```php\nreturn <<<'EOT'\nx\nEOT;\n```\n",
    'docs/1.x/index.md': '# Home\n\nOld retry rules.\n',
  });
  return made.dir;
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
});
