import type { PageListing } from '@kit/core';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { groupArgument, localeArgument, type SetArgument, toolArguments, versionArgument } from '../arguments.js';
import { type McpContext, resolveSet } from '../context.js';
import { READ_TOOL } from './annotations.js';
import { count } from './count.js';
import { guarded } from './guarded.js';

const listOutput = z.object({
  set: z.string(),
  version: z.string(),
  locale: z.string(),
  groups: z.array(
    z.object({
      label: z.string(),
      tab: z.string().optional(),
      pages: z.array(z.object({ title: z.string(), path: z.string(), description: z.string().nullable() })),
    }),
  ),
});

function listText(listing: PageListing): string {
  const pages = listing.groups.reduce((sum, group) => sum + group.pages.length, 0);
  const lines = [
    `${listing.set} ${listing.version} (${listing.locale}): ${count(pages, 'page')} in ${count(listing.groups.length, 'group')}.`,
  ];
  for (const group of listing.groups) {
    lines.push('', `## ${group.tab ? `${group.tab} › ` : ''}${group.label}`);
    for (const page of group.pages) {
      lines.push(`- ${page.title} (path: ${page.path})${page.description ? `: ${page.description}` : ''}`);
    }
  }
  return lines.join('\n');
}

/** Registers `list_pages`: the docs as the navigation shows them. */
export function registerListPages(server: McpServer, context: McpContext, set: SetArgument): void {
  server.registerTool(
    'list_pages',
    {
      title: 'List the docs pages',
      description:
        'Lists the docs as the navigation shows them: groups in order, then their pages with title, path and description.',
      inputSchema: toolArguments('list_pages', {
        version: versionArgument(context.examples),
        locale: localeArgument(context.examples),
        group: groupArgument,
        set,
      }),
      outputSchema: listOutput,
      annotations: READ_TOOL,
    },
    (args) =>
      guarded(context, async () => {
        const docSet = await resolveSet(context, args.set);
        const listing = await docSet.listPages(
          { version: args.version, locale: args.locale, group: args.group },
          context.viewer,
        );
        return {
          content: [{ type: 'text', text: listText(listing) }],
          structuredContent: listing as unknown as Record<string, unknown>,
        };
      }),
  );
}
