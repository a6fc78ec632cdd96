import { type DocSet, KitError } from '@kit/core';
import {
  type DraftView,
  discardDraft,
  listDrafts,
  pageHistory,
  publishDraft,
  type ReviewCall,
  type ReviewResult,
  restorePageChange,
  revisionDiff,
} from '@kit/core/internal';
import type { LoadedKit } from '@kit/node';
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { writeLine } from '../io.js';
import { localOperator } from '../operator.js';

/** How long ago an ISO time was, in words: `just now`, `5 minutes ago`, `2 days ago`. */
export function age(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  const units: Array<[number, string]> = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, unit] of units) {
    const count = Math.floor(seconds / size);
    if (count >= 1) return `${count} ${unit}${count === 1 ? '' : 's'} ago`;
  }
  return 'just now';
}

function what(draft: DraftView): string {
  if (draft.kind === 'manifest') return 'the manifest (kit.json)';
  if (draft.kind === 'navigation') return `the navigation of ${draft.version}/${draft.locale}`;
  if (draft.kind === 'asset')
    return `${draft.action === 'delete' ? 'deletion of' : 'change to'} the file "${draft.path}"`;
  if (draft.action === 'move' && draft.from) {
    return `move of page "${draft.from.path}" (${draft.from.version}/${draft.from.locale}) to "${draft.path}" (${draft.version}/${draft.locale})`;
  }
  const verb = draft.action === 'delete' ? 'deletion of' : draft.action === 'restore' ? 'restore of' : 'change to';
  return `${verb} page "${draft.path}" (${draft.version}/${draft.locale})`;
}

/**
 * Runs `work` on the set the global `--set` names (default: the default set), as the local operator,
 * named by their account (see {@link localOperator}) for the review rule and the history.
 */
async function withSet<T>(
  context: CommandContext,
  command: Command,
  work: (docSet: DocSet, call: ReviewCall, kit: LoadedKit) => Promise<T>,
): Promise<T> {
  const globals = context.globals(command);
  const kit = await context.loadKit(command, { git: false });
  try {
    const call: ReviewCall = {
      viewer: localOperator(context.io.env),
      channel: 'local',
      source: 'cli',
      events: kit.events,
    };
    return await work(kit.set(globals.set), call, kit);
  } finally {
    await kit.close();
  }
}

/**
 * Whether `--json` was given to a subcommand of `kit drafts`: the parent declares the same option,
 * and commander hands it to the parent wherever it stands on the line (`kit drafts publish 12 --json`).
 */
function wantsJson(options: { json?: boolean }, command: Command): boolean {
  return options.json === true || command.parent?.opts<{ json?: boolean }>().json === true;
}

/** Prints one decision; a refusal (`conflicted`, `rejected`) makes the command end with exit code 1. */
function report(context: CommandContext, result: ReviewResult): void {
  writeLine(context.io.stdout, `${result.outcome}: ${result.message}`);
  if (result.outcome === 'conflicted' || result.outcome === 'rejected') context.exitCode = 1;
}

/** The review commands of a database set: `kit drafts` (with `publish` and `discard`), `kit history` and `kit restore`. */
export function registerReview(program: Command, context: CommandContext): void {
  const drafts = registerDrafts(program, context);
  registerPublish(drafts, context);
  registerDiscard(drafts, context);
  registerHistory(program, context);
  registerRestore(program, context);
}

/** Prints the drafts waiting for review, each with its author, age, staleness and diff. */
function printDrafts(context: CommandContext, result: Awaited<ReturnType<typeof listDrafts>>): void {
  if (result.drafts.length === 0) {
    writeLine(context.io.stdout, `No drafts wait for review in the "${result.set}" docs.`);
    return;
  }
  const count = result.drafts.length;
  writeLine(context.io.stdout, `${count} draft${count === 1 ? '' : 's'} in the "${result.set}" docs:`);
  for (const draft of result.drafts) {
    writeLine(context.io.stdout);
    writeLine(context.io.stdout, `Draft ${draft.id}: ${what(draft)}`);
    writeLine(
      context.io.stdout,
      `  by ${draft.author ?? 'unknown'}, ${age(draft.created_at)}${draft.summary ? `: ${draft.summary}` : ''}`,
    );
    if (draft.stale) {
      writeLine(
        context.io.stdout,
        '  stale: the live content changed since this draft was written; publishing it would conflict.',
      );
    }
    if (draft.diff) context.io.stdout.write(draft.diff.replace(/^/gm, '  '));
  }
  writeLine(context.io.stdout);
  writeLine(context.io.stdout, 'Publish with `kit drafts publish <id>`, or discard with `kit drafts discard <id>`.');
}

