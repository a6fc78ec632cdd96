// The Markdown twin's ?section=, ?max_chars= and ?cursor=, over the real Laravel corpus, and its
// staleness note over a git fixture.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Kit } from '@kit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKitApp } from './app.js';
import { fixtureKit } from './testing/fixture.js';

const CONTINUED = '\n> **Continued:**';

function bodyOf(text: string): string {
  const continued = text.lastIndexOf(CONTINUED);
  return continued !== -1 ? text.slice(0, continued) : text.slice(0, text.lastIndexOf('\ncontent_hash: '));
}

/** The twin without the llms.txt directive line every whole twin carries (tested on its own above). */
function withoutDirective(text: string): string {
  return text.replace(/^> For AI agents: [^\n]*\n\n/m, '');
}

describe('the Markdown twin of a long Laravel page', () => {
  let kit: Kit;
  let app: ReturnType<typeof createKitApp>;
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const response = await app.request(`https://docs.test${path}`, { headers });
    return { response, text: await response.text() };
  };

  beforeAll(() => {
    kit = fixtureKit(
      { sets: { docs: { route: { prefix: 'docs' }, source: { path: 'laravel' }, html_input: 'allow' } } },
      { root: `${process.env.KIT_SHARED_DIR}/corpora` },
    );
    app = createKitApp({ kit });
  });
  afterAll(() => kit.close());

  it('stays whole without parameters, exactly as before', async () => {
    const { response, text } = await get('/docs/13.x/queues.md');
    expect(response.status).toBe(200);
    const page = await kit.set().getPage({ version: '13.x', path: 'queues' }, { user: null });
    // The whole twin is the page plus the llms.txt directive every twin carries.
    expect(text).toContain('> For AI agents: the index of these docs is at [llms.txt]');
    expect(withoutDirective(text)).toBe(page!.agentMarkdown);
    expect(text.length).toBeGreaterThan(120_000);
    expect(text).not.toContain(CONTINUED);
  });

  it('pages with ?max_chars= and ?cursor=, reaching every character exactly once', async () => {
    const whole = withoutDirective((await get('/docs/13.x/queues.md')).text);
    const page = whole.slice(0, whole.lastIndexOf('\ncontent_hash: '));
    const bodies: string[] = [];
    let url = '/docs/13.x/queues.md?max_chars=20000';
    for (let step = 0; step < 100; step += 1) {
      const { response, text } = await get(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      expect(text.length).toBeLessThanOrEqual(20_000);
      bodies.push(bodyOf(text));
      // The twin names its own next address in its last lines.
      const next = /GET (\S+\?cursor=[A-Za-z0-9_-]+)/.exec(text)?.[1];
      if (!next) break;
      url = new URL(next, 'https://docs.test/').pathname + new URL(next, 'https://docs.test/').search;
    }
    expect(bodies.length).toBeGreaterThanOrEqual(7);
    expect(bodies.join('')).toBe(page);
  });

  it('reads the same parts as read_page: the default budget applies to any query', async () => {
    const first = await get('/docs/13.x/queues.md?cursor=');
    expect(first.response.status).toBe(400);
    const part = await get('/docs/13.x/queues.md?section=Job%20Batching&section=Creating%20Jobs');
    expect(part.response.status).toBe(200);
    const read = await kit.set().readPage(
      {
        path: 'queues',
        version: '13.x',
        section: ['Job Batching', 'Creating Jobs'],
        maxChars: 'budget',
        staleness: true,
      },
      { user: null },
    );
    expect(part.text).toBe(read.text);
    expect(part.text.startsWith('## Creating Jobs {#creating-jobs}\n')).toBe(true);
    expect(part.text).toContain('\n## Job Batching {#job-batching}\n');
  });

  it("answers ?subsections=false with a section's own text", async () => {
    const own = (await get('/docs/13.x/queues.md?section=job-batching&subsections=false')).text;
    const all = (await get('/docs/13.x/queues.md?section=job-batching&max_chars=1000000')).text;
    expect(own.startsWith("## Job Batching {#job-batching}\n\nLaravel's job batching feature")).toBe(true);
    expect(own).not.toMatch(/\n### /);
    expect(own).toMatch(/\n\ncontent_hash: sha256:[0-9a-f]{64}\n$/);
    expect(all).toMatch(/\n### Defining Batchable Jobs/);
    expect(all.startsWith(bodyOf(own).trimEnd())).toBe(true);
  });

  it('answers a missing section with 404 in Markdown naming the sections', async () => {
    const { response, text } = await get('/docs/13.x/queues.md?section=Nope');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(text).toMatch(/^# section\.not_found\n\nPage "queues" has no section "Nope"\. Its \d+ sections: /);
  });

  it('answers a query on the HTML address only when Markdown is asked for', async () => {
    const html = await get('/docs/13.x/queues?section=Job%20Batching');
    expect(html.response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const markdown = await get('/docs/13.x/queues?section=Job%20Batching', { Accept: 'text/markdown' });
    expect(markdown.text.startsWith('## Job Batching {#job-batching}\n')).toBe(true);
  });
});

describe('the staleness note on the Markdown twin', () => {
  let repo: string;
  let kit: Kit;
  let app: ReturnType<typeof createKitApp>;

  const git = (date: string, ...args: string[]) =>
    execFileSync('git', args, {
      cwd: repo,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_CONFIG_NOSYSTEM: '1',
        HOME: repo,
        GIT_AUTHOR_NAME: 'Kit Test',
        GIT_AUTHOR_EMAIL: 'kit@example.com',
        GIT_COMMITTER_NAME: 'Kit Test',
        GIT_COMMITTER_EMAIL: 'kit@example.com',
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_DATE: date,
      },
    }).trim();
  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(repo, file)), { recursive: true });
    writeFileSync(join(repo, file), text);
  };
  const commit = (date: string, message: string) => {
    git(date, 'add', '-A');
    git(date, 'commit', '--quiet', '-m', message);
    return git(date, 'rev-parse', 'HEAD');
  };

  beforeAll(() => {
    repo = mkdtempSync(join(tmpdir(), 'kit-http-stale-'));
    git('2026-01-01T09:00:00Z', 'init', '--quiet', '--initial-branch=main');
    write('docs/kit.json', '{ "name": "Stale" }\n');
    write('docs/cache.md', '---\ntitle: Cache\nsources: [src/cache.ts]\n---\n# Cache\n\nEntries expire.\n');
    write('src/cache.ts', 'export const ttl = 60;\n');
    commit('2026-01-01T09:00:00Z', 'first');
    kit = fixtureKit(
      { sets: { docs: { route: { prefix: 'docs' }, source: { path: 'docs' } } } },
      { root: repo, staleness: true },
    );
    app = createKitApp({ kit });
  });
  afterAll(async () => {
    await kit.close();
    rmSync(repo, { recursive: true, force: true });
  });

  it('has no note while the sources are older than the page, and one on top once they change', async () => {
    const fresh = withoutDirective(await (await app.request('https://docs.test/docs/cache.md')).text());
    expect(fresh.startsWith('# Cache\n')).toBe(true);
    write('src/cache.ts', 'export const ttl = 120;\n');
    const changed = commit('2026-03-04T09:00:00Z', 'longer ttl');
    const stale = withoutDirective(await (await app.request('https://docs.test/docs/cache.md')).text());
    expect(stale).toBe(
      `> **Possibly out of date:** code this page documents changed after the page did: \`src/cache.ts\` (newest: commit ${changed.slice(0, 12)}, 2026-03-04). Check the code before relying on it.\n\n# Cache\n\nEntries expire.\n\ncontent_hash: ${(await kit.set().getPage({ path: 'cache' }, { user: null }))!.page.contentHash}\n`,
    );
    const part = await (await app.request('https://docs.test/docs/cache.md?section=cache')).text();
    expect(part.startsWith('> **Possibly out of date:**')).toBe(true);
  });
});
