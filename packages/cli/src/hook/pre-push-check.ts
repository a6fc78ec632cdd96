import { dirname, resolve } from 'node:path';
import type { HookFailurePolicy } from '@kit/core';
import { isHooksOff } from '@kit/core/internal';
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { writeLine } from '../io.js';
import { readHookInput } from './hook-input.js';
import { compileHooks, readHooksCache } from './hooks.js';
import { findPushCommand } from './push-commands.js';

/** Exit code that blocks the tool call in a Claude Code PreToolUse hook (stderr goes to the agent). */
export const HOOK_BLOCK_EXIT_CODE = 2;
/** Exit code of a check that failed and let the command run (`hooks.on_failure: 'allow'`). */
export const HOOK_FAILED_EXIT_CODE = 1;

/**
 * `kit hook`: given the command a coding agent is about to run (`words`, else stdin), blocks it
 * with exit code 2 when it may push and pages it affects are stale. When the check itself fails,
 * `hooks.on_failure` decides (read from `.kit/hooks.json`, else the config; `'block'` when neither
 * can be read).
 */
export async function prePushCheck(context: CommandContext, command: Command, words: readonly string[]): Promise<void> {
  if (isHooksOff(context.io.env.KIT_HOOKS)) return;
  const decided: { policy: HookFailurePolicy } = { policy: 'block' };
  try {
    await checkCommand(context, command, words, decided);
  } catch (error) {
    reportFailure(context, error, decided.policy, context.globals(command).debug === true);
  }
}

async function checkCommand(
  context: CommandContext,
  command: Command,
  words: readonly string[],
  decided: { policy: HookFailurePolicy },
): Promise<void> {
  const input = await readHookInput(words, context.io.stdin);
  if (input === null) return;
  const globals = context.globals(command);
  // The compiled cache (kit agents) answers "may this push?" without loading the config, so the
  // hook costs next to nothing on every other command an agent runs.
  const root = globals.config !== undefined ? dirname(resolve(context.io.cwd, globals.config)) : context.io.cwd;
  const cached = await readHooksCache(root);
  if (cached) {
    decided.policy = cached.on_failure;
    if (!cached.enabled || !findPushCommand(input, cached.push_commands)) return;
  }
  const kit = await context.loadKit(command, { git: false });
  try {
    const hooks = compileHooks(kit.config);
    decided.policy = hooks.on_failure;
    if (!hooks.enabled || !findPushCommand(input, hooks.push_commands)) return;
    const { affectedPages } = await import('../affected/affected.js');
    const result = await affectedPages({
      kit,
      env: context.io.env,
      ...(globals.set !== undefined ? { set: globals.set } : {}),
    });
    const stale = result.pages.filter((page) => page.status === 'stale');
    if (stale.length === 0) return;
    const err = context.io.stderr;
    const one = stale.length === 1;
    writeLine(
      err,
      `Docs are stale: ${stale.length} page${one ? '' : 's'} document${one ? 's' : ''} files changed since ${result.base} and ${one ? 'was' : 'were'} not updated:`,
    );
    for (const page of stale) {
      const matched = `${page.matched.slice(0, 3).join(', ')}${page.matched.length > 3 ? ', ...' : ''}`;
      writeLine(
        err,
        `- ${page.file ?? page.path} (set ${page.set}, version ${page.version}): sources changed: ${matched}`,
      );
    }
    const update = kit.config.ai.sync.provider
      ? 'edit their files, or let the docs agent do it: npx -p @kit/cli kit sync, then review and commit its changes'
      : 'edit their files';
    writeLine(
      err,
      `Update these pages in the same change (${update}), then push again. To push anyway, the check must be off where kit hook runs (KIT_HOOKS=off in its environment, or hooks.enabled: false).`,
    );
    context.exitCode = HOOK_BLOCK_EXIT_CODE;
  } finally {
    await kit.close();
  }
}

/** A check that failed: blocks the command or lets it run, as `hooks.on_failure` says, and says why. */
function reportFailure(context: CommandContext, error: unknown, policy: HookFailurePolicy, debug: boolean): void {
  const err = context.io.stderr;
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ').trim();
  if (context.exitCode === HOOK_BLOCK_EXIT_CODE) {
    // Stale pages were found and reported; what failed after that (closing the kit) changes nothing.
    writeLine(err, `kit hook: ${message}`);
  } else if (policy === 'block') {
    writeLine(
      err,
      `kit hook could not check this command for stale docs, so it is blocked in case it pushes (hooks.on_failure: 'block'): ${message}`,
    );
    writeLine(
      err,
      "Fix that problem, then run the command again. To let commands run when the check fails, set hooks.on_failure: 'allow'; to turn the check off, KIT_HOOKS=off where kit hook runs.",
    );
    context.exitCode = HOOK_BLOCK_EXIT_CODE;
  } else {
    writeLine(
      err,
      `kit hook could not check this command for stale docs; it runs unchecked (hooks.on_failure: 'allow'): ${message}`,
    );
    context.exitCode = HOOK_FAILED_EXIT_CODE;
  }
  if (debug && error instanceof Error && error.stack) writeLine(err, error.stack);
}
