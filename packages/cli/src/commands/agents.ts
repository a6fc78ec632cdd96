import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { compileHooks, writeHooksCache } from '../hook/hooks.js';
import { writeLine } from '../io.js';

export function registerAgents(program: Command, context: CommandContext): void {
  program
    .command('agents')
    .description(
      'Write the agent instructions block (docs tools, review mode, docs index) into instructions.file between <!-- kit:start --> and <!-- kit:end -->, replacing only that block, and compile the hooks settings (push_commands, enabled, on_failure) into .kit/hooks.json for kit hook.',
    )
    .action(async (_options: unknown, command: Command) => {
      const kit = await context.loadKit(command, { git: false });
      const { instructionsBlock, leftOutNote, replaceBlock, setsLeftOutOfIndex } = await import(
        '../agents/instructions.js'
      );
      try {
        const root = kit.config.root;
        const file = resolve(root, kit.config.instructions.file);
        const existing = existsSync(file) ? await readFile(file, 'utf8') : '';
        const next = replaceBlock(existing, await instructionsBlock(kit));
        const shown = relative(context.io.cwd, file) || file;
        if (next === existing) writeLine(context.io.stdout, `unchanged ${shown}`);
        else {
          // instructions.file may name a folder that does not exist yet (docs/agents/AGENTS.md).
          await mkdir(dirname(file), { recursive: true });
          await writeFile(file, next);
          writeLine(context.io.stdout, `${existing === '' ? 'created' : 'updated'}   ${shown} (instructions block)`);
        }
        const leftOut = kit.config.instructions.index ? setsLeftOutOfIndex(kit) : [];
        if (leftOut.length > 0) writeLine(context.io.stdout, leftOutNote(leftOut));
        const hooksFile = await writeHooksCache(root, compileHooks(kit.config));
        writeLine(
          context.io.stdout,
          `wrote     ${relative(context.io.cwd, hooksFile) || hooksFile} (${kit.config.hooks.push_commands.length} push commands)`,
        );
        writeLine(
          context.io.stdout,
          'To check docs before a coding agent pushes, run `kit hook` from its pre-tool hook (Claude Code: a PreToolUse hook on Bash with the command `npx -p @kit/cli kit hook`).',
        );
      } finally {
        await kit.close();
      }
    });
}
