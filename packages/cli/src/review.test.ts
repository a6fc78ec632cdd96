import { loadKit } from '@kit/node';
import { type DbContentSource, movePage, writePage } from '@kit/source-db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKitHere } from './__fixtures__/in-process.js';
import { tempProject, writeFiles } from './__fixtures__/kit-binary.js';

// `kit drafts`, `kit history` and `kit restore` on a database set (PGlite in the project folder),
// with drafts written as the web author tools write them, and on a repository set.
const page = { version: 'current', locale: 'en' } as const;

describe('review commands', () => {
  let project: Awaited<ReturnType<typeof tempProject>>;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    project = await tempProject('kit-review-');
    await writeFiles(project.dir, {
      'kit.config.mjs': `export default {
  sets: {
    docs: { source: { driver: 'database' } },
    guide: { route: { prefix: 'guide' }, source: { path: 'guide' } },
  },
};
`,
      'guide/kit.json': '{ "name": "Guide" }',
      'guide/index.md': '# Guide\n',
    });
    // Drafts as an agent leaves them over the web endpoint; the kit is closed before the commands
    // run, as PGlite's folder is one process's at a time.
    const kit = await loadKit({ cwd: project.dir, env: {} });
    try {
      const { db } = kit.set('docs').source as DbContentSource;
      const home = await writePage(db, 'docs', { ...page, path: 'index', body: '# Home\n\nWelcome.\n' });
      await writePage(db, 'docs', { ...page, path: 'old', body: '# Old\n\nStill here.\n' });
      const first = await writePage(
        db,
        'docs',
        { ...page, path: 'index', body: '# Home\n\nWelcome back.\n' },
        { status: 'draft', author: 'agent:claude', summary: 'Warmer welcome', basedOn: home.contentHash },
      );
      const second = await writePage(
        db,
        'docs',
        { ...page, path: 'index', body: '# Home\n\nHello there.\n' },
        { status: 'draft', author: 'agent:claude', summary: 'Another welcome', basedOn: home.contentHash },
      );
      const moved = await movePage(
        db,
        'docs',
        { ...page, path: 'old' },
        { ...page, path: 'new' },
        { status: 'draft', author: 'agent:claude' },
      );
      ids.first = first.revision!.id;
      ids.second = second.revision!.id;
      ids.move = moved.revision!.id;
    } finally {
      await kit.close();
    }
  }, 180_000);
  afterAll(async () => {
    await project?.cleanup();
  });

  // The operator reviewing the agent's drafts, named by their account as the review rule reads it.
  const kit = (...args: string[]) => runKitHere(args, { cwd: project.dir, env: { USER: 'editor' } });

  it('lists each draft with author, summary, age, page and a unified diff against the live content', async () => {
    const run = await kit('drafts');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('3 drafts in the "docs" docs:');
    expect(run.stdout).toContain(`Draft ${ids.first}: change to page "index" (current/en)`);
    expect(run.stdout).toContain('by agent:claude, just now: Warmer welcome');
    expect(run.stdout).toContain('  --- a/current/en/index.md\n  +++ b/current/en/index.md\n');
    expect(run.stdout).toContain('  -Welcome.\n  +Welcome back.\n');
    expect(run.stdout).toContain(`Draft ${ids.move}: move of page "old" (current/en) to "new" (current/en)`);
    const json = JSON.parse((await kit('drafts', '--json')).stdout) as {
      drafts: Array<{ id: string; stale: boolean }>;
    };
    expect(json.drafts.map((draft) => [draft.id, draft.stale])).toEqual([
      [ids.first, false],
      [ids.second, false],
      [ids.move, false],
    ]);
  });

  it('publishes a draft, then refuses the second draft of the same page as conflicted with exit code 1', async () => {
    const published = await kit('drafts', 'publish', ids.first!);
    expect(published.stdout).toContain(`published: Published draft ${ids.first}: page "index" (current/en) is live`);
    expect(published.code).toBe(0);
    const stale = await kit('drafts');
    expect(stale.stdout).toContain('stale: the live content changed since this draft was written');
    const conflicted = await kit('drafts', 'publish', ids.second!);
    expect(conflicted.stdout).toContain(`conflicted: Draft ${ids.second} was not published`);
    expect(conflicted.code).toBe(1);
    const again = await kit('drafts', 'publish', ids.first!);
    expect(again.stdout).toContain('unchanged: ');
    expect(again.code).toBe(0);
  });

  it('discards a draft and keeps it in the page history as discarded', async () => {
    const discarded = await kit('drafts', 'discard', ids.second!);
    expect(discarded.stdout).toContain(`discarded: Discarded draft ${ids.second}`);
    const history = JSON.parse((await kit('history', 'index', '--json')).stdout) as {
      revisions: Array<{ id: string; status: string; action: string }>;
    };
    expect(history.revisions.find((revision) => revision.id === ids.second)?.status).toBe('discarded');
    expect(history.revisions.find((revision) => revision.id === ids.first)?.status).toBe('applied');
    expect(history.revisions[0]).toMatchObject({ status: 'published', action: 'write' });
    const text = (await kit('history', 'index')).stdout;
    expect(text).toContain('Page "index" (current/en) of the "docs" docs: live sha256:');
    expect(text).toMatch(new RegExp(`\\s${ids.second}\\s+write\\s+discarded`));
  });

  it('publishes a drafted move whole: the page is at its new path and gone from the old one', async () => {
    const published = await kit('drafts', 'publish', '--all');
    expect(published.stdout).toContain(`published: Published draft ${ids.move}`);
    expect((await kit('drafts')).stdout).toContain('No drafts wait for review');
    const oldHistory = JSON.parse((await kit('history', 'old', '--json')).stdout) as { current_hash: string | null };
    expect(oldHistory.current_hash).toBeNull();
    const newHistory = JSON.parse((await kit('history', 'new', '--json')).stdout) as { current_hash: string | null };
    expect(newHistory.current_hash).toMatch(/^sha256:/);
  });

  it('restores a deleted page, and an older revision of a live one, and shows the diff between revisions', async () => {
    const restored = await kit('restore', 'old');
    expect(restored.stdout).toContain('published: Restored page "old" (current/en)');
    const history = JSON.parse((await kit('history', 'index', '--json')).stdout) as {
      current_hash: string;
      revisions: Array<{ id: string; status: string; action: string }>;
    };
    const original = history.revisions.filter((revision) => revision.status === 'published').at(-1)!;
    const diff = await kit('history', 'index', '--diff', `${original.id}`);
    expect(diff.stdout).toContain('-Welcome.\n+Welcome back.\n');
    const stale = await kit('restore', 'index', '--revision', original.id, '--based-on', 'sha256:0000');
    expect(stale.stdout).toContain('conflicted: ');
    expect(stale.code).toBe(1);
    const back = await kit('restore', 'index', '--revision', original.id, '--based-on', history.current_hash);
    expect(back.stdout).toContain(`published: Restored page "index" (current/en) from revision ${original.id}`);
    const twice = await kit('restore', 'index', '--revision', original.id);
    expect(twice.stdout).toContain('unchanged: ');
  });

  it('says clearly that a repository set has no drafts, history or restore', async () => {
    for (const args of [['drafts'], ['drafts', 'publish', '1'], ['history', 'index'], ['restore', 'index']]) {
      const run = await kit('--set', 'guide', ...args);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('is a repository set: it has no drafts');
      expect(run.stderr).toContain('pull requests');
    }
  });
});
