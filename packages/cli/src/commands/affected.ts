import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { writeLine } from '../io.js';
import { addNotes } from '../notes.js';

export function registerAffected(program: Command, context: CommandContext): void {
  const affected = program
    .command('affected')
    .description(
      'List pages whose frontmatter sources: globs match files changed between the base and head plus uncommitted work, each updated (the page changed too) or stale. Same check as the affected_pages MCP tool.',
    )
    .option(
      '--base <ref>',
      'commit, branch or tag to compare with (default: the default branch: instructions.default_branch, else origin/HEAD, else main or master)',
    )
    .option('--head <ref>', 'commit to compare', 'HEAD')
    .option('--no-uncommitted', 'leave out uncommitted work (staged, unstaged and untracked files)')
    .option('--drift', 'also list pages that drifted earlier: a source changed in a commit after the page last changed')
    .option('--json', 'print the result as JSON');
  addNotes(
    affected,
    `A page lists the files it documents in its frontmatter, as globs relative to the project root (picomatch syntax):

    ---
    title: Routing
    sources:
      - src/router/**
      - src/middleware.ts
    ---

Changed files are those between the merge base of the base and the head, plus (unless --no-uncommitted) staged, unstaged and untracked files. Each listed page is updated (its own file changed too) or stale. With --drift, pages whose sources changed in a commit after the page's own last change are listed as stale with drift: true.

--json prints { base, head, uncommitted, changed: [files], pages: [{ set, version, locale, path, title, file, status, drift?, matched: [files] }] }.`,
  );
  affected.action(
    async (
      options: { base?: string; head: string; uncommitted: boolean; drift?: boolean; json?: boolean },
      command: Command,
    ) => {
      const { affectedPages } = await import('../affected/affected.js');
      const globals = context.globals(command);
      const kit = await context.loadKit(command, { git: false });
      try {
        const result = await affectedPages({
          kit,
          env: context.io.env,
          head: options.head,
          uncommitted: options.uncommitted,
          drift: options.drift === true,
          ...(options.base !== undefined ? { base: options.base } : {}),
          ...(globals.set !== undefined ? { set: globals.set } : {}),
        });
        if (options.json) {
          writeLine(context.io.stdout, JSON.stringify(result, null, 2));
          return;
        }
        const out = context.io.stdout;
        const scope = `${result.base}...${result.head}${result.uncommitted ? ' plus uncommitted work' : ''}`;
        if (result.pages.length === 0) {
          writeLine(
            out,
            `No pages are affected by the changes in ${scope} (${result.changed.length} changed file${result.changed.length === 1 ? '' : 's'}).`,
          );
          return;
        }
        writeLine(out, `Pages affected by ${scope}:`);
        for (const page of result.pages) {
          const where = kit.sets.size > 1 ? `${page.set}:` : '';
          const status = page.drift ? 'stale (drift)' : page.status;
          writeLine(
            out,
            `  ${status.padEnd(13)} ${where}${page.version === 'current' ? '' : `${page.version}/`}${page.locale === 'en' ? '' : `${page.locale}/`}${page.path}  ${page.file ?? ''}`,
          );
          writeLine(
            out,
            `  ${''.padEnd(13)} sources changed: ${page.matched.slice(0, 5).join(', ')}${page.matched.length > 5 ? `, and ${page.matched.length - 5} more` : ''}`,
          );
        }
        const stale = result.pages.filter((page) => page.status === 'stale').length;
        writeLine(out, `${stale} stale, ${result.pages.length - stale} updated.`);
      } finally {
        await kit.close();
      }
    },
  );
}
