import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type SetArgument, toolArguments, versionArgument } from '../arguments.js';
import { type McpContext, resolveSet, type ValidateDocs } from '../context.js';
import { READ_TOOL } from './annotations.js';
import { guarded } from './guarded.js';

/** Registers `validate_docs`: the `kit validate` report of a set. */
export function registerValidateDocs(
  server: McpServer,
  context: McpContext,
  set: SetArgument,
  validate: ValidateDocs,
): void {
  server.registerTool(
    'validate_docs',
    {
      title: 'Validate the docs',
      description:
        'Checks broken links and anchors, navigation entries without pages, schema errors in the manifest, navigation and frontmatter, unknown components, missing snippets and more. Each issue has a stable rule id and often a fix. Run it after writing.',
      inputSchema: toolArguments('validate_docs', {
        version: versionArgument(context.examples, 'Only this version. Default: every version.'),
        set,
      }),
      annotations: READ_TOOL,
    },
    (args) =>
      guarded(context, async () => {
        const docSet = await resolveSet(context, args.set);
        const report = await validate({ set: docSet.key, version: args.version });
        return {
          content: [{ type: 'text', text: JSON.stringify(report, null, 2) }],
          structuredContent: report,
        };
      }),
  );
}
