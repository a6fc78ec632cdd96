import { KitError } from '@kit/core';
import { DEFAULT_SEARCH_SECTIONS, MAX_SEARCH_LIMIT, MAX_SEARCH_SECTIONS } from '@kit/core/internal';
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { writeLine } from '../io.js';

export function registerSearch(program: Command, context: CommandContext): void {
  program
    .command('search')
    .description('Search the docs as search_docs does and print the best sections.')
    .argument('<query>', 'what to look for')
    .option('--version <id>', 'docs version (default: the default version)')
    .option('--locale <code>', 'locale (default: the main language)')
    .option('--limit <n>', 'number of results, 1 to 20', '8')
    .option(
      '--sections <n>',
      `sections listed per page, 1 to ${MAX_SEARCH_SECTIONS}: the best, then more of the same page that match`,
      String(DEFAULT_SEARCH_SECTIONS),
    )
    .option('--json', 'print the search_docs result as JSON')
    .action(
      async (
        query: string,
        options: { version?: string; locale?: string; limit: string; sections: string; json?: boolean },
        command: Command,
      ) => {
        const limit = Number(options.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) {
          throw new KitError(
            'argument.invalid',
            `--limit must be a whole number from 1 to ${MAX_SEARCH_LIMIT} (got "${options.limit}").`,
          );
        }
        const sections = Number(options.sections);
        if (!Number.isInteger(sections) || sections < 1 || sections > MAX_SEARCH_SECTIONS) {
          throw new KitError(
            'argument.invalid',
            `--sections must be a whole number from 1 to ${MAX_SEARCH_SECTIONS} (got "${options.sections}"); 1 lists one section per page.`,
          );
        }
        const globals = context.globals(command);
        const kit = await context.loadKit(command, { git: false });
        try {
          const result = await kit.set(globals.set).search(
            {
              query,
              limit,
              sections,
              ...(options.version !== undefined ? { version: options.version } : {}),
              ...(options.locale !== undefined ? { locale: options.locale } : {}),
            },
            { user: null, local: true },
            'cli',
          );
          if (options.json) {
            writeLine(context.io.stdout, JSON.stringify(result, null, 2));
            return;
          }
          if (result.results.length === 0) {
            writeLine(context.io.stdout, `No results for "${query}" in the "${result.set}" docs (${result.version}).`);
            return;
          }
          result.results.forEach((hit, index) => {
            const heading = hit.heading ? ` › ${hit.heading}` : '';
            writeLine(context.io.stdout, `${index + 1}. ${hit.title}${heading}`);
            writeLine(context.io.stdout, `   ${hit.url}`);
            if (hit.snippet) writeLine(context.io.stdout, `   ${hit.snippet}`);
            for (const section of hit.sections ?? []) {
              writeLine(context.io.stdout, `   + ${section.heading ?? hit.title}: ${section.url}`);
              if (section.snippet) writeLine(context.io.stdout, `     ${section.snippet}`);
            }
          });
        } finally {
          await kit.close();
        }
      },
    );
}