function registerDrafts(program: Command, context: CommandContext): Command {
  return program
    .command('drafts')
    .description(
      'List the drafts of a database set waiting for review (author, summary, age, page and a diff against the live content); publish or discard them with the subcommands.',
    )
    .option('--json', 'print the drafts as JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      await withSet(context, command, async (docSet, call) => {
        const result = await listDrafts(docSet, call);
        if (options.json) {
          writeLine(context.io.stdout, JSON.stringify(result, null, 2));
          return;
        }
        printDrafts(context, result);
      });
    });
}

function registerPublish(drafts: Command, context: CommandContext): void {
  drafts
    .command('publish')
    .description(
      "Publish drafts: each goes live whole, or is refused as conflicted when its page changed since it was written. Someone other than a draft's author must publish it (rule review.self_publish): you are named by your account (USER), and a draft you wrote, or one that records no author, is rejected unless the set sets review_self_publish.",
    )
    .argument('[ids...]', 'draft ids, as `kit drafts` lists them')
    .option('--all', 'publish every waiting draft, oldest first')
    .option('--json', 'print the results as JSON')
    .action(async (ids: string[], options: { all?: boolean; json?: boolean }, command: Command) => {
      if (options.all && ids.length > 0) {
        throw new KitError('argument.invalid', 'Give draft ids or --all, not both.');
      }
      if (!options.all && ids.length === 0) {
        throw new KitError(
          'argument.invalid',
          'Name the drafts to publish (`kit drafts publish 12 14`) or pass --all. `kit drafts` lists them.',
        );
      }
      const json = wantsJson(options, command);
      await withSet(context, command, async (docSet, call) => {
        const wanted = options.all ? (await listDrafts(docSet, call)).drafts.map((draft) => draft.id) : ids;
        const results: ReviewResult[] = [];
        for (const id of wanted) results.push(await publishDraft(docSet, id, call));
        if (json) {
          writeLine(context.io.stdout, JSON.stringify(results, null, 2));
          if (results.some((result) => result.outcome === 'conflicted' || result.outcome === 'rejected')) {
            context.exitCode = 1;
          }
          return;
        }
        if (wanted.length === 0) writeLine(context.io.stdout, `No drafts wait for review in the "${docSet.key}" docs.`);
        for (const result of results) report(context, result);
      });
    });
}

function registerDiscard(drafts: Command, context: CommandContext): void {
  drafts
    .command('discard')
    .description(
      "Discard drafts: nothing live changes, and each stays in the history as discarded. As with publishing, someone other than a draft's author must discard it (rule review.self_publish).",
    )
    .argument('<ids...>', 'draft ids, as `kit drafts` lists them')
    .option('--json', 'print the results as JSON')
    .action(async (ids: string[], options: { json?: boolean }, command: Command) => {
      const json = wantsJson(options, command);
      await withSet(context, command, async (docSet, call) => {
        const results: ReviewResult[] = [];
        for (const id of ids) results.push(await discardDraft(docSet, id, call));
        if (json) {
          writeLine(context.io.stdout, JSON.stringify(results, null, 2));
          if (results.some((result) => result.outcome === 'rejected')) context.exitCode = 1;
          return;
        }
        for (const result of results) report(context, result);
      });
    });
}

