import type { Command } from 'commander';
import { argumentsAreCommandLine } from '../command-line-args.js';
import type { CommandContext } from '../context.js';
import { prePushCheck } from '../hook/pre-push-check.js';
import { addNotes } from '../notes.js';

export { HOOK_BLOCK_EXIT_CODE } from '../hook/pre-push-check.js';

export function registerHook(program: Command, context: CommandContext): void {
  const hook = program
    .command('hook')
    .description(
      "Pre-push docs check for a coding agent's hook: given the command about to run, when it may run a push command (hooks.push_commands) and pages it affects are stale, prints them and exits 2, which blocks the call in a Claude Code PreToolUse hook. KIT_HOOKS=off or hooks.enabled false turns it off.",
    )
    .argument(
      '[command...]',
      'the shell command about to run, every word after `kit hook` as given (no option is read among them; a leading -- is dropped; --help alone shows this help); without it, read from stdin (plain text, or Claude Code hook JSON {"tool_input":{"command":"..."}})',
    );
  // Every word after `hook` belongs to the checked command, so the usage names no option.
  argumentsAreCommandLine(hook).usage('[command...]');
  addNotes(
    hook,
    `Exit codes:

| Code | When | What a Claude Code PreToolUse hook does |
| --- | --- | --- |
| \`0\` | the command runs no push command, no page it affects is stale, or the check is off | lets it run |
| \`2\` | stale docs: stderr names the pages to update; also a check that failed under \`hooks.on_failure: 'block'\` (the default), stderr saying what failed | blocks it and shows stderr to the agent |
| \`1\` | the check failed under \`hooks.on_failure: 'allow'\` | lets it run and shows the error |

A push command is found however it is written: anywhere in a list or pipeline (\`npm test && git push\`), with options (\`git -C app push --force\`), quoted or escaped, behind assignments and wrappers (\`FOO=1 sudo git push\`), in a substitution, a heredoc or a script another shell runs (\`bash -c 'git push'\`). A script it cannot read (\`bash -c "$SCRIPT"\`) is checked as a push. It does not see a push inside a script file, a git alias, or a command assembled at run time.

The check is the one kit affected runs with its defaults: pages whose sources: match files changed since the default branch, plus uncommitted work, that were not updated. kit agents compiles the hooks settings into .kit/hooks.json so the hook answers other commands without loading the config; run it again after changing hooks.

Claude Code (.claude/settings.json):

    {
      "hooks": {
        "PreToolUse": [
          { "matcher": "Bash", "hooks": [{ "type": "command", "command": "npx -p @kit/cli kit hook" }] }
        ]
      }
    }

Turn it off for a session by starting the agent with KIT_HOOKS=off (the hook reads its own environment: KIT_HOOKS=off written in front of the agent's command does not reach it), or for the project with hooks.enabled: false.`,
  );
  hook.action(async (words: string[], _options: unknown, command: Command) => {
    await prePushCheck(context, command, context.commandLine ?? words);
  });
}
