import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { type ServerType, serve } from '@hono/node-server';
import type { KitEventMap } from '@kit/core';
import { listDrafts } from '@kit/core/internal';
import { createKitApp } from '@kit/http-hono';
import { type LoadedKit, loadKit } from '@kit/node';
import { type DbContentSource, writePage } from '@kit/source-db';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKitHere } from './__fixtures__/in-process.js';
import { tempProject, writeFiles } from './__fixtures__/kit-binary.js';
import { StreamClientTransport } from './__fixtures__/stream-client-transport.js';
import { runCli } from './run.js';

// The review rule (review.self_publish): the author of a draft may neither publish nor discard it;
// someone else decides. One contract, run over the doors a person or an agent reviews through:
// `kit drafts` (the local operator, named by USER), the review screen over real HTTP, the web MCP
// endpoint through the SDK's client, and `kit mcp` (the operator's agent, over stdio). Drafts are
// written as agents write them: `write_page` over the web endpoint with a bearer token.

const EVENTS = '__kitReviewRuleEvents';
type Recorded = {
  published: Array<KitEventMap['DraftPublished']>;
  discarded: Array<KitEventMap['DraftDiscarded']>;
};
const recorded = (): Recorded => (globalThis as unknown as Record<string, Recorded>)[EVENTS]!;

// ada writes and reviews; grace reviews only; bot writes only; nameless has no id or e-mail.
const CONFIG = `
const users = {
  ada: { id: 'ada' },
  grace: { id: 'grace' },
  bot: { id: 'bot' },
  nameless: { name: 'Someone' },
};
const writers = new Set(['ada', 'bot', 'nameless']);
const reviewers = new Set(['ada', 'grace', 'nameless']);
const events = (globalThis.${EVENTS} ??= { published: [], discarded: [] });
const key = (user) => Object.keys(users).find((name) => users[name] === user);
export default {
  review: 'required',
  sets: {
    docs: { route: { prefix: 'docs' }, source: { driver: 'database' }, mcp: { web: { author_tools: true } } },
    open: {
      route: { prefix: 'open' },
      source: { driver: 'database' },
      mcp: { web: { author_tools: true } },
      review_self_publish: true,
    },
  },
  gates: {
    manageKit: (user) => writers.has(key(user)),
    reviewKit: (user) => reviewers.has(key(user)),
  },
  resolveUser: (request) => users[/^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1] ?? ''] ?? null,
  events: {
    DraftPublished: (event) => void events.published.push(event),
    DraftDiscarded: (event) => void events.discarded.push(event),
  },
};
`;

/** A decision as a door reports it. */
interface Decision {
  outcome: string;
  message: string;
  /** The rule that refused it, when one did. */
  rule: string | null;
}

/** One way to decide a draft, acting as the person or token `who` (a user id of the config). */
interface ReviewDoor {
  name: string;
  source: 'cli' | 'screen' | 'mcp';
  decide(action: 'publish' | 'discard', set: string, id: string, who: string): Promise<Decision>;
}

/**
 * A project with two database sets behind a real HTTP server, which it stops while `kit` commands
 * run (PGlite's folder is one process's at a time) and starts again when asked for.
 */
class Harness {
  dir = '';
  private cleanup: () => Promise<void> = async () => {};
  private kit: LoadedKit | null = null;
  private http: { origin: string; server: ServerType } | null = null;
  private clients = new Map<string, Client>();
  private pages = 0;

  async create(): Promise<void> {
    const project = await tempProject('kit-review-rule-');
    this.dir = project.dir;
    this.cleanup = project.cleanup;
    await writeFiles(this.dir, { 'kit.config.mjs': CONFIG });
  }

