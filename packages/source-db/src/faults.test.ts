import { fileURLToPath } from 'node:url';
import { type ChangeRecord, type ContentChange, isKitError, KitError } from '@kit/core';
import { startTcpProxy } from '@kit/core/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KitDatabase, openDatabase } from './database.js';
import { isDatabaseUnavailable } from './database-errors.js';
import { createDbSource } from './db-source.js';
import { runInChildProcess } from './testing/child-process.js';
import { freshSetKey, rejection } from './testing/fixture.js';
import { writePage } from './writes.js';

const url = process.env.KIT_TEST_DATABASE_URL;
const publish: ChangeRecord = { tool: 'write_page', draft: false, author: 'agent:faults' };
const scope = { version: 'current', locale: 'en' };
const pageText = (n: number) => `---\ntitle: Page ${n}\n---\n# Page ${n}\n\n${`line ${n}\n`.repeat(50)}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds, polling; fails with `what` after `ms`. */
async function until(check: () => boolean | Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe('the database errors of a database set', () => {
  it('tells a lost connection from a query that failed on its own merits', () => {
    const terminated = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
    });
    expect(isDatabaseUnavailable(terminated)).toBe(true);
    // drizzle wraps the driver's error: the cause decides.
    expect(isDatabaseUnavailable(new Error('Failed query: select 1', { cause: terminated }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(new KitError('page.not_found', 'No page'))).toBe(false);
  });

  it('answers database.unavailable once embedded PGlite is closed, and warns once for the outage', async () => {
    const db = await openDatabase();
    const setKey = freshSetKey('closed');
    const warnings: string[] = [];
    const source = createDbSource({ db, setKey, warn: (message) => warnings.push(message) });
    await writePage(db, setKey, { ...scope, path: 'intro', body: '# Intro\n' });
    expect((await source.getPage('current', 'en', 'intro'))?.title).toBe('Intro');
    await db.close();
    const failures = [
      await rejection(source.getPage('current', 'en', 'intro')),
      await rejection(source.listPages('current', 'en')),
      await rejection(source.writer.writePage({ ...scope, path: 'more' }, pageText(1), null, publish)),
    ];
    expect(failures.map((error) => error.code)).toEqual([
      'database.unavailable',
      'database.unavailable',
      'database.unavailable',
    ]);
    expect(failures[0]!.message).toMatch(/try again/i);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/docs database \(pglite\) is unavailable: PGlite is closed/);
  });

  it('keeps an error that is no outage as it is', async () => {
    const db = await openDatabase();
    const setKey = freshSetKey('other');
    const source = createDbSource({ db, setKey, warn: () => {} });
    const error = await rejection(
      source.writer.writePage({ ...scope, path: 'x' }, pageText(1), 'sha256:stale', publish),
    );
    expect(error.code).toBe('content.conflict');
    await db.close();
  });
});

describe.skipIf(!url)('a database set on PostgreSQL that loses its connections', () => {
  const tag = `kit_faults_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  // Every connection this file opens carries `tag` as its application name, and only those are
  // terminated: other tests and helpers share this PostgreSQL.
  const tagged = (base: string) => {
    const parsed = new URL(base);
    parsed.searchParams.set('application_name', tag);
    return parsed.toString();
  };
  const schema = tag;
  const admin = new pg.Client({ connectionString: url });
  const opened: KitDatabase[] = [];
  const open = async (base = url!) => {
    const db = await openDatabase({ url: tagged(base), schema, maxConnections: 4 });
    opened.push(db);
    return db;
  };
  const terminate = async (): Promise<number> => {
    const { rows } = await admin.query<{ n: number }>(
      'SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()',
      [tag],
    );
    return rows[0]!.n;
  };
  /** Terminates the tagged backends every `everyMs` until the returned stop is called; resolves to how many. */
  const terminateInLoop = (everyMs: number) => {
    let running = true;
    let count = 0;
    const done = (async () => {
      while (running) {
        count += await terminate();
        await sleep(everyMs);
      }
      return count;
    })();
    return () => {
      running = false;
      return done;
    };
  };

  beforeAll(() => admin.connect());
  afterAll(async () => {
    for (const db of opened) await db.close().catch(() => {});
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
    await admin.end().catch(() => {});
  });

  it('keeps serving and writing while its backends are terminated in a loop, and loses no write', async () => {
    const db = await open();
    const setKey = freshSetKey('storm');
    const warnings: string[] = [];
    const source = createDbSource({ db, setKey, pollInterval: 100, warn: (message) => warnings.push(message) });
    for (let n = 0; n < 10; n++) await writePage(db, setKey, { ...scope, path: `seed/${n}`, body: pageText(n) });
    const heard: ContentChange[] = [];
    const stopWatching = source.watch!((change) => heard.push(change));

    const outcomes = { ok: 0, unavailable: 0, other: [] as unknown[] };
    const published = new Set<number>();
    const failedWrites = new Set<number>();
    const settle = async (call: Promise<unknown>) => {
      try {
        await call;
        outcomes.ok += 1;
        return true;
      } catch (error) {
        if (isKitError(error, 'database.unavailable')) outcomes.unavailable += 1;
        else outcomes.other.push(error);
        return false;
      }
    };
    const stop = terminateInLoop(150);
    const end = Date.now() + 4000;
    let next = 100;
    const worker = async (kind: number) => {
      while (Date.now() < end) {
        if (kind === 0) {
          const n = next++;
          const ok = await settle(
            source.writer.writePage({ ...scope, path: `written/${n}` }, pageText(n), null, publish),
          );
          (ok ? published : failedWrites).add(n);
        } else if (kind === 1) await settle(source.listPages('current', 'en'));
        else await settle(source.getPage('current', 'en', `seed/${kind}`));
      }
    };
    await Promise.all([0, 1, 2, 3].map(worker));
    const terminated = await stop();

    expect(terminated, 'backends were terminated').toBeGreaterThan(0);
    expect(outcomes.other, 'every failure is database.unavailable').toEqual([]);
    expect(outcomes.ok).toBeGreaterThan(0);
    // Full service again, and every write that was acknowledged is there, whole.
    const pages = await source.listPages('current', 'en');
    const byPath = new Map(pages.map((page) => [page.path, page]));
    for (const n of published)
      expect(byPath.get(`written/${n}`)?.body, `write ${n}`).toContain(`line ${n}\n`.repeat(50));
    // A write cut off committed whole or not at all.
    for (const n of failedWrites) {
      const page = byPath.get(`written/${n}`);
      if (page) expect(page.body).toContain(`line ${n}\n`.repeat(50));
    }
    if (outcomes.unavailable > 0) {
      expect(warnings[0]).toMatch(/docs database \(postgres\) is unavailable/);
    }
    stopWatching();
  }, 60_000);

  it('answers database.unavailable while PostgreSQL is unreachable and catches its watcher up afterwards', async () => {
    const target = new URL(url!);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    try {
      const db = await open(proxy.through(url!));
      const direct = await open();
      const setKey = freshSetKey('outage');
      const warnings: string[] = [];
      const source = createDbSource({ db, setKey, pollInterval: 100, warn: (message) => warnings.push(message) });
      await writePage(direct, setKey, { ...scope, path: 'intro', body: '# Intro\n' });
      const heard: ContentChange[] = [];
      const stopWatching = source.watch!((change) => heard.push(change));
      // The watcher has polled at least once before the outage.
      await sleep(300);

      await proxy.down();
      const error = await rejection(source.getPage('current', 'en', 'intro'));
      expect(error.code).toBe('database.unavailable');
      // Another process writes while this one cannot reach the database.
      await writePage(direct, setKey, { ...scope, path: 'during-outage', body: '# Written meanwhile\n' });
      await sleep(400);
      expect(heard.some((change) => change.path === 'during-outage')).toBe(false);

      await proxy.up();
      await until(() => heard.some((change) => change.path === 'during-outage'), 'the watcher to catch up');
      expect((await source.getPage('current', 'en', 'during-outage'))?.title).toBe('Written meanwhile');
      expect(warnings.filter((line) => /is unavailable/.test(line))).toHaveLength(1);
      expect(warnings.at(-1)).toMatch(/answers again/);
      stopWatching();
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it('keeps a second process sharing the database alive while both lose their connections', async () => {
    const setKey = freshSetKey('shared');
    const db = await open();
    await writePage(db, setKey, { ...scope, path: 'intro', body: '# Intro\n' });
    const dbModule = fileURLToPath(new URL('./index.ts', import.meta.url));
    const child = runInChildProcess(`
      const { openDatabase, createDbSource } = await import(${JSON.stringify(dbModule)});
      const db = await openDatabase({ url: ${JSON.stringify(tagged(url!))}, schema: ${JSON.stringify(schema)}, maxConnections: 3 });
      const source = createDbSource({ db, setKey: ${JSON.stringify(setKey)}, pollInterval: 100, warn: () => {} });
      const heard = [];
      source.watch((change) => heard.push(change.path));
      // Tells the parent to start terminating: this process is up and reading.
      await source.writer.writePage({ version: 'current', locale: 'en', path: 'child-ready' }, '# Ready\\n', null, { tool: 'write_page', draft: false });
      const counts = { ok: 0, unavailable: 0, other: [] };
      const end = Date.now() + 3000;
      while (Date.now() < end) {
        try { await source.getPage('current', 'en', 'intro'); counts.ok++; }
        catch (error) { if (error.code === 'database.unavailable') counts.unavailable++; else counts.other.push(String(error)); }
      }
      // The parent writes once its storm is over; this process must still hear it.
      const wait = Date.now() + 10000;
      while (!heard.includes('after-storm') && Date.now() < wait) await new Promise((r) => setTimeout(r, 50));
      const after = await source.getPage('current', 'en', 'after-storm');
      await db.close();
      console.log(JSON.stringify({ ...counts, heard: heard.includes('after-storm'), after: after?.title ?? null }));
    `);
    // A failure before the child's result is awaited must not go unhandled.
    child.catch(() => {});
    const probe = createDbSource({ db, setKey, warn: () => {} });
    await until(
      async () => (await probe.getPage('current', 'en', 'child-ready')) !== null,
      'the child to start',
      30_000,
    );
    const stop = terminateInLoop(150);
    await sleep(2500);
    const terminated = await stop();
    await writePage(db, setKey, { ...scope, path: 'after-storm', body: '# After the storm\n' });
    const result = await child;
    expect(terminated).toBeGreaterThan(0);
    expect(result.other).toEqual([]);
    expect(result.ok).toBeGreaterThan(0);
    expect(result.heard).toBe(true);
    expect(result.after).toBe('After the storm');
  }, 60_000);
});
