import { dirname, resolve } from 'node:path';
import { isHooksOff } from '@kit/core';
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { compileHooks, isPushCommand, readHooksCache } from '../hook/hooks.js';
import type { CliIo } from '../io.js';
import { writeLine } from '../io.js';
import { addNotes } from '../notes.js';

/** Exit code that blocks the tool call in a Claude Code PreToolUse hook (stderr goes to the agent). */
export const HOOK_BLOCK_EXIT_CODE = 2;

export function registerHook(program: Command, context: CommandContext): void {
  const hook = program
    .command('hook')
    .description(
      "Pre-push docs check for a coding agent's hook: given the command about to run, when it is a push command (hooks.push_commands) and pages it affects are stale, prints them and exits 2, which blocks the call in a Claude Code PreToolUse hook. KIT_HOOKS=off or hooks.enabled false turns it off.",
    )
    .argument(
      '[command...]',
      'the shell command about to run; without it, read from stdin (plain text, or Claude Code hook JSON {"tool_input":{"command":"..."}})',
    );
  addNotes(
    hook,
    `Exit codes: 0 the command may run (not a push, no stale pages, or the check is off); 2 stale docs: the push is blocked and stderr names the pages to update; 1 the check itself failed (a Claude Code hook shows it and lets the command run).

The check is the one kit affected runs with its defaults: pages whose sources: match files changed since the default branch, plus uncommitted work, that were not updated. kit agents compiles hooks.push_commands into .kit/hooks.json so the hook answers other commands without loading the config; run it again after changing hooks.

Claude Code (.claude/settings.json):

    {
      "hooks": {
        "PreToolUse": [
          { "matcher": "Bash", "hooks": [{ "type": "command", "command": "npx -p @kit/cli kit hook" }] }
        ]
      }
    }

Turn it off for one session with KIT_HOOKS=off, or for the project with hooks.enabled: false.`,
  );
  hook.action(async (words: string[], _options: unknown, command: Command) => {
    if (isHooksOff(context.io.env.KIT_HOOKS)) return;
    const shellCommand = words.length > 0 ? words.join(' ') : await commandFromStdin(context.io);
    if (shellCommand.trim() === '') return;
    const globals = context.globals(command);
    // The compiled cache (kit agents) answers "is this a push?" without loading the config, so
    // the hook costs next to nothing on every other command an agent runs.
    const root = globals.config !== undefined ? dirname(resolve(context.io.cwd, globals.config)) : context.io.cwd;
    const cached = await readHooksCache(root);
    if (cached && (!cached.enabled || !isPushCommand(shellCommand, cached))) return;
    const kit = await context.loadKit(command, { git: false });
    try {
      if (!kit.config.hooks.enabled) return;
      const hooks = cached ?? (await readHooksCache(kit.config.root)) ?? compileHooks(kit.config);
      if (!hooks.enabled || !isPushCommand(shellCommand, hooks)) return;
      const { affectedPages } = await import('../affected/affected.js');
      const result = await affectedPages({
        kit,
        env: context.io.env,
        ...(globals.set !== undefined ? { set: globals.set } : {}),
      });
      const stale = result.pages.filter((page) => page.status === 'stale');
      if (stale.length === 0) return;
      const err = context.io.stderr;
      writeLine(
        err,
        `Docs are stale: ${stale.length} page${stale.length === 1 ? '' : 's'} document${stale.length === 1 ? 's' : ''} files changed since ${result.base} and ${stale.length === 1 ? 'was' : 'were'} not updated:`,
      );
      for (const page of stale) {
        writeLine(
          err,
          `- ${page.file ?? page.path} (set ${page.set}, version ${page.version}): sources changed: ${page.matched.slice(0, 3).join(', ')}${page.matched.length > 3 ? ', ...' : ''}`,
        );
      }
      writeLine(
        err,
        kit.config.ai.sync.provider
          ? 'Update these pages in the same change (edit their files, or let the docs agent do it: npx -p @kit/cli kit sync, then review and commit its changes), then push again. To push anyway, run with KIT_HOOKS=off.'
          : 'Update these pages in the same change (edit their files), then push again. To push anyway, run with KIT_HOOKS=off.',
      );
      context.exitCode = HOOK_BLOCK_EXIT_CODE;
    } finally {
      await kit.close();
    }
  });
}

async function commandFromStdin(io: CliIo): Promise<string> {
  if (io.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (!text.startsWith('{')) return text;
  try {
    const parsed = JSON.parse(text) as { tool_input?: { command?: unknown }; command?: unknown };
    const found = parsed.tool_input?.command ?? parsed.command;
    return typeof found === 'string' ? found : '';
  } catch {
    return text;
  }
}
