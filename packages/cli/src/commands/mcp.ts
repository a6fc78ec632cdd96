import type { StdioServerOptions } from '@kit/mcp';
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';

export function registerMcp(program: Command, context: CommandContext): void {
  program
    .command('mcp')
    .description(
      'Run the local MCP server over stdio: every set, every tool (validate_docs and the author tools included). Point a coding agent at `kit mcp`.',
    )
    .option('--origin <url>', 'absolute origin of the deployed site, to make result URLs absolute')
    .action(async (options: { origin?: string }, command: Command) => {
      const kit = await context.loadKit(command, {
        watch: true,
        ...(options.origin !== undefined ? { origin: options.origin } : {}),
      });
      try {
        const [{ runStdioServer }, { validatorFor }, { affectedFor }] = await Promise.all([
          import('@kit/mcp'),
          import('../validate/validate.js'),
          import('../affected/affected.js'),
        ]);
        const serverOptions: StdioServerOptions = {
          validate: validatorFor(kit, options.origin),
          affected: affectedFor(kit),
          ...(options.origin !== undefined ? { origin: options.origin } : {}),
          stdin: context.io.stdin,
          stdout: context.io.stdout,
        };
        const handle = await runStdioServer(kit, serverOptions);
        const stop = () => void handle.close();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
        try {
          await handle.closed;
        } finally {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
        }
      } finally {
        await kit.close();
      }
    });
}
