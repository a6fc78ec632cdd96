import { KitError } from '@kit/core';
import type { Command } from 'commander';
import type { CommandContext, GlobalOptions } from '../context.js';
import { writeLine } from '../io.js';
import { addNotes } from '../notes.js';
import type { SyncFlags } from '../sync/sync.js';

function wholeNumber(value: string): number {
  const parsed = Number(value);
  return Number.isInteger(parsed) ? parsed : Number.NaN;
}

/** What commander hands the `kit sync` action: the run's flags (the set comes as a global option) and its own. */
type SyncCommandOptions = Omit<SyncFlags, 'set' | 'head'> & {
  head: string;
  queue?: boolean;
  status?: boolean;
  json?: boolean;
};

/** The run's flags among the command's options, leaving out those not given. */
function syncFlags(options: SyncCommandOptions): SyncFlags {
  const flags: SyncFlags = { head: options.head };
  if (options.base !== undefined) flags.base = options.base;
  if (options.provider !== undefined) flags.provider = options.provider;
  if (options.model !== undefined) flags.model = options.model;
  if (options.maxPages !== undefined) flags.maxPages = options.maxPages;
  if (options.maxSteps !== undefined) flags.maxSteps = options.maxSteps;
  if (options.dryRun) flags.dryRun = true;
  if (options.remote !== undefined) flags.remote = options.remote;
  return flags;
}

export function registerSync(program: Command, context: CommandContext): void {
  const sync = program
    .command('sync')
    .description(
      'Update the pages a code change made stale: the docs agent reads the diff, the stale pages (the same check as kit affected) and the code, and changes the pages through the author tools with based_on, so a page a person edited meanwhile is left as a conflict. Needs the optional AI package.',
    )
    .option(
      '--base <ref>',
      'commit, branch or tag to compare with (default: the default branch: instructions.default_branch, else origin/HEAD, else main or master)',
    )
    .option('--head <ref>', 'commit to compare; with HEAD, uncommitted work counts too', 'HEAD')
    .option('--provider <name>', 'AI provider: openai, anthropic or openai-compatible (default: ai.sync.provider)')
    .option('--model <id>', 'model (default: ai.sync.model, else the provider default)')
    .option('--max-pages <n>', 'most pages one run changes (default: ai.sync.max_pages, 20)', wholeNumber)
    .option('--max-steps <n>', 'most steps (model calls) one run takes (default: ai.sync.max_steps, 30)', wholeNumber)
    .option('--dry-run', 'print the proposed changes as a unified diff and write nothing')
    .option(
      '--remote <url>',
      "run against a production set's web MCP endpoint (https://docs.example.com/docs/mcp), sending KIT_SYNC_TOKEN (ai.sync.remote_token) as the bearer token; changes follow that set's review (drafts under review: required)",
    )
    .option(
      '--queue',
      'enqueue the run for kit worker instead of running it (queue: ai.sync.queue, env KIT_SYNC_QUEUE, else default); prints the job id',
    )
    .option('--status', 'list the recent queued runs and their state, result or error, instead of running')
    .option('--json', 'print the result as JSON');
  addNotes(
    sync,
    `The agent sees the diff between the merge base of --base and --head (plus uncommitted work when --head is HEAD), the stale pages with their content_hash, and read access to the project's files through read_file and list_files. It never reads, and the diff never shows, files in the deny list: dotfiles and dot folders, config/, storage/, vendor/, node_modules/, kit.config.*, environment files, keys and certificates, credentials, local databases, plus the ai.sync.deny globs. A denied file's changes are replaced by one line naming it.

It changes pages only with write_page and based_on: a page a person changed during the run is reported conflicted, never overwritten. On a repository set the page files change in the working tree (commit them with the code); with --remote the endpoint's own review applies.

A run stops cleanly at ai.sync.max_steps, at a provider request longer than ai.sync.timeout seconds, or at a provider error; pages over ai.sync.max_pages are left for the next run. The result lists the pages changed (with the revision or draft each created), the pages left stale and why, and the validation issues of the changed pages. Exit code 1 when a page was left stale or a changed page has a validation error.

--json prints { base, head, dry_run, remote, provider, model, steps, stopped, changed: [{ set, version, locale, path, title, file, outcome, message, revision }], stale: [{ ..., reason, message }], validation: { errors, warnings, issues }, diff, summary }.

Without the optional AI package it stops with the install steps: npm install --save-dev @kit/ai ai @ai-sdk/openai.

--queue records the run, with its flags and the project folder, on a job queue in PostgreSQL (pg-boss 12, an optional package) and returns; kit worker runs it there, retrying with backoff, one run per set and branch at a time. Enqueueing a run while the same one waits adds nothing (the waiting run's id is printed). --status lists the recent runs: queued, running, retrying, completed (with the result) or failed (with the error); with --json, { queue, runs }.`,
  );
  sync.action(async (options: SyncCommandOptions, command: Command) => {
    const globals = context.globals(command);
    if (options.queue || options.status) {
      await queuedSync(context, globals, options);
      return;
    }
    const { runSync } = await import('../sync/sync.js');
    const result = await runSync({
      cwd: context.io.cwd,
      ...(context.io.env !== process.env ? { env: context.io.env } : {}),
      ...(globals.config !== undefined ? { configFile: globals.config } : {}),
      ...(globals.set !== undefined ? { set: globals.set } : {}),
      ...syncFlags(options),
    });
    if (result.stale.length > 0 || result.validation.errors > 0) context.exitCode = 1;
    const out = context.io.stdout;
    if (options.json) {
      writeLine(out, JSON.stringify(result, null, 2));
      return;
    }
    const name = (page: { set: string; version: string; locale: string; path: string }) =>
      `${page.set}:${page.version === 'current' ? '' : `${page.version}/`}${page.locale === 'en' ? '' : `${page.locale}/`}${page.path}`;
    if (result.changed.length === 0 && result.stale.length === 0) {
      writeLine(out, `No stale pages: nothing to sync for ${result.base}...${result.head}.`);
      return;
    }
    if (result.diff) writeLine(out, result.diff.trimEnd());
    const verb = result.dry_run ? 'Would change' : 'Changed';
    writeLine(out, `${verb} ${result.changed.length} page${result.changed.length === 1 ? '' : 's'}:`);
    for (const page of result.changed) {
      const revision = page.revision?.id ? ` (revision ${page.revision.id})` : '';
      writeLine(out, `  ${page.outcome.padEnd(10)} ${name(page)}${revision}`);
    }
    if (result.stale.length > 0) {
      writeLine(out, `Left stale: ${result.stale.length}`);
      for (const page of result.stale) writeLine(out, `  ${page.reason.padEnd(15)} ${name(page)}: ${page.message}`);
    }
    if (result.stopped) writeLine(out, `Stopped: ${result.stopped.message}`);
    if (result.validation.issues.length > 0) {
      writeLine(
        out,
        `Validation of the changed pages: ${result.validation.errors} errors, ${result.validation.warnings} warnings`,
      );
      for (const issue of result.validation.issues) {
        writeLine(out, `  ${issue.severity} ${issue.rule} (${issue.set}:${issue.page}): ${issue.message}`);
      }
    }
    if (result.summary) writeLine(out, `\n${result.summary}`);
    writeLine(out, `${result.steps} steps with ${result.provider} (${result.model}).`);
  });
}

