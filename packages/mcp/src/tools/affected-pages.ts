import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { optionalFlag, optionalName, toolArguments } from '../arguments.js';
import type { AffectedPages, McpContext } from '../context.js';
import { READ_TOOL } from './annotations.js';
import { guarded } from './guarded.js';

/** Registers `affected_pages` (local server only): pages whose sources changed, as `kit affected`. */
export function registerAffectedPages(server: McpServer, context: McpContext, affected: AffectedPages): void {
  const { kit } = context;
  server.registerTool(
    'affected_pages',
    {
      title: 'Pages affected by a change',
      description:
        'Lists pages whose `sources:` frontmatter matches files changed between base (default: the default branch) and head plus uncommitted work; each page is `updated` (the page changed too) or `stale` (update it in the same change). Same check as `kit affected`.',
      inputSchema: toolArguments('affected_pages', {
        base: optionalName('base', 'a commit, branch or tag such as "main"; omit it for the default branch.').describe(
          'Commit, branch or tag to compare with. Default: the default branch.',
        ),
        head: optionalName('head', 'a commit, branch or tag; omit it for HEAD.').describe('Default: HEAD.'),
        uncommitted: optionalFlag('uncommitted').describe('Count staged, unstaged and untracked files. Default: true.'),
        set: optionalName('set', 'a set key; omit it for every set.').describe('Only this set. Default: every set.'),
        drift: optionalFlag('drift').describe(
          'Also list pages that drifted before this change (a source changed after the page). Default: false.',
        ),
      }),
      annotations: READ_TOOL,
    },
    (args) =>
      guarded(context, async () => {
        if (args.set !== undefined) kit.set(args.set);
        const result = (await affected(args)) as Record<string, unknown>;
        return {
          content: [{ type: 'text', text: JSON.stringify(result, null, 2) }],
          structuredContent: result,
        };
      }),
  );
}
