import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isKitError, resolveConfig } from '@kit/core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKitHere } from '../__fixtures__/in-process.js';
import { createContext } from '../context.js';
import { createProgram } from '../program.js';
import { enqueueFromCli, formatEnqueued, printSyncStatus } from './cli.js';
import { type QueueConnection, resolveQueue } from './connection.js';
import { enqueueSyncRun } from './enqueue.js';
import { formatSyncStatus, syncRunStatus } from './status.js';
import { type SyncRunPayload, syncRunExpirySeconds } from './sync-run.js';
import { runWorker, type WorkerEvent } from './worker.js';

const databaseUrl = process.env.KIT_TEST_DATABASE_URL;
const cliFolder = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fixture = join(dirname(fileURLToPath(import.meta.url)), '__fixtures__', 'worker-process.ts');
const commandFixture = join(dirname(fileURLToPath(import.meta.url)), '__fixtures__', 'kit-worker-command.ts');
// The command runs in the project's folder, where `--import tsx` would not resolve.
const tsxLoader = pathToFileURL(join(cliFolder, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

/** Resolves once `check` is true, looking every 100 ms; fails after `ms`. */
async function waitFor(check: () => boolean | Promise<boolean>, ms = 30_000, what = 'the condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('kit worker and queue settings without a database', () => {
  it('kit worker with no database url stops with the setting to add', async () => {
    const dir = await mkdtemp(join(tmpdir(), 's8queue-'));
    try {
      const run = await runKitHere(['worker'], { cwd: dir });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(
        'Queue `default` needs a PostgreSQL server, and its connection `default` has no url',
      );
      expect(run.stderr).toContain('`connections: { default: { url: process.env.DATABASE_URL } }` in kit.config.ts');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('kit worker refuses to start when no handler runs sync jobs', async () => {
    const dir = await mkdtemp(join(tmpdir(), 's8queue-'));
    try {
      await writeFile(
        join(dir, 'kit.config.json'),
        JSON.stringify({ connections: { default: { url: 'postgres://postgres@127.0.0.1:5432/test' } } }),
      );
      const stderr = new PassThrough();
      const context = createContext({
        stdout: new PassThrough(),
        stderr,
        stdin: Readable.from(['']),
        env: { NO_COLOR: '1' },
        cwd: dir,
      });
      const error = await createProgram(context, {})
        .parseAsync(['worker'], { from: 'user' })
        .then(
          () => null,
          (caught: unknown) => caught,
        );
      expect(isKitError(error, 'config.invalid')).toBe(true);
      expect((error as Error).message).toContain('kit worker has no handler for sync runs');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('names a redis queue as unsupported and an undeclared queue with the declared ones', () => {
    const config = resolveConfig(
      {
        connections: { default: { url: 'postgres://db.example/app' } },
        queues: { fast: { driver: 'redis', url: 'redis://127.0.0.1:6379' } },
      },
      { env: {}, root: '/project' },
    );
    expect(() => resolveQueue(config, 'fast')).toThrow(
      'Queue `fast` uses the redis driver; Kit runs queued sync runs on PostgreSQL (pg-boss) only',
    );
    expect(() => resolveQueue(config, 'nightly')).toThrow('No queue `nightly`: `queues` declares `default`, `fast`');
    expect(resolveQueue(config)).toEqual({ name: 'default', connection: { url: 'postgres://db.example/app' } });
  });

  it('gives a run as long to finish as its steps may take, within pg-boss’s ceiling', () => {
    expect(syncRunExpirySeconds({ timeout: 120, max_steps: 30 })).toBe(3660);
    expect(syncRunExpirySeconds({ timeout: 1, max_steps: 1 })).toBe(61);
    expect(syncRunExpirySeconds({ timeout: 3600, max_steps: 100 })).toBe(23 * 3600);
  });

  it('says the queue’s database cannot be reached, without its password', async () => {
    const error = await syncRunStatus({
      connection: { url: 'postgres://kit:secret@127.0.0.1:1/none' },
      queue: 'default',
    }).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(isKitError(error, 'database.unavailable')).toBe(true);
    expect((error as Error).message).toMatch(/^Cannot open queue `default` on postgres:\/\/127\.0\.0\.1:1\/none: /);
    expect((error as Error).message).not.toContain('secret');
  });
});

describe.skipIf(!databaseUrl)('queued sync runs on PostgreSQL (KIT_TEST_DATABASE_URL)', () => {
  const schema = `s8queue_${process.pid}_${Date.now().toString(36)}`;
  const connection: QueueConnection = { url: databaseUrl!, schema };
  let pool: pg.Pool;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    await pool.query(`CREATE SCHEMA ${schema}`);
    await pool.query(
      `CREATE TABLE ${schema}.fixture_effects (id serial PRIMARY KEY, cwd text NOT NULL, worker integer NOT NULL)`,
    );
  });

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await pool.end();
  });

  /** Starts the fixture worker process; `events` fills with what it prints. */
  function startWorkerProcess(queue: string, runMs: number) {
    const child = spawn(process.execPath, ['--conditions=kit-source', '--import', 'tsx', fixture], {
      cwd: cliFolder,
      env: {
        ...process.env,
        FIXTURE_QUEUE_URL: databaseUrl,
        FIXTURE_QUEUE_SCHEMA: schema,
        FIXTURE_QUEUE: queue,
        FIXTURE_RUN_MS: String(runMs),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    const events: WorkerEvent[] = [];
    let stderr = '';
    let buffer = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      let newline = buffer.indexOf('\n');
      while (newline >= 0) {
        events.push(JSON.parse(buffer.slice(0, newline)) as WorkerEvent);
        buffer = buffer.slice(newline + 1);
        newline = buffer.indexOf('\n');
      }
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    return { child, events, exited, stderr: () => stderr };
  }

  async function effects(cwd: string): Promise<number[]> {
    const { rows } = await pool.query<{ worker: number }>(
      `SELECT worker FROM ${schema}.fixture_effects WHERE cwd = $1 ORDER BY id`,
      [cwd],
    );
    return rows.map((row) => row.worker);
  }

  it('runs an enqueued sync run and shows it completed with its result', async () => {
    const queue = 'complete';
    const payload: SyncRunPayload = { cwd: '/projects/shop', set: 'docs', maxPages: 5 };
    const run = await enqueueSyncRun({ connection, queue, payload, set: 'docs', branch: 'main' });
    expect(run).toMatchObject({ queue, set: 'docs', branch: 'main', coalesced: false });

    const queued = await syncRunStatus({ connection, queue });
    expect(queued).toMatchObject([{ id: run.id, state: 'queued', attempts: 0, maxAttempts: 3, result: null }]);

    const received: SyncRunPayload[] = [];
    const events: WorkerEvent[] = [];
    const stop = new AbortController();
    const worker = runWorker({
      connection,
      queue,
      pollIntervalSeconds: 0.5,
      signal: stop.signal,
      onEvent: (event) => events.push(event),
      handle: async (given) => {
        received.push(given);
        return { summary: '2 pages changed, 1 left stale', pagesChanged: ['install', 'upgrade'] };
      },
    });
    await waitFor(() => events.some((event) => event.type === 'completed'), 30_000, 'the run to complete');
    stop.abort();
    expect(await worker).toEqual({ completed: 1, failed: 0, released: 0 });
    expect(received).toEqual([payload]);

    const runs = await syncRunStatus({ connection, queue });
    expect(runs).toMatchObject([
      {
        id: run.id,
        state: 'completed',
        set: 'docs',
        branch: 'main',
        attempts: 1,
        maxAttempts: 3,
        error: null,
        result: { summary: '2 pages changed, 1 left stale', pagesChanged: ['install', 'upgrade'] },
        payload,
      },
    ]);
    expect(runs[0]!.finishedAt).not.toBeNull();
    const text = formatSyncStatus(queue, runs);
    expect(text).toMatch(new RegExp(`^completed  docs@main  attempt 1/3  \\d+s ago  job ${run.id}$`, 'm'));
    expect(text).toContain('result: 2 pages changed, 1 left stale');

    const config = resolveConfig(
      {
        connections: { default: { url: databaseUrl! } },
        queues: { complete: { driver: 'postgres', connection: 'default' } },
      },
      { env: { KIT_SYNC_QUEUE: queue }, root: '/projects/shop' },
    );
    const out = new PassThrough();
    let printed = '';
    out.setEncoding('utf8').on('data', (chunk: string) => {
      printed += chunk;
    });
    await printSyncStatus(out, config, { json: true, schema });
    expect(JSON.parse(printed)).toMatchObject({ queue, runs: [{ id: run.id, state: 'completed' }] });
  });

  it('retries a failing run with growing delays, then records it as failed with the error', async () => {
    const queue = 'failing';
    const run = await enqueueSyncRun({
      connection,
      queue,
      payload: { cwd: '/projects/shop' },
      set: 'docs',
      branch: 'main',
      retry: { attempts: 3, delaySeconds: 1, backoff: true },
    });
    const calls: number[] = [];
    const events: WorkerEvent[] = [];
    const stop = new AbortController();
    const worker = runWorker({
      connection,
      queue,
      pollIntervalSeconds: 0.5,
      signal: stop.signal,
      onEvent: (event) => events.push(event),
      handle: async () => {
        calls.push(Date.now());
        throw new Error(`the provider refused the request (call ${calls.length})`);
      },
    });
    await waitFor(() => events.filter((event) => event.type === 'failed').length === 3, 60_000, 'three failures');
    // Long enough for a fourth attempt to have started, were one left.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    stop.abort();
    expect(await worker).toEqual({ completed: 0, failed: 3, released: 0 });
    expect(calls).toHaveLength(3);
    expect(
      events.filter((event) => event.type === 'failed').map((event) => (event as { retry: boolean }).retry),
    ).toEqual([true, true, false]);
    // pg-boss's backoff: the first retry waits 1–2 s, the second 2–4 s.
    expect(calls[1]! - calls[0]!).toBeGreaterThanOrEqual(950);
    expect(calls[2]! - calls[1]!).toBeGreaterThanOrEqual(1950);

    const [record] = await syncRunStatus({ connection, queue });
    expect(record).toMatchObject({
      id: run.id,
      state: 'failed',
      attempts: 3,
      maxAttempts: 3,
      result: null,
      error: 'the provider refused the request (call 3)',
    });
    expect(formatSyncStatus(queue, [record!])).toContain('error: the provider refused the request (call 3)');
  });

  it('keeps one run per set and branch: a waiting one absorbs the same run, a running one makes the next wait', async () => {
    const queue = 'single';
    const payload: SyncRunPayload = { cwd: '/projects/shop', set: 'docs' };
    const first = await enqueueSyncRun({ connection, queue, payload, set: 'docs', branch: 'main' });
    const same = await enqueueSyncRun({
      connection,
      queue,
      payload: { set: 'docs', cwd: '/projects/shop' },
      set: 'docs',
      branch: 'main',
    });
    expect(same).toEqual({ ...first, coalesced: true });
    await expect(
      enqueueSyncRun({ connection, queue, payload: { ...payload, head: 'abc123' }, set: 'docs', branch: 'main' }),
    ).rejects.toThrow(
      `A sync run for set \`docs\` on branch \`main\` is already waiting on queue \`single\` (job ${first.id}) with other options`,
    );
    const featurePayload: SyncRunPayload = { cwd: '/projects/shop-feature', set: 'docs' };
    const feature = await enqueueSyncRun({
      connection,
      queue,
      payload: featurePayload,
      set: 'docs',
      branch: 'feature',
    });
    expect(feature.coalesced).toBe(false);
    expect(feature.id).not.toBe(first.id);

    const waiting = new Map<string, Array<() => void>>();
    const release = (cwd: string) => waiting.get(cwd)!.shift()!();
    const running = new Map<string, number>();
    const mostAtOnce = new Map<string, number>();
    const events: WorkerEvent[] = [];
    const stop = new AbortController();
    const worker = runWorker({
      connection,
      queue,
      concurrency: 2,
      pollIntervalSeconds: 0.5,
      signal: stop.signal,
      onEvent: (event) => events.push(event),
      handle: async (given) => {
        running.set(given.cwd, (running.get(given.cwd) ?? 0) + 1);
        mostAtOnce.set(given.cwd, Math.max(mostAtOnce.get(given.cwd) ?? 0, running.get(given.cwd)!));
        await new Promise<void>((resolve) => waiting.set(given.cwd, [...(waiting.get(given.cwd) ?? []), resolve]));
        running.set(given.cwd, running.get(given.cwd)! - 1);
        return { done: true };
      },
    });
    const started = (id: string) => events.some((event) => event.type === 'started' && event.job === id);
    await waitFor(() => started(first.id) && started(feature.id), 30_000, 'both branches to start');

    const followUp = await enqueueSyncRun({ connection, queue, payload, set: 'docs', branch: 'main' });
    expect(followUp.coalesced).toBe(false);
    const states = Object.fromEntries(
      (await syncRunStatus({ connection, queue })).map((record) => [record.id, record.state]),
    );
    expect(states).toEqual({ [first.id]: 'running', [feature.id]: 'running', [followUp.id]: 'queued' });
    // The feature run ends; a run of another branch enqueued now starts in the free slot, ahead of
    // the follow-up, which waits for the run of its own branch.
    release('/projects/shop-feature');
    await waitFor(() => events.some((event) => event.type === 'completed' && event.job === feature.id));
    const hotfix = await enqueueSyncRun({
      connection,
      queue,
      payload: { cwd: '/projects/shop-hotfix', set: 'docs' },
      set: 'docs',
      branch: 'hotfix',
    });
    await waitFor(() => started(hotfix.id), 30_000, 'the hotfix run to start while main still runs');
    // Three more polls: the follow-up still waits.
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect(started(followUp.id)).toBe(false);

    release('/projects/shop-hotfix');
    release('/projects/shop');
    await waitFor(() => started(followUp.id), 30_000, 'the follow-up to start');
    release('/projects/shop');
    await waitFor(() => events.filter((event) => event.type === 'completed').length === 4, 30_000, 'four runs');
    stop.abort();
    expect(await worker).toEqual({ completed: 4, failed: 0, released: 0 });
    expect(Object.fromEntries(mostAtOnce)).toEqual({
      '/projects/shop': 1,
      '/projects/shop-feature': 1,
      '/projects/shop-hotfix': 1,
    });
    const order = events.filter((event) => event.type === 'started').map((event) => (event as { job: string }).job);
    expect(order.slice(2)).toEqual([hotfix.id, followUp.id]);
  });

  it('retries on another worker a run whose worker was killed mid-run, and completes it once', async () => {
    const queue = 'killed';
    const cwd = '/projects/killed';
    const run = await enqueueSyncRun({
      connection,
      queue,
      payload: { cwd },
      set: 'docs',
      branch: 'main',
      expireInSeconds: 3,
      retry: { attempts: 3, delaySeconds: 1, backoff: false },
    });
    const doomed = startWorkerProcess(queue, 60_000);
    await waitFor(
      () => doomed.events.some((event) => event.type === 'started' && event.job === run.id),
      60_000,
      `the worker process to start the run (stderr: ${doomed.stderr()})`,
    );
    doomed.child.kill('SIGKILL');
    expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });

    const [afterKill] = await syncRunStatus({ connection, queue });
    expect(afterKill).toMatchObject({ id: run.id, state: 'running', attempts: 1, result: null });
    expect(await effects(cwd)).toEqual([]);

    const events: WorkerEvent[] = [];
    const stop = new AbortController();
    const calls: string[] = [];
    const worker = runWorker({
      connection,
      queue,
      pollIntervalSeconds: 0.5,
      maintenanceIntervalSeconds: 1,
      signal: stop.signal,
      onEvent: (event) => events.push(event),
      handle: async (payload) => {
        calls.push(payload.cwd);
        await pool.query(`INSERT INTO ${schema}.fixture_effects (cwd, worker) VALUES ($1, $2)`, [payload.cwd, 0]);
        return { pagesChanged: ['install'] };
      },
    });
    await waitFor(() => events.some((event) => event.type === 'completed'), 60_000, 'the retried run to complete');
    stop.abort();
    expect(await worker).toEqual({ completed: 1, failed: 0, released: 0 });
    expect(events.find((event) => event.type === 'started')).toMatchObject({ job: run.id, attempt: 2, attempts: 3 });
    expect(calls).toEqual([cwd]);
    expect(await effects(cwd)).toEqual([0]);
    expect(doomed.events.some((event) => event.type === 'completed')).toBe(false);

    const [record] = await syncRunStatus({ connection, queue });
    expect(record).toMatchObject({
      id: run.id,
      state: 'completed',
      attempts: 2,
      result: { pagesChanged: ['install'] },
    });
  });

  it('fails an attempt that outlives its expiry before the queue retries it, so only the retry completes', async () => {
    const queue = 'overdue';
    const run = await enqueueSyncRun({
      connection,
      queue,
      payload: { cwd: '/projects/overdue' },
      set: 'docs',
      branch: 'main',
      expireInSeconds: 2,
      retry: { attempts: 2, delaySeconds: 0, backoff: false },
    });
    const events: WorkerEvent[] = [];
    const stop = new AbortController();
    let calls = 0;
    const worker = runWorker({
      connection,
      queue,
      pollIntervalSeconds: 0.5,
      maintenanceIntervalSeconds: 1,
      signal: stop.signal,
      onEvent: (event) => events.push(event),
      // The first attempt ignores its signal and would finish long after its expiry.
      handle: async () => {
        calls++;
        if (calls === 1) await new Promise((resolve) => setTimeout(resolve, 8000));
        return { attempt: calls };
      },
    });
    await waitFor(() => events.some((event) => event.type === 'completed'), 60_000, 'the retry to complete');
    stop.abort();
    expect(await worker).toEqual({ completed: 1, failed: 1, released: 0 });
    expect(events.find((event) => event.type === 'failed')).toMatchObject({
      job: run.id,
      attempt: 1,
      error: "the run took longer than the job's expiry (2 s) and was stopped",
      retry: true,
    });
    const [record] = await syncRunStatus({ connection, queue });
    expect(record).toMatchObject({ id: run.id, state: 'completed', attempts: 2, result: { attempt: 2 } });
  });

  it('hands a running run back to the queue at once when its worker gets SIGTERM, and never fails it for that', async () => {
    const queue = 'stopped';
    const cwd = '/projects/stopped';
    const run = await enqueueSyncRun({
      connection,
      queue,
      payload: { cwd },
      set: 'docs',
      branch: 'main',
      // A failure would wait ten minutes for its retry; a stop must not.
      retry: { attempts: 2, delaySeconds: 600, backoff: false },
    });
    const stopWorkerMidRun = async () => {
      const stopping = startWorkerProcess(queue, 60_000);
      await waitFor(
        () => stopping.events.some((event) => event.type === 'started'),
        60_000,
        `the worker process to start the run (stderr: ${stopping.stderr()})`,
      );
      stopping.child.kill('SIGTERM');
      expect(await stopping.exited).toEqual({ code: 0, signal: null });
      expect(stopping.events.map((event) => event.type)).toEqual([
        'ready',
        'started',
        'stopping',
        'released',
        'stopped',
      ]);
      const [handedBack] = await syncRunStatus({ connection, queue });
      expect(new Date(handedBack!.nextAttemptAt!).getTime()).toBeLessThanOrEqual(Date.now() + 1000);
      return handedBack;
    };

    expect(await stopWorkerMidRun()).toMatchObject({
      id: run.id,
      state: 'retrying',
      attempts: 1,
      maxAttempts: 2,
      error: 'the worker stopped before the run finished',
    });
    // Stopped again on its last attempt: one more is granted instead of failing the run.
    expect(await stopWorkerMidRun()).toMatchObject({ id: run.id, state: 'retrying', attempts: 2, maxAttempts: 3 });
    expect(await effects(cwd)).toEqual([]);

    const finisher = startWorkerProcess(queue, 10);
    await waitFor(() => finisher.events.some((event) => event.type === 'completed'), 60_000, 'the run to complete');
    finisher.child.kill('SIGTERM');
    await finisher.exited;
    expect(await effects(cwd)).toEqual([finisher.child.pid]);
    const [record] = await syncRunStatus({ connection, queue });
    expect(record).toMatchObject({ id: run.id, state: 'completed', attempts: 3 });
  });
});

describe.skipIf(!databaseUrl)('a queue schema an earlier Kit made with pg-boss 10 (KIT_TEST_DATABASE_URL)', () => {
  const schema = `s8queue_v10_${process.pid}_${Date.now().toString(36)}`;
  let pool: pg.Pool;

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    // What an earlier Kit left: pg-boss 10's tables, with a run waiting in Kit's queue.
    const { default: PgBoss10 } = await import('pg-boss-10');
    const boss = new PgBoss10({ connectionString: databaseUrl, schema });
    boss.on('error', () => {});
    await boss.start();
    await boss.createQueue('kit/default/sync', { name: 'kit/default/sync', policy: 'stately' });
    await boss.send(
      'kit/default/sync',
      { set: 'docs', branch: 'main', payload: { cwd: '/projects/shop' } },
      { singletonKey: '["docs","main"]' },
    );
    await boss.stop({ graceful: false, wait: true });
  }, 120_000);

  afterAll(async () => {
    await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await pool.query(`DROP SCHEMA IF EXISTS ${schema}_v12 CASCADE`);
    await pool.end();
  });

  it('is refused with the two ways on, its waiting run left as it was, and a new schema beside it works', async () => {
    const payload: SyncRunPayload = { cwd: '/projects/shop', set: 'docs' };
    const error = await enqueueSyncRun({
      connection: { url: databaseUrl!, schema },
      queue: 'default',
      payload,
      set: 'docs',
      branch: 'main',
    }).catch((caught: unknown) => caught);
    expect(isKitError(error, 'config.invalid')).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain(`the schema \`${schema}\`, which pg-boss 10 or older made (schema version 24)`);
    expect(message).toContain(`DROP SCHEMA ${schema} CASCADE`);
    expect(message).toContain(`\`queues.default.schema\`, e.g. \`'${schema}_v12'\``);
    const { rows } = await pool.query(`SELECT state::text AS state FROM ${schema}.job WHERE name = 'kit/default/sync'`);
    expect(rows).toEqual([{ state: 'created' }]);
    const { rows: version } = await pool.query(`SELECT version FROM ${schema}.version`);
    expect(version).toEqual([{ version: 24 }]);

    const moved = { url: databaseUrl!, schema: `${schema}_v12` };
    const run = await enqueueSyncRun({ connection: moved, queue: 'default', payload, set: 'docs', branch: 'main' });
    expect(await syncRunStatus({ connection: moved, queue: 'default' })).toMatchObject([
      { id: run.id, state: 'queued' },
    ]);
  });
});

describe.skipIf(!databaseUrl)('kit worker and kit sync --queue on a project’s own database', () => {
  const database = `s8queue_cli_${process.pid}`;
  let admin: pg.Pool;
  let project: string;
  let projectUrl: string;

  beforeAll(async () => {
    admin = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    await admin.query(`CREATE DATABASE ${database}`);
    const url = new URL(databaseUrl!);
    url.pathname = `/${database}`;
    projectUrl = url.href;
    project = await mkdtemp(join(tmpdir(), 's8queue-project-'));
    await writeFile(
      join(project, 'kit.config.json'),
      JSON.stringify({
        connections: { default: { url: projectUrl } },
        sets: { handbook: { source: { path: 'docs' } } },
      }),
    );
  });

  afterAll(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
    await rm(project, { recursive: true, force: true });
  });

  it('enqueues on the configured queue, runs it with kit worker --json, stops on SIGTERM and shows it completed', async () => {
    const config = resolveConfig(
      { connections: { default: { url: projectUrl } }, sets: { handbook: { source: { path: 'docs' } } } },
      { env: {}, root: project },
    );
    const run = await enqueueFromCli(config, { cwd: project }, { branch: 'main' });
    expect(run).toMatchObject({ queue: 'default', set: 'handbook', branch: 'main', coalesced: false });
    expect(formatEnqueued(run)).toBe(
      `Queued sync run ${run.id} for handbook@main on queue \`default\`; kit worker runs it. kit sync --status shows it.`,
    );
    const again = await enqueueFromCli(config, { cwd: project }, { branch: 'main' });
    expect(formatEnqueued(again)).toContain(`job ${run.id} covers this one`);

    const child = spawn(
      process.execPath,
      ['--conditions=kit-source', '--import', tsxLoader, commandFixture, 'worker', '--json', '--concurrency', '2'],
      { cwd: project, env: { ...process.env, NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await waitFor(
        () => stdout.includes('"type":"completed"') || child.exitCode !== null,
        60_000,
        'the run to complete',
      );
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
    const events = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as WorkerEvent);
    expect(events).toEqual([
      { type: 'ready', queue: 'default', concurrency: 2 },
      { type: 'started', job: run.id, set: 'handbook', branch: 'main', attempt: 1, attempts: 3 },
      {
        type: 'completed',
        job: run.id,
        set: 'handbook',
        branch: 'main',
        attempt: 1,
        attempts: 3,
        result: { summary: `synced the default set in ${project}` },
      },
      { type: 'stopping', running: 0, graceSeconds: 20 },
      { type: 'stopped', completed: 1, failed: 0, released: 0 },
    ]);

    const out = new PassThrough();
    let printed = '';
    out.setEncoding('utf8').on('data', (chunk: string) => {
      printed += chunk;
    });
    await printSyncStatus(out, config);
    expect(printed).toMatch(
      new RegExp(
        `^Sync runs on queue \`default\`, newest first:\\ncompleted  handbook@main  attempt 1/3  \\d+s ago  job ${run.id}\\n {11}result: synced the default set in ${project}\\n$`,
      ),
    );
  });

  it('keeps the queue in queues.<name>.schema when the config names one', async () => {
    const elsewhere = await mkdtemp(join(tmpdir(), 's8queue-project-'));
    try {
      await writeFile(
        join(elsewhere, 'kit.config.json'),
        JSON.stringify({
          connections: { default: { url: projectUrl } },
          queues: { default: { driver: 'postgres', connection: 'default', schema: 'docs_jobs' } },
          sets: { handbook: { source: { path: 'docs' } } },
        }),
      );
      const queued = await runKitHere(['sync', '--queue'], { cwd: elsewhere });
      expect(queued.stderr).toBe('');
      const id = /^Queued sync run (\S+) /.exec(queued.stdout)?.[1];
      const projectDb = new pg.Client({ connectionString: projectUrl });
      await projectDb.connect();
      try {
        const { rows } = await projectDb.query(`SELECT id::text FROM docs_jobs.job WHERE name = 'kit/default/sync'`);
        expect(rows).toEqual([{ id }]);
      } finally {
        await projectDb.end();
      }
      const status = await runKitHere(['sync', '--status', '--json'], { cwd: elsewhere });
      expect(JSON.parse(status.stdout).runs).toMatchObject([{ id, state: 'queued' }]);
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('kit sync --queue enqueues the run with its flags, and kit sync --status lists it', async () => {
    const queued = await runKitHere(['sync', '--queue', '--max-pages', '2', '--base', 'main'], { cwd: project });
    expect(queued.stderr).toBe('');
    expect(queued.code).toBe(0);
    const id = /^Queued sync run (\S+) for handbook@local on queue `default`; kit worker runs it\./.exec(
      queued.stdout,
    )?.[1];
    expect(id).toBeDefined();

    const again = await runKitHere(['sync', '--queue', '--max-pages', '2', '--base', 'main', '--json'], {
      cwd: project,
    });
    expect(JSON.parse(again.stdout)).toEqual({
      id,
      queue: 'default',
      set: 'handbook',
      branch: 'local',
      coalesced: true,
    });

    const refused = await runKitHere(['sync', '--queue', '--max-pages', '0'], { cwd: project });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--max-pages must be a whole number of at least 1');

    const status = await runKitHere(['sync', '--status', '--json'], { cwd: project });
    expect(status.code).toBe(0);
    const { queue, runs } = JSON.parse(status.stdout) as { queue: string; runs: Array<Record<string, unknown>> };
    expect(queue).toBe('default');
    expect(runs[0]).toMatchObject({
      id,
      state: 'queued',
      set: 'handbook',
      branch: 'local',
      attempts: 0,
      payload: { cwd: project, head: 'HEAD', base: 'main', maxPages: 2 },
    });
    const text = await runKitHere(['sync', '--status'], { cwd: project });
    expect(text.stdout).toMatch(new RegExp(`^queued     handbook@local  0/3 attempts  \\d+s ago  job ${id}$`, 'm'));
  });
});
