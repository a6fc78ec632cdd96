import { startTcpProxy } from '@kit/core/testing';
import { createKitApp } from '@kit/http-hono';
import { type LoadedKit, loadKit } from '@kit/node';
import { type DbContentSource, type KitDatabase, openDatabase, writePage } from '@kit/source-db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKit, tempProject, writeFiles } from './__fixtures__/kit-binary.js';

// What readers, agents and authors get from a database set while its database cannot be reached:
// the whole path from an HTTP request through the Hono app, core, MCP and source-db.

const databaseUrl = process.env.KIT_TEST_DATABASE_URL;
const scope = { version: 'current', locale: 'en' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pageText = (n: number) => `# Page ${n}\n\n${`line ${n}\n`.repeat(40)}`;

const configText = (url: string | null) => `
const users = { ada: { id: 'ada', role: 'admin' } };
export default {
  review: 'auto',
  ${url ? `connections: { default: { url: ${JSON.stringify(url)} } },` : ''}
  sets: {
    docs: { source: { driver: 'database' }, mcp: { web: { author_tools: true, rate_limit: '100000,1' } } },
  },
  gates: { manageKit: (user) => user?.role === 'admin' },
  resolveUser: (request) => users[/^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1] ?? ''] ?? null,
};
`;

type App = ReturnType<typeof createKitApp>;

const BROWSER = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';

/** One MCP call over the web endpoint: the HTTP status, and the JSON-RPC body. */
async function mcp(app: App, token: string | null, name: string, args: Record<string, unknown>) {
  const response = await app.request('http://localhost/docs/mcp', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2025-06-18',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  const body = (await response.json()) as {
    result?: { isError?: boolean; content: Array<{ text: string }>; structuredContent?: Record<string, unknown> };
    error?: { message: string };
  };
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body };
}

/**
 * Whether an MCP answer is a success, or the database-unavailable failure an agent can act on (a
 * tool error, or a JSON-RPC error with 503 and Retry-After, both naming `database.unavailable`).
 */
function mcpOutcome(answer: Awaited<ReturnType<typeof mcp>>): 'ok' | 'unavailable' | string {
  if (answer.status === 200 && answer.body.result && !answer.body.result.isError) return 'ok';
  if (answer.status === 200 && answer.body.result?.content[0]?.text.startsWith('database.unavailable: ')) {
    return 'unavailable';
  }
  if (answer.status === 503 && answer.retryAfter && answer.body.error?.message.startsWith('database.unavailable: ')) {
    return 'unavailable';
  }
  return `unexpected ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`;
}

/** Whether an HTTP answer is a success, or a 503 of the shape its caller asked for, with Retry-After. */
async function httpOutcome(response: Response, shape: 'html' | 'markdown' | 'json'): Promise<string> {
  const text = await response.text();
  if (response.status === 200) return 'ok';
  if (response.status !== 503) return `unexpected ${response.status}: ${text.slice(0, 300)}`;
  if (response.headers.get('retry-after') !== '5') return 'a 503 without Retry-After';
  if (response.headers.get('cache-control') !== 'no-store') return 'a 503 a cache may keep';
  const type = response.headers.get('content-type') ?? '';
  if (shape === 'html' && type.startsWith('text/html') && text.includes('Docs briefly unavailable'))
    return 'unavailable';
  if (shape === 'markdown' && type.startsWith('text/markdown') && text.includes('# Docs briefly unavailable'))
    return 'unavailable';
  if (shape === 'json' && type.startsWith('application/json') && JSON.parse(text).error === 'database.unavailable')
    return 'unavailable';
  return `a 503 of the wrong shape for ${shape}: ${type} ${text.slice(0, 200)}`;
}

describe('a database set on embedded PGlite whose database is gone', () => {
  let project: Awaited<ReturnType<typeof tempProject>>;
  let kit: LoadedKit;
  let app: App;
  beforeAll(async () => {
    project = await tempProject('kit-db-faults-');
    await writeFiles(project.dir, { 'kit.config.mjs': configText(null) });
    kit = await loadKit({ cwd: project.dir, env: {} });
    const db = (kit.set('docs').source as DbContentSource).db;
    await writePage(db, 'docs', { ...scope, path: 'intro', body: '# Intro\n\nWelcome.\n' });
    app = createKitApp({ kit, cacheDir: null });
    // PGlite cannot be cut off like a server; shut it down under the running app instead.
    await db.close();
  }, 180_000);
  afterAll(async () => {
    await kit?.close();
    await project?.cleanup();
  });

  it('shows a browser a page saying the docs are briefly unavailable, with 503 and Retry-After', async () => {
    const response = await app.request('http://localhost/docs/intro', { headers: { Accept: BROWSER } });
    expect(response.status).toBe(503);
    expect(await httpOutcome(response.clone(), 'html')).toBe('unavailable');
    expect(await response.text()).toContain('<meta http-equiv="refresh" content="5">');
  });

  it('answers agents and API callers with database.unavailable as JSON or Markdown', async () => {
    const json = await app.request('http://localhost/docs/intro', { headers: { Accept: 'application/json' } });
    expect(await httpOutcome(json, 'json')).toBe('unavailable');
    const markdown = await app.request('http://localhost/docs/intro.md');
    expect(await httpOutcome(markdown, 'markdown')).toBe('unavailable');
    const search = await app.request('http://localhost/docs/_kit/search?q=welcome');
    expect(await httpOutcome(search, 'json')).toBe('unavailable');
    const llms = await app.request('http://localhost/docs/llms.txt');
    expect(await httpOutcome(llms, 'json')).toBe('unavailable');
  });

  it('tells an MCP client the database is unavailable and to try again', async () => {
    const search = await mcp(app, null, 'search_docs', { query: 'welcome' });
    expect(mcpOutcome(search)).toBe('unavailable');
    const text = search.body.result?.content[0]?.text ?? search.body.error?.message ?? '';
    expect(text).toMatch(/^database\.unavailable: .*try again/i);
    const write = await mcp(app, 'ada', 'write_page', { path: 'new', body: '# New\n' });
    expect(mcpOutcome(write)).toBe('unavailable');
  });
});

