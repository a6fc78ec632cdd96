import { basename } from 'node:path';
import { KitError, warmKit } from '@kit/core';
import type { StdioServerOptions } from '@kit/mcp';
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { localOperator } from '../operator.js';
import { parseOrigin, schemaOrigin } from '../origin.js';
import { warmErrorsTo } from '../warm-errors.js';
import { projectOptions } from './project-options.js';

export function registerMcp(program: Command, context: CommandContext): void {
  program
    .command('mcp')
    .description(
      "Run the local MCP server over stdio: every set, with search_docs, read_page, list_pages, submit_feedback, validate_docs, affected_pages and the author tools (write_page, move_page, delete_page, update_navigation, update_manifest, write_asset, delete_asset: files in the working tree on a repository set, the local database plus the branch's docs migration on a database set). Point a coding agent at `npx -p @kit/cli kit mcp`, started in the project. Refused when mcp.local is false; outside a project (no kit.config.*, no docs/ folder) it stops and says how to start one.",
    )
    .argument(
      '[folder]',
      'the project folder (with kit.config.ts or docs/), or a folder of Markdown pages to serve as they are (default: the working directory, which must be a project)',
    )
    .option(
      '--origin <url>',
      'absolute origin of the deployed site (http or https, e.g. https://docs.example.com), to make result URLs absolute',
    )
    .action(async (folder: string | undefined, options: { origin?: string }, command: Command) => {
      const origin = options.origin !== undefined ? parseOrigin(options.origin) : undefined;
      const kit = await context.loadKit(command, {
        ...projectOptions(context, command, 'mcp', folder),
        watch: true,
        // Database sets' author tools also write the branch's docs migration, shipped with the code.
        docsMigrations: {},
        ...(origin !== undefined ? { origin } : {}),
      });
      try {
        if (!kit.config.mcp.local) {
          const file = kit.config.file ? basename(kit.config.file) : 'kit.config.ts';
          throw new KitError(
            'access.denied',
            `The local MCP server is turned off: mcp.local is false in ${file}. Set mcp: { local: true } there (or remove the key; true is the default) to run kit mcp.`,
          );
        }
        const [{ runStdioServer }, { validatorFor }, { affectedFor }] = await Promise.all([
          import('@kit/mcp'),
          import('../validate/validate.js'),
          import('../affected/affected.js'),
        ]);
        const serverOptions: StdioServerOptions = {
          validate: validatorFor(kit, origin),
          affected: affectedFor(kit),
          ...(origin !== undefined ? { origin } : {}),
          schemaOrigin: schemaOrigin(origin, context.io.env),
          stdin: context.io.stdin,
          stdout: context.io.stdout,
        };
        // The operator, who sees every set, version and page, named by their account: the agent
        // acts for them, so the review rule takes its decisions for theirs.
        const operator = localOperator(context.io.env);
        const handle = await runStdioServer(kit, { ...serverOptions, viewer: operator });
        // Every version's search index is prepared behind the first tool calls (stdout is the
        // protocol: only a failure is told, on stderr); a search that comes first waits for its build.
        // The operator searches the private audience (every page), so that is the index prepared.
        // Agent Markdown never highlights code, so no grammar is loaded.
        let stopping = false;
        const warming = warmKit(kit, {
          stopped: () => stopping,
          highlight: false,
          viewer: operator,
          onError: warmErrorsTo(context.io.stderr),
        });
        const stop = () => void handle.close();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
        try {
          await handle.closed;
        } finally {
          stopping = true;
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          // The step under way finishes before the kit closes: closing first would end the
          // database pool under its query and report an outage on a normal exit.
          await warming.catch(() => {});
        }
      } finally {
        await kit.close();
      }
    });
}
