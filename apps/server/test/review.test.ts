import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { type ServerType, serve } from '@hono/node-server';
import { runCli } from '@kit/cli';
import type { KitEventMap } from '@kit/core';
import { writePageTool } from '@kit/core/internal';
import { createKitApp } from '@kit/http-hono';
import { type LoadedKit, loadKit } from '@kit/node';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The whole review path on a database set: an agent drafts through the web MCP endpoint (real SDK
// client over HTTP), another editor publishes from the review screen in Chromium (the author sees
// why they may not), readers see the change; then discard, history and restore through MCP and
// through the CLI. Once on PGlite, once on
// PostgreSQL when KIT_TEST_DATABASE_URL is set.
const chromiumPath = process.env.KIT_TEST_CHROMIUM;
const databaseUrl = process.env.KIT_TEST_DATABASE_URL;
const LAUNCH_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-sync'];

type Events = {
  published: Array<KitEventMap['DraftPublished']>;
  discarded: Array<KitEventMap['DraftDiscarded']>;
  restored: Array<KitEventMap['PageRestored']>;
};

interface Decision {
  outcome: string;
  message: string;
  draft: { id: string } | null;
  revision: { id?: string; content_hash: string } | null;
}

function listen(
  fetch: (request: Request) => Response | Promise<Response>,
): Promise<{ origin: string; server: ServerType }> {
  return new Promise((done) => {
    const server = serve({ fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) =>
      done({ origin: `http://127.0.0.1:${info.port}`, server }),
    );
  });
}

async function runKit(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  stderr.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  // The operator on the server, named by their account: not the agent whose drafts they review.
  const env = { NO_COLOR: '1', USER: 'operator' };
  const code = await runCli(args, { stdout, stderr, stdin: Readable.from(['']), env, cwd });
  return { code, stdout: out, stderr: err };
}

function reviewRoundTrip(name: string, url: string | undefined) {
  describe.skipIf(!chromiumPath)(name, () => {
    // A set key of its own, so runs sharing one PostgreSQL never meet.
    const key = `review_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
    let root: string;
    let kit: LoadedKit | null = null;
    let http: { origin: string; server: ServerType } | null = null;
    let browser: Browser;
    let axeSource: string;
    const events: Events = { published: [], discarded: [], restored: [] };
    const clients: Client[] = [];
    const drafts: Record<string, string> = {};

    const endpoint = () => new URL(`${http!.origin}/docs/mcp`);
    async function connect(token: string | null): Promise<Client> {
      const client = new Client({ name: token ? `agent-${token}` : 'guest', version: '1.0.0' });
      const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
      await client.connect(new StreamableHTTPClientTransport(endpoint(), { requestInit: { headers } }));
      clients.push(client);
      return client;
    }
    async function call(client: Client, tool: string, args: Record<string, unknown>) {
      const result = await client.callTool({ name: tool, arguments: args });
      expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
      return result;
    }
    const decision = async (client: Client, tool: string, args: Record<string, unknown>) =>
      (await call(client, tool, args)).structuredContent as unknown as Decision;
    const reader = async (path = '') => (await fetch(`${http!.origin}/docs${path}`)).text();
    async function editorPage(token: string): Promise<Page> {
      const context = await browser.newContext({ extraHTTPHeaders: { Authorization: `Bearer ${token}` } });
      return context.newPage();
    }

    beforeAll(async () => {
      root = mkdtempSync(join(tmpdir(), 'kit-review-e2e-'));
      const connection = url ? `connections: { default: { url: ${JSON.stringify(url)} } },` : '';
      writeFileSync(
        join(root, 'kit.config.mjs'),
        `const users = { ada: { id: 'ada', role: 'admin' }, grace: { id: 'grace', role: 'admin' }, linus: { id: 'linus', role: 'admin' }, rita: { id: 'rita', role: 'reader' } };
export default {
  ${connection}
  default: '${key}',
  review: 'required',
  sets: { ${key}: { route: { prefix: 'docs' }, source: { driver: 'database' }, mcp: { web: { author_tools: true } } } },
  gates: { manageKit: (user) => user?.role === 'admin', reviewKit: (user) => user?.role === 'admin' },
  resolveUser: (request) => users[/^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1] ?? ''] ?? null,
};
`,
      );
      kit = await loadKit({ cwd: root, env: {}, git: false });
      kit.events.on('DraftPublished', (event) => void events.published.push(event));
      kit.events.on('DraftDiscarded', (event) => void events.discarded.push(event));
      kit.events.on('PageRestored', (event) => void events.restored.push(event));
      const operator = { viewer: { user: null, local: true }, channel: 'local' } as const;
      for (const [path, body] of [
        ['index', '# Home\n\nWelcome.\n'],
        ['webhooks', '# Webhooks\n\nEvents over HTTP.\n'],
      ] as const) {
        const written = await writePageTool(kit.set(key), { path, body, frontmatter: { title: path } }, operator);
        expect(written.outcome).toBe('published');
      }
      http = await listen(createKitApp({ kit, cacheDir: null }).fetch);
      axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
      const { chromium } = await import('playwright-core');
      browser = await chromium.launch({ executablePath: chromiumPath, args: LAUNCH_ARGS });
      expect(await reader()).toContain('Welcome.');
    }, 180_000);

    afterAll(async () => {
      for (const client of clients) await client.close().catch(() => {});
      await browser?.close();
      await new Promise<void>((done) => (http ? http.server.close(() => done()) : done()));
      await kit?.close();
      if (root) rmSync(root, { recursive: true, force: true });
    });

    it('offers the review tools to a manager only, and shows the screen to nobody else', async () => {
      const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);
      const ada = await connect('ada');
      expect(await names(ada)).toEqual(
        expect.arrayContaining(['list_drafts', 'publish_draft', 'discard_draft', 'list_revisions', 'restore_page']),
      );
      for (const client of [await connect('rita'), await connect(null)]) {
        const offered = await names(client);
        for (const tool of ['list_drafts', 'publish_draft', 'discard_draft', 'list_revisions', 'restore_page']) {
          expect(offered).not.toContain(tool);
        }
      }
      for (const headers of [{ Authorization: 'Bearer rita' }, {}] as Array<Record<string, string>>) {
        const response = await fetch(`${http!.origin}/docs/_kit/review`, { headers });
        expect(response.status).toBe(404);
        expect(await response.text()).not.toContain('Drafts waiting');
        const post = await fetch(`${http!.origin}/docs/_kit/review/publish`, {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: 'id=1',
        });
        expect(post.status).toBe(404);
      }
    });

    it('drafts two agent changes to one page over the web endpoint; readers see neither', async () => {
      const agent = await connect('ada');
      const read = await call(agent, 'read_page', { path: 'index' });
      const basedOn = (read._meta as { content_hash: string }).content_hash;
      const first = await decision(agent, 'write_page', {
        path: 'index',
        body: '# Home\n\nWelcome back, **reader**.\n',
        based_on: basedOn,
        summary: 'Warmer welcome',
      });
      const second = await decision(agent, 'write_page', {
        path: 'index',
        body: '# Home\n\nHello there.\n',
        based_on: basedOn,
        summary: 'Shorter welcome',
      });
      expect([first.outcome, second.outcome]).toEqual(['drafted', 'drafted']);
      drafts.first = first.revision!.id!;
      drafts.second = second.revision!.id!;
      expect(await reader()).toContain('Welcome.');
      const listed = (await call(agent, 'list_drafts', {})).structuredContent as {
        drafts: Array<{ id: string; author: string; summary: string; diff: string; stale: boolean }>;
      };
      expect(listed.drafts.map((draft) => [draft.id, draft.author, draft.summary, draft.stale])).toEqual([
        [drafts.first, 'ada', 'Warmer welcome', false],
        [drafts.second, 'ada', 'Shorter welcome', false],
      ]);
      expect(listed.drafts[0]!.diff).toContain('-Welcome.\n+Welcome back, **reader**.\n');
    });

    it('shows the author of a draft why they may not decide it, instead of the buttons', async () => {
      const page = await editorPage('ada');
      await page.goto(`${http!.origin}/docs/_kit/review`);
      const first = page.locator(`article[data-draft="${drafts.first}"]`);
      expect(await first.getByRole('button', { name: 'Publish' }).count()).toBe(0);
      expect(await first.locator('.kit-review-own').textContent()).toContain('it was written by "ada", which is you');
      await page.context().close();
    });

    it('lets another editor publish from the review screen in a browser; the page changes for readers', async () => {
      const page = await editorPage('grace');
      const response = await page.goto(`${http!.origin}/docs/_kit/review`);
      expect(response?.status()).toBe(200);
      const first = page.locator(`article[data-draft="${drafts.first}"]`);
      expect(await first.locator('h2').textContent()).toBe(`Draft ${drafts.first}: Change to page “index”`);
      // Side by side: the live page and the draft, each rendered.
      expect(await first.locator('section[aria-label^="Live"] .kit-prose').textContent()).toContain('Welcome.');
      expect(await first.locator(`section[aria-label="Draft ${drafts.first}"] strong`).textContent()).toBe('reader');
      expect(await first.locator('.kit-review-diff ins').first().textContent()).toContain('+Welcome back');

      await page.addScriptTag({ content: axeSource });
      const violations = await page.evaluate(async () => {
        const axe = (
          window as unknown as {
            axe: { run: (d: Document, o: unknown) => Promise<{ violations: Array<{ id: string; impact: string }> }> };
          }
        ).axe;
        const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa'] } });
        return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
      });
      expect(violations).toEqual([]);

      await first.getByRole('button', { name: 'Publish' }).click();
      await page.waitForLoadState();
      const notice = page.locator('[data-outcome]');
      expect(await notice.getAttribute('data-outcome')).toBe('published');
      expect(await notice.textContent()).toContain(`Published draft ${drafts.first}`);
      expect(await page.locator(`article[data-draft="${drafts.first}"]`).count()).toBe(0);
      expect(await reader()).toContain('Welcome back, <strong>reader</strong>.');
      expect(
        events.published.map((event) => [event.draft, event.source, event.author, event.publisher, event.user]),
      ).toEqual([[drafts.first, 'screen', 'ada', 'grace', { id: 'grace', role: 'admin' }]]);
      await page.context().close();
    });

    it('refuses the second draft of the same page as conflicted, from the keyboard, and writes nothing', async () => {
      const page = await editorPage('grace');
      await page.goto(`${http!.origin}/docs/_kit/review`);
      const second = page.locator(`article[data-draft="${drafts.second}"]`);
      expect(await second.locator('.kit-review-stale').textContent()).toContain('Stale:');
      await second.getByRole('button', { name: 'Publish' }).focus();
      const [answer] = await Promise.all([
        page.waitForResponse(/\/_kit\/review\/publish$/),
        page.keyboard.press('Enter'),
      ]);
      expect(answer.status()).toBe(409);
      await page.waitForLoadState();
      const alert = page.getByRole('alert');
      expect(await alert.getAttribute('data-outcome')).toBe('conflicted');
      expect(await alert.textContent()).toContain(`Draft ${drafts.second} was not published`);
      expect(await reader()).toContain('Welcome back, <strong>reader</strong>.');
      await page.context().close();
    });

    it('refuses a form that did not come from the screen (no matching token, or another origin)', async () => {
      const headers = { Authorization: 'Bearer ada', 'Content-Type': 'application/x-www-form-urlencoded' };
      const forged = await fetch(`${http!.origin}/docs/_kit/review/discard`, {
        method: 'POST',
        headers,
        body: `id=${drafts.second}&csrf=${'x'.repeat(32)}`,
      });
      expect(forged.status).toBe(403);
      const screen = await fetch(`${http!.origin}/docs/_kit/review`, { headers: { Authorization: 'Bearer ada' } });
      const cookie = screen.headers.get('set-cookie')!.split(';')[0]!;
      const token = cookie.split('=')[1]!;
      const elsewhere = await fetch(`${http!.origin}/docs/_kit/review/discard`, {
        method: 'POST',
        headers: { ...headers, Cookie: cookie, Origin: 'https://evil.example' },
        body: `id=${drafts.second}&csrf=${token}`,
      });
      expect(elsewhere.status).toBe(403);
      expect(events.discarded).toEqual([]);
    });

    it('discards, lists revisions and restores through MCP, with the same outcomes', async () => {
      const agent = await connect('ada');
      const reviewer = await connect('grace');
      const own = await decision(agent, 'discard_draft', { id: drafts.second });
      expect([own.outcome, (own as Decision & { rule?: string }).rule]).toEqual(['rejected', 'review.self_publish']);
      const discarded = await decision(reviewer, 'discard_draft', { id: drafts.second });
      expect(discarded.outcome).toBe('discarded');
      expect((await decision(reviewer, 'discard_draft', { id: drafts.second })).outcome).toBe('unchanged');
      expect((await decision(reviewer, 'publish_draft', { id: drafts.second })).outcome).toBe('rejected');
      expect(events.discarded.map((event) => [event.draft, event.source])).toEqual([[drafts.second, 'mcp']]);

      const read = await call(agent, 'read_page', { path: 'webhooks' });
      const hash = (read._meta as { content_hash: string }).content_hash;
      const deletion = await decision(agent, 'delete_page', { path: 'webhooks', based_on: hash });
      expect(deletion.outcome).toBe('drafted');
      expect(await reader('/webhooks')).toContain('Events over HTTP.');
      expect((await decision(reviewer, 'publish_draft', { id: deletion.revision!.id! })).outcome).toBe('published');
      expect((await fetch(`${http!.origin}/docs/webhooks`)).status).toBe(404);

      const history = (await call(agent, 'list_revisions', { path: 'webhooks' })).structuredContent as {
        current_hash: string | null;
        revisions: Array<{ action: string; status: string }>;
      };
      expect(history.current_hash).toBeNull();
      expect(history.revisions.map((revision) => [revision.action, revision.status])).toEqual([
        ['delete', 'published'],
        ['delete', 'applied'],
        ['write', 'published'],
      ]);
      const restored = await decision(agent, 'restore_page', { path: 'webhooks' });
      expect(restored.outcome).toBe('published');
      expect(await reader('/webhooks')).toContain('Events over HTTP.');
      expect(events.restored.map((event) => [event.path, event.source])).toEqual([['webhooks', 'mcp']]);
      const indexHistory = (await call(agent, 'list_revisions', { path: 'index' })).structuredContent as {
        revisions: Array<{ id: string; status: string }>;
      };
      const oldest = indexHistory.revisions.filter((revision) => revision.status === 'published').at(-1)!;
      const stale = await decision(agent, 'restore_page', { path: 'index', based_on: 'sha256:0', revision: oldest.id });
      expect(stale.outcome).toBe('conflicted');
      expect(await reader()).toContain('Welcome back, <strong>reader</strong>.');
    });

    it('publishes a draft exactly once when two editors publish it at the same moment', async () => {
      const agent = await connect('ada');
      const read = await call(agent, 'read_page', { path: 'index' });
      const draft = await decision(agent, 'write_page', {
        path: 'index',
        body: '# Home\n\nRaced.\n',
        based_on: (read._meta as { content_hash: string }).content_hash,
      });
      // Two editors other than its author.
      const [grace, linus] = [await connect('grace'), await connect('linus')];
      const outcomes = await Promise.all(
        [grace, linus].map(
          async (editor) => (await decision(editor, 'publish_draft', { id: draft.revision!.id! })).outcome,
        ),
      );
      expect(outcomes.sort()).toEqual(['published', 'unchanged']);
      expect(events.published.filter((event) => event.draft === draft.revision!.id)).toHaveLength(1);
      expect(await reader()).toContain('Raced.');
    });

    it('round trips drafts, history and restore through the CLI', async () => {
      const agent = await connect('ada');
      const read = await call(agent, 'read_page', { path: 'index' });
      const draft = await decision(agent, 'write_page', {
        path: 'index',
        body: '# Home\n\nFrom the CLI.\n',
        based_on: (read._meta as { content_hash: string }).content_hash,
        summary: 'CLI check',
      });
      const other = await decision(agent, 'write_page', { path: 'extra', body: '# Extra\n' });
      // PGlite's folder is one process's at a time: the server lets go of it first.
      for (const client of clients.splice(0)) await client.close().catch(() => {});
      await new Promise<void>((done) => http!.server.close(() => done()));
      await kit!.close();
      kit = null;

      const listed = await runKit(['drafts'], root);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toContain(`Draft ${draft.revision!.id}: change to page "index" (current/en)`);
      expect(listed.stdout).toContain('by ada, just now: CLI check');
      expect(listed.stdout).toContain('-Raced.\n  +From the CLI.');
      expect((await runKit(['drafts', 'discard', other.revision!.id!], root)).stdout).toContain('discarded: ');
      expect((await runKit(['drafts', 'publish', draft.revision!.id!], root)).stdout).toContain('published: ');
      const history = JSON.parse((await runKit(['history', 'index', '--json'], root)).stdout) as {
        revisions: Array<{ id: string; status: string; action: string }>;
      };
      const original = history.revisions.filter((revision) => revision.status === 'published').at(-1)!;
      const restored = await runKit(['restore', 'index', '--revision', original.id], root);
      expect(restored.stdout).toContain(`published: Restored page "index" (current/en) from revision ${original.id}`);

      kit = await loadKit({ cwd: root, env: {}, git: false });
      const page = await kit.set(key).getPage({ path: 'index' }, { user: null });
      expect(page?.page.body).toContain('Welcome.');
      expect(await kit.set(key).getPage({ path: 'extra' }, { user: null })).toBeNull();
    });
  });
}

reviewRoundTrip('reviewing agent changes on PGlite', undefined);
describe.skipIf(!databaseUrl)('on PostgreSQL (KIT_TEST_DATABASE_URL)', () => {
  reviewRoundTrip('reviewing agent changes on PostgreSQL', databaseUrl);
});