/** `kit sync --queue` and `kit sync --status`: the queue's side of `kit sync` (see `kit worker`). */
async function queuedSync(context: CommandContext, globals: GlobalOptions, options: SyncCommandOptions): Promise<void> {
  if (options.queue && options.status) {
    throw new KitError('argument.invalid', '--queue and --status do not go together: enqueue a run, or list the runs.');
  }
  if (options.queue && globals.config !== undefined) {
    throw new KitError(
      'argument.invalid',
      "--config cannot travel with a queued run: kit worker runs it with the project's own kit.config.* in its folder. Run kit sync --queue in that folder without --config.",
    );
  }
  const [{ loadConfig }, { enqueueFromCli, formatEnqueued, printSyncStatus }, { positive }] = await Promise.all([
    import('@kit/core/node'),
    import('../queue/cli.js'),
    import('../sync/sync.js'),
  ]);
  // Checked now, not when a worker takes the run.
  const maxPages = positive(options.maxPages, '--max-pages', 'ai.sync.max_pages');
  const maxSteps = positive(options.maxSteps, '--max-steps', 'ai.sync.max_steps');
  const config = await loadConfig({
    cwd: context.io.cwd,
    ...(context.io.env !== process.env ? { env: context.io.env } : {}),
    ...(globals.config !== undefined ? { file: globals.config } : {}),
  });
  if (options.status) {
    await printSyncStatus(context.io.stdout, config, { json: options.json === true });
    return;
  }
  const run = await enqueueFromCli(config, {
    cwd: config.root,
    ...(globals.set !== undefined ? { set: globals.set } : {}),
    ...syncFlags(options),
    ...(maxPages !== undefined ? { maxPages } : {}),
    ...(maxSteps !== undefined ? { maxSteps } : {}),
  });
  writeLine(context.io.stdout, options.json ? JSON.stringify(run, null, 2) : formatEnqueued(run));
}
