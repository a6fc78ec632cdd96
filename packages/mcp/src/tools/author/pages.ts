import { deletePageTool, movePageTool, writePageTool } from '@kit/core/internal';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { optionalText, pathArgument, requiredArgumentError, toolArguments } from '../../arguments.js';
import { AUTHOR_TOOL } from './annotations.js';
import { authorOutput, type CommonAuthorArguments, objectArgument, pageBasedOn } from './arguments.js';
import type { RunChange } from './run-change.js';

/** Registers `write_page`, `move_page` and `delete_page`. */
export function registerPageAuthorTools(server: McpServer, common: CommonAuthorArguments, run: RunChange): void {
  server.registerTool(
    'write_page',
    {
      title: 'Write a docs page',
      description:
        "Creates or replaces one page: frontmatter (title, description, sources, ...; never secrets or environment values) and the Markdown body. Read the page first and pass its content_hash as based_on. Omitting frontmatter keeps the page's own. Validate after writing.",
      inputSchema: toolArguments('write_page', {
        path: pathArgument('the page path without .md, e.g. "guides/webhooks" ("index" is the landing page).').describe(
          'Page path without .md; "index" is the landing page.',
        ),
        frontmatter: objectArgument('`frontmatter` must be an object, e.g. {"title": "Webhooks"}.')
          .optional()
          .describe("Frontmatter keys (title, description, sources, ...). Default: the page's current frontmatter."),
        body: z
          .string({
            error: requiredArgumentError(
              "Send `body`: the page's Markdown, without the frontmatter block.",
              '`body` must be a string of Markdown.',
            ),
          })
          .describe('Markdown body, without the frontmatter block.'),
        ...common,
        based_on: pageBasedOn,
      }),
      outputSchema: authorOutput,
      annotations: AUTHOR_TOOL,
    },
    (args) => run(args.set, (docSet, call) => writePageTool(docSet, args, call)),
  );

  server.registerTool(
    'move_page',
    {
      title: 'Move a docs page',
      description:
        'Moves one page to a new path, also to another version or locale of the set. Refused when a page is already there. Update links and navigation afterwards (update_navigation rename), then validate.',
      inputSchema: toolArguments('move_page', {
        from: pathArgument('the current page path, e.g. "guides/old-name".').describe('Current page path.'),
        to: pathArgument('the new page path, e.g. "guides/new-name".').describe('New page path.'),
        to_version: optionalText('to_version', 'a version id; omit it to stay in the same version.').describe(
          'Version to move the page to. Default: the same version.',
        ),
        to_locale: optionalText('to_locale', 'a locale code; omit it to stay in the same locale.').describe(
          'Locale to move the page to. Default: the same locale.',
        ),
        ...common,
        based_on: pageBasedOn,
      }),
      outputSchema: authorOutput,
      annotations: AUTHOR_TOOL,
    },
    (args) => run(args.set, (docSet, call) => movePageTool(docSet, args, call)),
  );

  server.registerTool(
    'delete_page',
    {
      title: 'Delete a docs page',
      description:
        'Deletes one page (a database set keeps it in its revision history). Remove it from navigation and fix links to it afterwards, then validate.',
      inputSchema: toolArguments('delete_page', {
        path: pathArgument('the page path, e.g. "guides/old-page".').describe('Page path without .md.'),
        ...common,
        based_on: pageBasedOn,
      }),
      outputSchema: authorOutput,
      annotations: AUTHOR_TOOL,
    },
    (args) => run(args.set, (docSet, call) => deletePageTool(docSet, args, call)),
  );
}
