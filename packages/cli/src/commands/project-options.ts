import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { locateProject } from '../project.js';

/**
 * The `loadKit` options of a command that serves docs (`kit serve`, `kit mcp`): the project it was
 * started in or named, or a named folder of Markdown with the default config. Throws outside a
 * project (see {@link locateProject}).
 */
export function projectOptions(
  context: CommandContext,
  command: Command,
  name: string,
  folder: string | undefined,
): { cwd: string } | { config: import('@kit/core').ResolvedConfig } {
  const globals = context.globals(command);
  const where = locateProject({
    cwd: context.io.cwd,
    command: name,
    env: context.io.env,
    ...(folder !== undefined ? { folder } : {}),
    ...(globals.config !== undefined ? { configFile: globals.config } : {}),
  });
  return where.kind === 'project' ? { cwd: where.cwd } : { config: where.config };
}