/** Prints a page's revisions, newest first, with how to restore or compare them. */
function printHistory(context: CommandContext, history: Awaited<ReturnType<typeof pageHistory>>): void {
  const live = history.current_hash ? `live ${history.current_hash}` : 'not live (deleted or never written)';
  writeLine(
    context.io.stdout,
    `Page "${history.path}" (${history.version}/${history.locale}) of the "${history.set}" docs: ${live}`,
  );
  if (history.revisions.length === 0) {
    writeLine(context.io.stdout, 'No revisions recorded.');
    return;
  }
  for (const revision of history.revisions) {
    writeLine(
      context.io.stdout,
      `  ${revision.id.padStart(6)}  ${revision.action.padEnd(7)} ${revision.status.padEnd(9)} ${age(revision.created_at).padEnd(16)} ${revision.author ?? 'unknown'}${revision.summary ? `: ${revision.summary}` : ''}`,
    );
  }
  writeLine(
    context.io.stdout,
    `Restore one with \`kit restore ${history.path} --revision <id>\`; compare two with \`kit history ${history.path} --diff <from>..<to>\`.`,
  );
}

/** `kit history --diff <from[..to]>`: the unified diff between two revisions, or to the live page. */
async function printRevisionDiff(
  context: CommandContext,
  docSet: DocSet,
  call: ReviewCall,
  range: string,
  json: boolean | undefined,
): Promise<void> {
  const [from, to] = range.split('..');
  const result = await revisionDiff(docSet, { from: from ?? '', ...(to ? { to } : {}) }, call);
  if (json) writeLine(context.io.stdout, JSON.stringify(result, null, 2));
  else context.io.stdout.write(result.diff || `Revision ${result.from} and ${result.to} hold the same text.\n`);
}

function registerHistory(program: Command, context: CommandContext): void {
  program
    .command('history')
    .description(
      "List a page's revisions on a database set, newest first (deleted pages too), or show the diff between two of them.",
    )
    .argument('<path>', 'page path without .md, e.g. guides/webhooks')
    .option('--version <id>', 'docs version (default: the default version)')
    .option('--locale <code>', 'locale (default: the main language)')
    .option('--diff <from[..to]>', 'print the unified diff from one revision to another (or to the live page)')
    .option('--json', 'print the history as JSON')
    .action(
      async (
        path: string,
        options: { version?: string; locale?: string; diff?: string; json?: boolean },
        command: Command,
      ) => {
        await withSet(context, command, async (docSet, call) => {
          if (options.diff !== undefined) {
            await printRevisionDiff(context, docSet, call, options.diff, options.json);
            return;
          }
          const history = await pageHistory(
            docSet,
            {
              path,
              ...(options.version !== undefined ? { version: options.version } : {}),
              ...(options.locale !== undefined ? { locale: options.locale } : {}),
            },
            call,
          );
          if (options.json) {
            writeLine(context.io.stdout, JSON.stringify(history, null, 2));
            return;
          }
          printHistory(context, history);
        });
      },
    );
}

function registerRestore(program: Command, context: CommandContext): void {
  program
    .command('restore')
    .description(
      'Restore a page of a database set: a deleted page as it was, or a live page to an older published revision.',
    )
    .argument('<path>', 'page path without .md, e.g. guides/webhooks')
    .option('--revision <id>', 'revision to restore (default: the latest published content)')
    .option('--based-on <hash>', 'content hash of the live page; refuse if the page changed since')
    .option('--version <id>', 'docs version (default: the default version)')
    .option('--locale <code>', 'locale (default: the main language)')
    .option('--json', 'print the result as JSON')
    .action(
      async (
        path: string,
        options: { revision?: string; basedOn?: string; version?: string; locale?: string; json?: boolean },
        command: Command,
      ) => {
        await withSet(context, command, async (docSet, call) => {
          const result = await restorePageChange(
            docSet,
            {
              path,
              ...(options.revision !== undefined ? { revision: options.revision } : {}),
              ...(options.basedOn !== undefined ? { based_on: options.basedOn } : {}),
              ...(options.version !== undefined ? { version: options.version } : {}),
              ...(options.locale !== undefined ? { locale: options.locale } : {}),
            },
            call,
          );
          if (options.json) {
            writeLine(context.io.stdout, JSON.stringify(result, null, 2));
            if (result.outcome === 'conflicted' || result.outcome === 'rejected') context.exitCode = 1;
            return;
          }
          report(context, result);
        });
      },
    );
}
