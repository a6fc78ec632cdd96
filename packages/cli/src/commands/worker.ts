import { KitError } from '@kit/core';
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { writeLine } from '../io.js';
import { addNotes } from '../notes.js';
import { resolveQueue } from '../queue/connection.js';
import { summarize } from '../queue/status.js';
import type { JobHandler } from '../queue/sync-run.js';
import type { WorkerEvent } from '../queue/worker.js';

/** The handler of each job kind `kit worker` runs; a kind without one is refused at start. */
export interface WorkerHandlers {
  /** Runs a queued `kit sync` run (`runSyncJob` of `../sync/job.js`). */
  sync?: JobHandler;
}

/**
 * Registers `kit worker`, which runs the jobs of a Kit queue with the handlers given here (the
 * program passes them in, so the queue knows nothing of what a sync run does).
 */
export function registerWorker(program: Command, context: CommandContext, handlers: WorkerHandlers): void {
  const command = program
    .command('worker')
    .description(
      'Run queued kit sync runs (kit sync --queue) from a queue on PostgreSQL until stopped: each run is retried with backoff when it fails, and its result or error is recorded for kit sync --status.',
    )
    .option('--queue <name>', 'queue to take runs from (default: ai.sync.queue, env KIT_SYNC_QUEUE, else `default`)')
    .option('--concurrency <n>', 'runs at the same time, 1 to 64; runs of the same set and branch never overlap', '1')
    .option('--grace <seconds>', 'on SIGTERM or SIGINT, how long a running run may take to finish', '20')
    .option('--json', 'print one JSON object per event (ready, started, completed, failed, released, stopped)');
  addNotes(
    command,
    `The queue lives in the PostgreSQL database of its connection (\`queues.<name>.connection\`, \`default\` unless set), in the schema \`kit_queue\` (\`queues.<name>.schema\` names another), run by pg-boss 12 (an optional package: \`npm install pg-boss@12\`, on Node.js 22.12 or later); every worker and every \`kit sync --queue\` on that database share its jobs. A connection without a url (embedded PGlite) cannot hold a queue: kit worker stops and names the setting to add.

A run that fails is retried after a backoff (3 attempts in all, the first retry after about a minute, each later one about twice as late); after the last it is recorded as failed with its error. One run per set and branch runs at a time.

SIGTERM or SIGINT stops the worker gracefully: it takes no new run, lets a running one finish for up to --grace seconds, then stops it and hands it back to the queue for another worker. A second signal stops it at once. A worker killed outright (SIGKILL, a lost machine) records nothing; once the run's expiry passes (\`ai.sync.timeout\` × \`ai.sync.max_steps\` seconds, plus a minute) another worker retries it.

Exit codes: 0 stopped by a signal; 1 the queue could not be opened or no handler runs its jobs.`,
  );
  command.action(
    async (options: { queue?: string; concurrency: string; grace: string; json?: boolean }, command: Command) => {
      const concurrency = Number(options.concurrency);
      if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
        throw new KitError(
          'argument.invalid',
          `--concurrency must be a whole number from 1 to 64 (got "${options.concurrency}").`,
        );
      }
      const grace = Number(options.grace);
      if (!Number.isFinite(grace) || grace < 0) {
        throw new KitError(
          'argument.invalid',
          `--grace must be a number of seconds, 0 or more (got "${options.grace}").`,
        );
      }
      const globals = context.globals(command);
      const { loadConfig } = await import('@kit/core/node');
      const config = await loadConfig({
        cwd: context.io.cwd,
        ...(context.io.env !== process.env ? { env: context.io.env } : {}),
        ...(globals.config !== undefined ? { file: globals.config } : {}),
      });
      const { name, connection } = resolveQueue(config, options.queue);
      const handle = handlers.sync;
      if (handle === undefined) {
        throw new KitError(
          'config.invalid',
          'kit worker has no handler for sync runs: this build of the kit command does not include kit sync, so it cannot run the queue’s jobs. Install a @kit/cli that has the kit sync command.',
        );
      }
      const { runWorker } = await import('../queue/worker.js');

      const graceful = new AbortController();
      const force = new AbortController();
      const onSignal = () => (graceful.signal.aborted ? force.abort() : graceful.abort());
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      const print = (event: WorkerEvent) =>
        writeLine(context.io.stdout, options.json ? JSON.stringify(event) : describeEvent(event));
      try {
        await runWorker({
          connection,
          queue: name,
          handle,
          signal: graceful.signal,
          forceSignal: force.signal,
          concurrency,
          graceSeconds: grace,
          onEvent: (event) =>
            event.type === 'error' && !options.json ? writeLine(context.io.stderr, describeEvent(event)) : print(event),
        });
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
    },
  );
}

/** One line for a person about a worker event. */
function describeEvent(event: WorkerEvent): string {
  const run = (ref: { job: string; set: string; branch: string; attempt: number; attempts: number }) =>
    `sync run ${ref.job} (${ref.set}@${ref.branch}, attempt ${ref.attempt}/${ref.attempts})`;
  switch (event.type) {
    case 'ready':
      return `Worker ready on queue \`${event.queue}\` (${event.concurrency} at a time). Stop it with Ctrl+C or SIGTERM.`;
    case 'started':
      return `started   ${run(event)}`;
    case 'completed':
      return `completed ${run(event)}: ${summarize(event.result)}`;
    case 'failed':
      return `failed    ${run(event)}: ${event.error}${event.retry ? ' (will retry after a backoff)' : ' (no attempts left)'}`;
    case 'released':
      return `released  ${run(event)}: ${event.reason}`;
    case 'lost':
      return `lost      ${run(event)}: ${event.reason}`;
    case 'stopping':
      return event.running === 0
        ? 'Stopping.'
        : `Stopping: ${event.running} running ${event.running === 1 ? 'run has' : 'runs have'} ${event.graceSeconds}s to finish (send the signal again to stop now).`;
    case 'error':
      return `kit worker: ${event.error}`;
    case 'stopped':
      return `Stopped: ${event.completed} completed, ${event.failed} failed, ${event.released} handed back.`;
  }
}