  async up(): Promise<{ origin: string; kit: LoadedKit }> {
    if (this.kit && this.http) return { origin: this.http.origin, kit: this.kit };
    const kit = await loadKit({ cwd: this.dir, env: {}, git: false });
    const app = createKitApp({ kit, cacheDir: null });
    const http = await new Promise<{ origin: string; server: ServerType }>((done) => {
      const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) =>
        done({ origin: `http://127.0.0.1:${info.port}`, server }),
      );
    });
    this.kit = kit;
    this.http = http;
    return { origin: http.origin, kit };
  }

  async down(): Promise<void> {
    for (const client of this.clients.values()) await client.close().catch(() => {});
    this.clients.clear();
    const http = this.http;
    this.http = null;
    if (http) await new Promise<void>((done) => http.server.close(() => done()));
    await this.kit?.close();
    this.kit = null;
  }

  async destroy(): Promise<void> {
    await this.down();
    await this.cleanup();
  }

  /** The MCP client of `who` on a set's endpoint: one connection per caller, reused as an agent would. */
  async client(set: string, who: string): Promise<Client> {
    const { origin } = await this.up();
    const known = this.clients.get(`${set}:${who}`);
    if (known) return known;
    const client = new Client({ name: `agent-${who}`, version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${origin}/${set}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${who}` } },
      }),
    );
    this.clients.set(`${set}:${who}`, client);
    return client;
  }

  /** A new page drafted by `who` over the web endpoint, as an agent drafts it. */
  async draft(set: string, who: string): Promise<{ id: string; path: string }> {
    const path = `page-${++this.pages}`;
    const client = await this.client(set, who);
    const result = await client.callTool({
      name: 'write_page',
      arguments: { path, body: `# Page ${this.pages}\n\nDrafted by ${who}.\n`, summary: `Draft by ${who}` },
    });
    const written = result.structuredContent as { outcome: string; revision: { id: string } };
    expect(written.outcome, JSON.stringify(result.content)).toBe('drafted');
    return { id: written.revision.id, path };
  }

  /** A draft written through the database API without an author, as code outside Kit's doors can. */
  async anonymousDraft(set: string): Promise<{ id: string; path: string }> {
    const { kit } = await this.up();
    const path = `page-${++this.pages}`;
    const { db } = kit.set(set).source as DbContentSource;
    const written = await writePage(
      db,
      set,
      { version: 'current', locale: 'en', path, body: `# Page ${this.pages}\n\nNo author.\n` },
      { status: 'draft' },
    );
    return { id: written.revision!.id, path };
  }

  /** The ids of the set's pending drafts. */
  async pending(set: string): Promise<string[]> {
    const { kit } = await this.up();
    const { drafts } = await listDrafts(kit.set(set), {
      viewer: { user: null, local: true },
      channel: 'local',
      source: 'cli',
    });
    return drafts.map((draft) => draft.id);
  }

  /** Whether readers get the page. */
  async isLive(set: string, path: string): Promise<boolean> {
    const { origin } = await this.up();
    const response = await fetch(`${origin}/${set}/${path}.md`);
    await response.arrayBuffer();
    return response.status === 200;
  }

  async get(path: string, who: string | null): Promise<Response> {
    const { origin } = await this.up();
    return fetch(`${origin}${path}`, { headers: who ? { Authorization: `Bearer ${who}` } : {} });
  }
}

const harness = new Harness();

function entities(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

const cliDoor: ReviewDoor = {
  name: 'kit drafts (the local operator, named by USER)',
  source: 'cli',
  async decide(action, set, id, who) {
    await harness.down();
    const run = await runKitHere(['--set', set, 'drafts', action, id, '--json'], {
      cwd: harness.dir,
      env: { USER: who },
    });
    expect(run.stderr).toBe('');
    const [result] = JSON.parse(run.stdout) as Array<Decision & { rule?: string }>;
    expect(run.code).toBe(result!.outcome === 'rejected' || result!.outcome === 'conflicted' ? 1 : 0);
    return { outcome: result!.outcome, message: result!.message, rule: result!.rule ?? null };
  },
};

const screenDoor: ReviewDoor = {
  name: 'the review screen over HTTP',
  source: 'screen',
  async decide(action, set, id, who) {
    const { origin } = await harness.up();
    const screen = await harness.get(`/${set}/_kit/review`, who);
    expect(screen.status).toBe(200);
    await screen.text();
    // The form token is the screen's cookie (double submit): what a browser sends with the form.
    const cookie = screen.headers.get('set-cookie')?.split(';')[0];
    const token = cookie?.split('=')[1];
    expect(token).toBeTruthy();
    const response = await fetch(`${origin}/${set}/_kit/review/${action}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${who}`,
        Cookie: cookie!,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ id, csrf: token! }).toString(),
    });
    const page = await response.text();
    const notice =
      /<div role="(?:status|alert)" class="kit-review-notice[^"]*" data-outcome="([a-z]+)"(?: data-rule="([^"]+)")?><strong>[^<]*<\/strong> ([^<]*)<\/div>/.exec(
        page,
      );
    expect(notice, page.slice(0, 2000)).not.toBeNull();
    const rule = notice![2] ?? null;
    // A refusal by the rule is a 403: the request was understood and is not allowed for this caller.
    if (rule) expect(response.status).toBe(403);
    return { outcome: notice![1]!, message: entities(notice![3]!), rule };
  },
};

