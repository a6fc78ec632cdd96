import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { writeLine } from '../io.js';

export function registerInit(program: Command, context: CommandContext): void {
  program
    .command('init')
    .description(
      'Start Kit in this project: kit.config.ts, and kit.json (with $schema), index.md and navigation.json in the docs folder (docs/, or the source.path of the default set when a config exists). Never overwrites a file; in an existing kit.json only a missing or outdated $schema is brought up to date.',
    )
    .option(
      '--origin <url>',
      "base address of the deployed site (e.g. https://docs.example.com) for kit.json's $schema, {origin}/schemas/3.x/kit.json (default: KIT_URL, else kit serve's http://127.0.0.1:4000)",
    )
    .action(async (options: { origin?: string }) => {
      const [{ initProject }, { parseOrigin }] = await Promise.all([import('../init/init.js'), import('../origin.js')]);
      const origin = options.origin !== undefined ? parseOrigin(options.origin) : undefined;
      const { created, kept, upgraded } = await initProject(context.io.cwd, {
        ...(origin !== undefined ? { origin } : {}),
        env: context.io.env,
      });
      for (const path of created) writeLine(context.io.stdout, `created  ${path}`);
      for (const path of upgraded) writeLine(context.io.stdout, `updated  ${path} ($schema)`);
      for (const path of kept) writeLine(context.io.stdout, `kept     ${path} (already exists)`);
      writeLine(
        context.io.stdout,
        created.length > 0
          ? 'Next: npx kit serve to read the docs, npx kit validate to check them.'
          : upgraded.length > 0
            ? 'Kit was already set up here; only the manifest $schema was brought up to date.'
            : 'Nothing to do: Kit is already set up here.',
      );
    });
}
