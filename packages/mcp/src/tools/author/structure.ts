import { updateManifestTool, updateNavigationTool } from '@kit/core/internal';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { requiredArgumentError, type SetArgument, toolArguments } from '../../arguments.js';
import { AUTHOR_TOOL } from './annotations.js';
import { authorOutput, type CommonAuthorArguments, fileBasedOn, objectArgument, summaryArgument } from './arguments.js';
import type { RunChange } from './run-change.js';

/** Registers `update_navigation` and `update_manifest`: the files that shape the set. */
export function registerStructureAuthorTools(
  server: McpServer,
  common: CommonAuthorArguments,
  set: SetArgument,
  run: RunChange,
): void {
  server.registerTool(
    'update_navigation',
    {
      title: 'Change the navigation',
      description:
        'Changes navigation.json of one version and locale: `tree` replaces the whole file ({"groups": [...]} or {"tabs": [...]}); `patch` applies operations in order: {"op": "add", "path", "group", "title"?, "after"?}, {"op": "move", "path", "group", "after"?}, {"op": "remove", "path"} or {"op": "remove", "group"}, {"op": "rename", "path", "to"} or {"op": "rename", "group", "to"}. A version without the file starts from the navigation derived from its folders.',
      inputSchema: toolArguments('update_navigation', {
        tree: objectArgument('`tree` must be the whole navigation file: {"groups": [...]} or {"tabs": [...]}.')
          .optional()
          .describe('The whole navigation file: {"groups": [...]} or {"tabs": [...]}.'),
        patch: z
          .array(
            objectArgument(
              '`patch` must be a list of operations, each an object such as {"op": "remove", "path": "old-page"}.',
            ),
            { error: '`patch` must be a list of operations, e.g. [{"op": "remove", "path": "old-page"}].' },
          )
          .optional()
          .describe('Operations applied in order: add, move, remove, rename.'),
        ...common,
        based_on: fileBasedOn('update_navigation (for this version and locale)'),
      }),
      outputSchema: authorOutput,
      annotations: AUTHOR_TOOL,
    },
    (args) => run(args.set, (docSet, call) => updateNavigationTool(docSet, args, call)),
  );

  server.registerTool(
    'update_manifest',
    {
      title: 'Change the manifest',
      description:
        'Applies a JSON merge patch (RFC 7386: keys replace, null removes, objects merge, lists are replaced whole) to kit.json. Only presentation and structure: name, description, theme, versions, locales, navbar, redirects and agents.llmsTxt.description. Routes, drivers, AI settings and secrets belong in kit.config.ts.',
      inputSchema: toolArguments('update_manifest', {
        patch: objectArgument(
          requiredArgumentError(
            'Send `patch`: a JSON merge patch object, e.g. {"name": "Acme Docs"}.',
            '`patch` must be an object (a JSON merge patch), e.g. {"name": "Acme Docs"}.',
          ),
        ).describe('JSON merge patch on kit.json.'),
        summary: summaryArgument,
        based_on: fileBasedOn('update_manifest'),
        set,
      }),
      outputSchema: authorOutput,
      annotations: AUTHOR_TOOL,
    },
    (args) => run(args.set, (docSet, call) => updateManifestTool(docSet, args, call)),
  );
}