const mcpDoor: ReviewDoor = {
  name: 'the web MCP endpoint (SDK client, bearer token)',
  source: 'mcp',
  async decide(action, set, id, who) {
    const client = await harness.client(set, who);
    const result = await client.callTool({ name: `${action}_draft`, arguments: { id } });
    expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
    const decided = result.structuredContent as Decision & { rule?: string };
    return { outcome: decided.outcome, message: decided.message, rule: decided.rule ?? null };
  },
};

const localMcpDoor: ReviewDoor = {
  name: 'kit mcp (the operator’s agent over stdio, named by USER)',
  source: 'mcp',
  async decide(action, set, id, who) {
    await harness.down();
    const [stdin, stdout, stderr] = [new PassThrough(), new PassThrough(), new PassThrough()];
    let errors = '';
    stderr.setEncoding('utf8').on('data', (chunk: string) => {
      errors += chunk;
    });
    const exited = runCli(['mcp'], { stdin, stdout, stderr, env: { NO_COLOR: '1', USER: who }, cwd: harness.dir });
    const client = new Client({ name: 'local-agent', version: '1.0.0' });
    try {
      await client.connect(new StreamClientTransport(stdout, stdin));
      const result = await client.callTool({ name: `${action}_draft`, arguments: { id, set } });
      expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
      const decided = result.structuredContent as Decision & { rule?: string };
      return { outcome: decided.outcome, message: decided.message, rule: decided.rule ?? null };
    } finally {
      await client.close();
      expect(await exited, errors).toBe(0);
    }
  },
};

