// A `kit worker` stand-in for the queue tests: runs runWorker in its own process with a slow sync
// handler, printing each worker event as a JSON line, so a test can kill it mid-run (SIGKILL) or
// stop it (SIGTERM). The handler records a finished run in `<schema>.fixture_effects` only at the
// very end, in one statement: a run killed before then leaves nothing behind.
import pg from 'pg';
import { runWorker } from '../worker.js';

const url = process.env.FIXTURE_QUEUE_URL!;
const schema = process.env.FIXTURE_QUEUE_SCHEMA!;
const queue = process.env.FIXTURE_QUEUE!;
const runMs = Number(process.env.FIXTURE_RUN_MS ?? '30000');

const pool = new pg.Pool({ connectionString: url, max: 2 });
const graceful = new AbortController();
process.once('SIGTERM', () => graceful.abort());

await runWorker({
  connection: { url, schema },
  queue,
  pollIntervalSeconds: 0.5,
  maintenanceIntervalSeconds: 1,
  graceSeconds: 0,
  signal: graceful.signal,
  handle: async (payload, { signal }) => {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, runMs);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    });
    await pool.query(`INSERT INTO ${schema}.fixture_effects (cwd, worker) VALUES ($1, $2)`, [payload.cwd, process.pid]);
    return { pagesChanged: ['guide/install'], worker: process.pid };
  },
  onEvent: (event) => process.stdout.write(`${JSON.stringify(event)}\n`),
});
await pool.end();
