import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Kit } from '@kit/core';
import type { ReaderClientConfig } from '@kit/render';
import { afterAll, describe, expect, it } from 'vitest';
import { createKitApp } from './app.js';
import { fixtureKit } from './testing/fixture.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function writeSet(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'kit-reader-view-'));
  folders.push(root);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, 'docs', name)), { recursive: true });
    writeFileSync(join(root, 'docs', name), text);
  }
  return root;
}

/** A kit over `<root>/docs` as a repository set reads it, git history included. */
function kitOver(root: string): Kit {
  return fixtureKit({ sets: { docs: { route: { prefix: 'docs' }, source: { path: 'docs' } } } }, { root, git: true });
}

function git(repo: string, args: string[], date?: Date): void {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: repo };
  for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE']) delete env[name];
  if (date) {
    const when = date.toISOString();
    Object.assign(env, {
      GIT_AUTHOR_NAME: 'Ann',
      GIT_AUTHOR_EMAIL: 'ann@example.com',
      GIT_AUTHOR_DATE: when,
      GIT_COMMITTER_NAME: 'Ann',
      GIT_COMMITTER_EMAIL: 'ann@example.com',
      GIT_COMMITTER_DATE: when,
    });
  }
  execFileSync('git', args, { cwd: repo, env, stdio: 'ignore' });
}

const PAGES = {
  'kit.json': JSON.stringify({ name: 'Handbook' }),
  'navigation.json': JSON.stringify({ groups: [{ label: 'Start', pages: ['index', 'old', 'new'] }] }),
  'index.md': '# Home\n\nWelcome.\n',
  'old.md': '# Old\n\nUnchanged for a while.\n',
  'new.md': '# New\n\nJust written.\n',
};

function clientConfig(html: string): ReaderClientConfig {
  const match = /<script type="application\/json" id="kit-reader-config">([^<]*)<\/script>/.exec(html);
  return JSON.parse(match![1]!) as ReaderClientConfig;
}

describe('interface strings on a right-to-left page', () => {
  const app = createKitApp({ kit: fixtureKit() });

  it("writes every interface string of an Arabic page in Arabic, marking only the set's own English", async () => {
    const html = await (await app.request('/docs/ar')).text();
    expect(html).toMatch(/<html[^>]*dir="rtl"/);
    expect(html).toContain('<h2 class="kit-feedback-title" id="kit-feedback-title">هل كانت هذه الصفحة مفيدة؟</h2>');
    expect(html).toContain('<a class="kit-skip-link" href="#kit-content">انتقل إلى المحتوى</a>');
    expect(html).toContain('ما الذي كان ناقصًا أو خاطئًا؟ (اختياري)');
    // Kit translates every interface string into Arabic: nothing is left in English, in the page or
    // in the strings the script writes later (feedback thanks, search status).
    // The one English text left is the set's own: a navigation group label, not interface text.
    expect([...html.matchAll(/<span lang="en" dir="ltr">([^<]*)</g)].map((m) => m[1])).toEqual(['Overview']);
    expect(clientConfig(html).strings.thanks).toBe('شكرًا على ملاحظاتك!');
    expect(clientConfig(html).stringLanguages).toBeUndefined();
  });

  it('leaves the strings of an English page unmarked', async () => {
    const html = await (await app.request('/docs')).text();
    expect(html).toContain('<h2 class="kit-feedback-title" id="kit-feedback-title">Was this page helpful?</h2>');
    expect(html).not.toContain('<span lang="en" dir="ltr">');
    expect(clientConfig(html).stringLanguages).toBeUndefined();
  });
});

