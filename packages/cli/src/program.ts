import { Command } from 'commander';
import { registerAffected } from './commands/affected.js';
import { registerAgents } from './commands/agents.js';
import { registerAssets } from './commands/assets.js';
import { registerHook } from './commands/hook.js';
import { registerInit } from './commands/init.js';
import { registerMcp } from './commands/mcp.js';
import { registerMigrate } from './commands/migrate.js';
import { registerReview } from './commands/review.js';
import { registerSearch } from './commands/search.js';
import { registerServe } from './commands/serve.js';
import { registerSync } from './commands/sync.js';
import { registerValidate } from './commands/validate.js';
import { registerWorker, type WorkerHandlers } from './commands/worker.js';
import type { CommandContext } from './context.js';

export { CLI_VERSION } from './version.js';

/**
 * The handlers `kit worker` runs queued jobs with, by job kind; each loads its module on first use,
 * so commands that run no job never load it.
 */
const workerHandlers: WorkerHandlers = {
  sync: async (payload, options) => (await import('./sync/job.js')).runSyncJob(payload, options),
};

/**
 * The `kit` command and its subcommands, defined once: the binary runs it, and
 * `pnpm --filter @kit/cli gen:docs` writes the reference page from the same definitions. `handlers`
 * are the job handlers `kit worker` runs (tests hand in their own).
 */
export function createProgram(context: CommandContext, handlers: WorkerHandlers = workerHandlers): Command {
  const program = new Command('kit')
    .description('Kit: one documentation engine for people and AI agents.')
    // `-v, --version` is answered by runCli before commander parses, not declared here: commander
    // recognises a program option after a subcommand too, and `kit validate --version 2.x` must
    // reach validate's own `--version`.
    .addHelpText('after', '\nRun `kit --version` (or `kit -v`) to print the version of the kit command.')
    .option(
      '--config <file>',
      'config file to load (default: kit.config.ts, .mjs, .js or .json in the working directory)',
    )
    .option('--set <key>', 'doc set to work on (default: the configured default set; validate checks every set)')
    .option('--debug', 'print stack traces with errors')
    .configureOutput({
      writeOut: (text) => context.io.stdout.write(text),
      writeErr: (text) => context.io.stderr.write(text),
    })
    .exitOverride();
  registerInit(program, context);
  registerServe(program, context);
  registerValidate(program, context);
  registerAffected(program, context);
  registerSync(program, context);
  registerAgents(program, context);
  registerHook(program, context);
  registerMcp(program, context);
  registerSearch(program, context);
  registerMigrate(program, context);
  registerReview(program, context);
  registerAssets(program, context);
  registerWorker(program, context, handlers);
  for (const command of program.commands) {
    command.exitOverride().configureOutput(program.configureOutput());
    for (const sub of command.commands) sub.exitOverride().configureOutput(program.configureOutput());
  }
  return program;
}