describe.skipIf(!databaseUrl)('a database set on PostgreSQL that loses its connections', () => {
  const tag = `kit_http_faults_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  // Kit's own handle on the shared database, its tables in a schema of this file's, dropped after.
  let admin: KitDatabase;
  const adminQuery = async <T>(text: string) => ((await admin.orm.execute(text)) as unknown as { rows: T[] }).rows;
  let databaseOf: (base?: string) => string;
  const projects: Array<Awaited<ReturnType<typeof tempProject>>> = [];
  const kits: LoadedKit[] = [];

  /** A project whose docs set lives in this file's own database, through `url`, and its app. */
  const serve = async (url: string) => {
    const project = await tempProject('kit-db-faults-');
    projects.push(project);
    await writeFiles(project.dir, { 'kit.config.mjs': configText(url) });
    const kit = await loadKit({ cwd: project.dir, env: {}, watch: true });
    kits.push(kit);
    return { kit, app: createKitApp({ kit, cacheDir: null }), source: kit.set('docs').source as DbContentSource };
  };
  /** Terminates the backends of this file's database (their application name is `tag`), and no others. */
  const terminate = async (): Promise<number> => {
    const rows = await adminQuery<{ n: number }>(
      `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = '${tag}' AND datname = '${tag}'`,
    );
    return rows[0]!.n;
  };

  beforeAll(async () => {
    admin = await openDatabase({ url: databaseUrl!, schema: tag });
    // A database of this file's own: nothing here can touch another test's rows or connections.
    await adminQuery(`CREATE DATABASE "${tag}"`);
    databaseOf = (base = databaseUrl!) => {
      const url = new URL(base);
      url.pathname = `/${tag}`;
      url.searchParams.set('application_name', tag);
      return url.toString();
    };
  }, 180_000);
  afterAll(async () => {
    for (const kit of kits) await kit.close().catch(() => {});
    for (const project of projects) await project.cleanup();
    if (!admin) return;
    await adminQuery(`DROP DATABASE IF EXISTS "${tag}" WITH (FORCE)`).catch(() => {});
    await adminQuery(`DROP SCHEMA IF EXISTS "${tag}" CASCADE`).catch(() => {});
    await admin.close();
  }, 180_000);

  it('answers pages, search, MCP and author tools with 200 or a clear 503 while backends are terminated in a loop', async () => {
    const { app, source } = await serve(databaseOf());
    for (let n = 0; n < 8; n++) await writePage(source.db, 'docs', { ...scope, path: `seed-${n}`, body: pageText(n) });

    const outcomes: string[] = [];
    const published = new Set<number>();
    const cutOff = new Set<number>();
    // The slowest answer of each kind, in milliseconds: reported, not asserted (timing here depends on the machine).
    const slowest = { ok: 0, unavailable: 0 };
    const timed = async (call: () => Promise<string>): Promise<string> => {
      const started = Date.now();
      const outcome = await call();
      if (outcome === 'ok' || outcome === 'unavailable') {
        slowest[outcome] = Math.max(slowest[outcome], Date.now() - started);
      }
      return outcome;
    };
    let running = true;
    let terminated = 0;
    const killer = (async () => {
      while (running) {
        terminated += await terminate();
        await sleep(200);
      }
    })();
    let next = 100;
    const end = Date.now() + 5000;
    const callers = [
      async () => {
        const n = next++ % 8;
        const response = await app.request(`http://localhost/docs/seed-${n}`, { headers: { Accept: BROWSER } });
        return httpOutcome(response, 'html');
      },
      async () => httpOutcome(await app.request(`http://localhost/docs/seed-${next++ % 8}.md`), 'markdown'),
      async () => httpOutcome(await app.request('http://localhost/docs/_kit/search?q=line'), 'json'),
      async () => mcpOutcome(await mcp(app, null, 'read_page', { path: `seed-${next++ % 8}` })),
      async () => {
        const n = next++;
        const outcome = mcpOutcome(await mcp(app, 'ada', 'write_page', { path: `written-${n}`, body: pageText(n) }));
        (outcome === 'ok' ? published : cutOff).add(n);
        return outcome;
      },
    ];
    await Promise.all(
      callers.map(async (call) => {
        while (Date.now() < end) outcomes.push(await timed(call));
      }),
    );
    running = false;
    await killer;

    expect(terminated, 'backends were terminated').toBeGreaterThan(0);
    expect(outcomes.filter((outcome) => outcome !== 'ok' && outcome !== 'unavailable')).toEqual([]);
    expect(outcomes.filter((outcome) => outcome === 'ok').length).toBeGreaterThan(0);
    console.info(
      `[database faults] ${outcomes.length} requests while ${terminated} backends were terminated: ${outcomes.filter((o) => o === 'unavailable').length} answered 503 or database.unavailable; slowest success ${slowest.ok} ms, slowest 503 ${slowest.unavailable} ms`,
    );

    // Full service again: every page and every acknowledged write is served, whole.
    for (const n of published) {
      const response = await app.request(`http://localhost/docs/written-${n}.md`);
      expect(response.status, `written-${n}`).toBe(200);
      expect(await response.text()).toContain(`line ${n}\n`.repeat(40));
    }
    // A write cut off committed whole or not at all.
    for (const n of cutOff) {
      const response = await app.request(`http://localhost/docs/written-${n}.md`);
      expect([200, 404]).toContain(response.status);
      if (response.status === 200) expect(await response.text()).toContain(`line ${n}\n`.repeat(40));
    }
    const search = await mcp(app, null, 'search_docs', { query: 'line' });
    expect(mcpOutcome(search)).toBe('ok');
  }, 120_000);

  it('answers 503 while PostgreSQL is unreachable, then serves what was written meanwhile', async () => {
    const target = new URL(databaseUrl!);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    try {
      const { app, source } = await serve(databaseOf(proxy.through(databaseUrl!)));
      await writePage(source.db, 'docs', { ...scope, path: 'intro', body: '# Intro\n\nFirst.\n' });
      const before = await app.request('http://localhost/docs/intro.md');
      expect(await before.text()).toContain('First.');

      await proxy.down();
      const down = await app.request('http://localhost/docs/intro', { headers: { Accept: BROWSER } });
      expect(await httpOutcome(down, 'html')).toBe('unavailable');
      expect(mcpOutcome(await mcp(app, null, 'read_page', { path: 'intro' }))).toBe('unavailable');
      // Another process writes while this one cannot reach the database.
      const other = await openDatabase({ url: databaseOf() });
      try {
        await writePage(other, 'docs', { ...scope, path: 'intro', body: '# Intro\n\nChanged meanwhile.\n' });
        await writePage(other, 'docs', { ...scope, path: 'added', body: '# Added meanwhile\n' });
      } finally {
        await other.close();
      }

      await proxy.up();
      const deadline = Date.now() + 15_000;
      let served = '';
      while (Date.now() < deadline && !served.includes('Changed meanwhile.')) {
        const response = await app.request('http://localhost/docs/intro.md');
        served = response.status === 200 ? await response.text() : '';
        if (!served.includes('Changed meanwhile.')) await sleep(100);
      }
      expect(served).toContain('Changed meanwhile.');
      const added = await app.request('http://localhost/docs/added.md');
      expect(added.status).toBe(200);
    } finally {
      await proxy.close();
    }
  }, 120_000);

  it('keeps a kit serve process sharing the database alive while its backends are terminated', async () => {
    const seed = await openDatabase({ url: databaseOf() });
    try {
      await writePage(seed, 'docs', { ...scope, path: 'intro', body: '# Intro\n\nServed by a second process.\n' });
    } finally {
      await seed.close();
    }
    const project = await tempProject('kit-db-faults-serve-');
    projects.push(project);
    await writeFiles(project.dir, { 'kit.config.mjs': configText(databaseOf()) });
    // As reported: `kit serve --no-watch`, light traffic, the set's connections cut every few hundred ms.
    const server = startKit(['serve', '--port', '0', '--no-watch'], { cwd: project.dir, fromSource: true });
    try {
      const printed = await server.waitFor(/Press Ctrl\+C to stop\./);
      const site = /site\s+(http:\/\/\S+?)\/?\s/.exec(printed)![1]!;
      const statuses = new Set<number>();
      let terminated = 0;
      const end = Date.now() + 8000;
      while (Date.now() < end) {
        terminated += await terminate();
        const response = await fetch(`${site}/intro.md`);
        statuses.add(response.status);
        await response.arrayBuffer();
        await sleep(100);
      }
      expect(terminated).toBeGreaterThan(0);
      expect([...statuses].filter((status) => status !== 200 && status !== 503)).toEqual([]);
      expect(server.child.exitCode).toBeNull();
      const after = await fetch(`${site}/intro.md`);
      expect(after.status).toBe(200);
      expect(await after.text()).toContain('Served by a second process.');
      expect(server.output().stderr).not.toMatch(/Unhandled 'error' event|ECONNRESET/);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 120_000);
});