describe('freshness dots and update dates', () => {
  it('shows no dot and no update date outside git, however new the files are', async () => {
    // Written a moment ago: the files' own time says "changed today" for every page.
    const root = writeSet(PAGES);
    const html = await (await createKitApp({ kit: kitOver(root) }).request('/docs/new')).text();
    expect(html).not.toContain('data-kit-fresh');
    expect(html).not.toContain('data-updated=');
    expect(html).not.toContain('Last updated');
    expect(clientConfig(html).updatedAt).toBeNull();
  });

  it('dates pages by their last commit: a dot for a page committed within fresh_days, none for older', async () => {
    const root = writeSet(PAGES);
    git(root, ['init', '-q', '-b', 'main']);
    git(root, ['add', 'docs/kit.json', 'docs/navigation.json', 'docs/index.md', 'docs/old.md']);
    const tenDaysAgo = new Date(Date.now() - 10 * DAY);
    git(root, ['commit', '-q', '-m', 'Old pages'], tenDaysAgo);
    git(root, ['add', 'docs/new.md']);
    const anHourAgo = new Date(Math.floor((Date.now() - HOUR) / 1000) * 1000);
    git(root, ['commit', '-q', '-m', 'New page'], anHourAgo);

    const html = await (await createKitApp({ kit: kitOver(root) }).request('/docs/new')).text();
    const link = (path: string) =>
      new RegExp(`<a class="kit-nav-link"[^>]*data-path="${path}"[^>]*>.*?</a>`).exec(html)?.[0];
    expect(link('new')).toContain(`data-updated="${anHourAgo.toISOString()}"`);
    expect(link('new')).toContain('data-kit-fresh');
    expect(link('old')).toContain(
      `data-updated="${new Date(Math.floor(tenDaysAgo.getTime() / 1000) * 1000).toISOString()}"`,
    );
    expect(link('old')).not.toContain('data-kit-fresh');
    expect(html).toContain(`Last updated <time datetime="${anHourAgo.toISOString()}">`);
  });
});

describe('page actions', () => {
  const app = createKitApp({ kit: fixtureKit() });
  const actionsOf = (html: string) =>
    /<nav class="kit-page-actions[^"]*" aria-label="[^"]*" data-kit-page-actions>.*?<\/nav>/.exec(html)?.[0];

  it('point a public page at its absolute Markdown URL and the set MCP endpoint', async () => {
    const html = await (await app.request('http://acme.test/docs/queues')).text();
    const actions = actionsOf(html)!;
    expect(actions).toContain('data-kit-copy-page="http://acme.test/docs/queues.md"');
    expect(actions).toContain(
      encodeURIComponent('Read http://acme.test/docs/queues.md so I can ask questions about it.'),
    );
    expect(actions).toContain('claude.ai/new?q=');
    expect(actions).toContain('claude mcp add --transport http docs http://acme.test/docs/mcp');
  });

  it('never hand a private page to a chat assistant, which could not read it anyway', async () => {
    const html = await (
      await app.request('http://acme.test/docs/internal/roadmap', { headers: { Authorization: 'Bearer staff' } })
    ).text();
    expect(html).toContain('zeppelin');
    const actions = actionsOf(html)!;
    expect(actions).toContain('data-kit-copy-page="http://acme.test/docs/internal/roadmap.md"');
    expect(actions).not.toContain('chatgpt.com');
    expect(actions).not.toContain('claude.ai');
  });

  it('follow the manifest: pageActions false offers none, a list only those named', async () => {
    const root = writeSet({ ...PAGES, 'kit.json': JSON.stringify({ name: 'Handbook', pageActions: false }) });
    const none = await (await createKitApp({ kit: kitOver(root) }).request('/docs/old')).text();
    expect(none).not.toContain('data-kit-page-actions');
    const listed = writeSet({ ...PAGES, 'kit.json': JSON.stringify({ name: 'Handbook', pageActions: ['markdown'] }) });
    const html = await (await createKitApp({ kit: kitOver(listed) }).request('/docs/old')).text();
    const actions = actionsOf(html)!;
    expect(actions).toContain('View as Markdown');
    expect(actions).not.toContain('data-kit-copy-page');
    expect(actions).not.toContain('chatgpt.com');
    expect(actions).not.toContain('cursor:');
  });
});
