import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { writeLine } from '../io.js';

export function registerInit(program: Command, context: CommandContext): void {
  program
    .command('init')
    .description(
      'Start Kit in this project: kit.config.ts, and kit.json (with $schema), index.md and navigation.json in the docs folder (docs/, or the source.path of the default set when a config exists). Never overwrites a file.',
    )
    .action(async () => {
      const { initProject } = await import('../init/init.js');
      const { created, kept } = await initProject(context.io.cwd);
      for (const path of created) writeLine(context.io.stdout, `created  ${path}`);
      for (const path of kept) writeLine(context.io.stdout, `kept     ${path} (already exists)`);
      writeLine(
        context.io.stdout,
        created.length > 0
          ? 'Next: npx kit serve to read the docs, npx kit validate to check them.'
          : 'Nothing to do: Kit is already set up here.',
      );
    });
}
