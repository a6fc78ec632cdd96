import { ASSET_EXTENSIONS, MAX_ASSET_BYTES } from '@kit/core';
import { deleteAssetTool, writeAssetTool } from '@kit/core/internal';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { pathArgument, requiredArgumentError, toolArguments } from '../../arguments.js';
import { AUTHOR_TOOL } from './annotations.js';
import { authorOutput, basedOnArgument, type CommonAuthorArguments } from './arguments.js';
import type { RunChange } from './run-change.js';

/** Registers `write_asset` and `delete_asset`: the files pages link (images, PDFs, downloads). */
export function registerAssetAuthorTools(server: McpServer, common: CommonAuthorArguments, run: RunChange): void {
  const assetPath = (what: string) =>
    pathArgument(
      `${what}, e.g. "images/flow.png" (beside the pages of the version), or "/brand/logo.svg" (beside kit.json).`,
    ).describe(
      'File path beside the pages of the version and locale (e.g. "images/flow.png", linked from a page as ./images/flow.png); start it with "/" to name it from the set folder, beside kit.json (e.g. "/brand/logo.svg").',
    );
  const assetBasedOn = basedOnArgument(
    'the revision.content_hash of your last write_asset call for this file; omit it to add a file or replace what is there',
  );

  server.registerTool(
    'write_asset',
    {
      title: 'Add or replace a file',
      description: `Adds or replaces one file of the docs (an image, PDF, stylesheet, download) that pages link. \`content\` is the file as base64 or a data URL ("data:image/png;base64,..."). Accepted: ${ASSET_EXTENSIONS.map((ext) => `.${ext}`).join(', ')}, at most ${MAX_ASSET_BYTES / (1024 * 1024)} MiB (over the web the whole request is at most 1 MiB). Refused: bytes that are not what the name says, SVG or XML with scripts or event handlers, credentials in text files, dotfiles and secret-looking names. Link it from a page afterwards (write_page).`,
      inputSchema: toolArguments('write_asset', {
        path: assetPath('the file path'),
        content: z
          .string({
            error: requiredArgumentError(
              'Send `content`: the file as base64 or a data URL ("data:image/png;base64,...").',
              '`content` must be a string: the file as base64 or a data URL.',
            ),
          })
          .describe('The file: standard base64, or a data URL such as "data:image/png;base64,iVBOR...".'),
        ...common,
        based_on: assetBasedOn,
      }),
      outputSchema: authorOutput,
      annotations: AUTHOR_TOOL,
    },
    (args) => run(args.set, (docSet, call) => writeAssetTool(docSet, args, call)),
  );

  server.registerTool(
    'delete_asset',
    {
      title: 'Delete a file',
      description:
        'Deletes one file of the docs, named as for write_asset. Pages that link it show a broken link afterwards: fix them, then validate.',
      inputSchema: toolArguments('delete_asset', {
        path: assetPath('the file path'),
        ...common,
        based_on: assetBasedOn,
      }),
      outputSchema: authorOutput,
      annotations: AUTHOR_TOOL,
    },
    (args) => run(args.set, (docSet, call) => deleteAssetTool(docSet, args, call)),
  );
}