/** The review rule, as every door must enforce it. */
function runReviewRuleContract(door: ReviewDoor): void {
  describe(door.name, () => {
    it('refuses the author publishing their own draft, naming the rule and who may publish it', async () => {
      const draft = await harness.draft('docs', 'ada');
      const result = await door.decide('publish', 'docs', draft.id, 'ada');
      expect(result.outcome).toBe('rejected');
      expect(result.rule).toBe('review.self_publish');
      expect(result.message).toContain(`Draft ${draft.id} was not published`);
      expect(result.message).toContain('written by "ada"');
      expect(result.message).toContain('review.self_publish');
      expect(result.message).toContain('Someone else must publish it');
      expect(result.message).toContain('reviewKit');
      expect(result.message).toContain(`kit drafts publish ${draft.id}`);
      expect(result.message).toContain('review_self_publish');
      expect(await harness.isLive('docs', draft.path)).toBe(false);
      expect(await harness.pending('docs')).toContain(draft.id);
      expect(recorded().published.filter((event) => event.draft === draft.id)).toEqual([]);
    });

    it('refuses the author discarding their own draft; it stays pending', async () => {
      const draft = await harness.draft('docs', 'ada');
      const result = await door.decide('discard', 'docs', draft.id, 'ada');
      expect(result.outcome).toBe('rejected');
      expect(result.rule).toBe('review.self_publish');
      expect(result.message).toContain(`Draft ${draft.id} was not discarded`);
      expect(result.message).toContain('Someone else must discard it');
      expect(await harness.pending('docs')).toContain(draft.id);
      expect(recorded().discarded.filter((event) => event.draft === draft.id)).toEqual([]);
    });

    it('lets someone else publish it; DraftPublished records the author and the publisher', async () => {
      const draft = await harness.draft('docs', 'ada');
      const result = await door.decide('publish', 'docs', draft.id, 'grace');
      expect(result.outcome).toBe('published');
      expect(result.rule).toBeNull();
      expect(await harness.isLive('docs', draft.path)).toBe(true);
      const events = recorded().published.filter((event) => event.draft === draft.id);
      expect(events.map((event) => [event.author, event.publisher, event.source])).toEqual([
        ['ada', 'grace', door.source],
      ]);
    });

    it('lets someone else discard it; DraftDiscarded records the author and who discarded it', async () => {
      const draft = await harness.draft('docs', 'bot');
      const result = await door.decide('discard', 'docs', draft.id, 'ada');
      expect(result.outcome).toBe('discarded');
      expect(await harness.pending('docs')).not.toContain(draft.id);
      const events = recorded().discarded.filter((event) => event.draft === draft.id);
      expect(events.map((event) => [event.author, event.discarder, event.source])).toEqual([
        ['bot', 'ada', door.source],
      ]);
    });

    it('refuses a draft that records no author: nobody can be shown not to have written it', async () => {
      const draft = await harness.anonymousDraft('docs');
      const result = await door.decide('publish', 'docs', draft.id, 'grace');
      expect(result.outcome).toBe('rejected');
      expect(result.rule).toBe('review.self_publish');
      expect(result.message).toContain('records no author');
      expect(await harness.isLive('docs', draft.path)).toBe(false);
    });

    it('lets the author publish their own draft where the set opts in with review_self_publish', async () => {
      const draft = await harness.draft('open', 'ada');
      const result = await door.decide('publish', 'open', draft.id, 'ada');
      expect(result.outcome).toBe('published');
      expect(await harness.isLive('open', draft.path)).toBe(true);
      const events = recorded().published.filter((event) => event.draft === draft.id && event.set === 'open');
      expect(events.map((event) => [event.author, event.publisher])).toEqual([['ada', 'ada']]);
    });
  });
}

describe('the review rule, over every door', () => {
  beforeAll(async () => {
    await harness.create();
    await harness.up();
  }, 180_000);
  afterAll(async () => {
    await harness.destroy();
  });

  for (const door of [cliDoor, screenDoor, mcpDoor, localMcpDoor]) runReviewRuleContract(door);

  describe('on the web, a caller the review rule cannot identify', () => {
    it('may draft but not decide a draft: its user has no id or e-mail', async () => {
      const draft = await harness.draft('docs', 'ada');
      for (const door of [screenDoor, mcpDoor]) {
        const result = await door.decide('publish', 'docs', draft.id, 'nameless');
        expect(result.outcome).toBe('rejected');
        expect(result.rule).toBe('review.self_publish');
        expect(result.message).toContain('cannot tell who you are');
      }
      expect(await harness.isLive('docs', draft.path)).toBe(false);
    });
  });

  describe('the reviewKit gate', () => {
    const reviewTools = ['list_drafts', 'publish_draft', 'discard_draft', 'list_revisions', 'restore_page'];
    const tools = async (who: string) =>
      (await (await harness.client('docs', who)).listTools()).tools.map((tool) => tool.name);

    it('gives a writer the author tools without the review tools, the screen, or a way to publish', async () => {
      const offered = await tools('bot');
      expect(offered).toContain('write_page');
      for (const tool of reviewTools) expect(offered).not.toContain(tool);
      expect((await harness.get('/docs/_kit/review', 'bot')).status).toBe(404);
      const draft = await harness.draft('docs', 'ada');
      const client = await harness.client('docs', 'bot');
      await expect(client.callTool({ name: 'publish_draft', arguments: { id: draft.id } })).rejects.toThrow(
        'There is no tool "publish_draft" for you on this server.',
      );
      expect(await harness.isLive('docs', draft.path)).toBe(false);
    });

    it('gives a reviewer the review tools and the screen without the author tools', async () => {
      const offered = await tools('grace');
      for (const tool of reviewTools) expect(offered).toContain(tool);
      expect(offered).not.toContain('write_page');
      expect((await harness.get('/docs/_kit/review', 'grace')).status).toBe(200);
    });
  });
});
