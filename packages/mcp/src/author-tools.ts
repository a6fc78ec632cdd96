import {
  ASSET_EXTENSIONS,
  type AuthorCall,
  type AuthorToolResult,
  authorOutcomes,
  type DocSet,
  deleteAssetTool,
  deletePageTool,
  MAX_ASSET_BYTES,
  manifestSchemaUrl,
  movePageTool,
  updateManifestTool,
  updateNavigationTool,
  userIdentity,
  type ValidationIssue,
  writeAssetTool,
  writePageTool,
} from '@kit/core';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import {
  localeArgument,
  optionalText,
  pathArgument,
  requiredArgumentError,
  setArgument,
  toolArguments,
  versionArgument,
} from './arguments.js';
import { type McpContext, resolveSet, type ValidateDocs } from './context.js';
import { guarded } from './tools.js';

/** The author tools, in the order `tools/list` shows them. */
export const AUTHOR_TOOL_NAMES = [
  'write_page',
  'move_page',
  'delete_page',
  'update_navigation',
  'update_manifest',
  'write_asset',
  'delete_asset',
] as const;

const AUTHOR_TOOL: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
};

const authorOutput = z.object({
  outcome: z.enum(authorOutcomes),
  message: z.string(),
  revision: z.looseObject({ content_hash: z.string() }).nullable(),
  validation: z.object({ errors: z.number(), warnings: z.number(), issues: z.array(z.looseObject({})) }).nullable(),
  docs_migration: z.looseObject({ file: z.string() }).nullable(),
});

/** An object argument (a JSON object of any keys), with the message for anything else. */
function objectArgument(error: string | ((issue: { input?: unknown }) => string)) {
  return z.record(z.string(), z.unknown(), { error });
}

const summaryArgument = optionalText('summary', 'one line saying what the change does, or omit it.')
  .pipe(z.string().max(500, '`summary` is one line: at most 500 characters.').optional())
  .describe('One line describing the change, for the revision list and the pull request.');

function basedOnArgument(source: string) {
  return optionalText('based_on', `${source}, or omit it.`).describe(
    `Content hash the change was written against (${source}); the change is refused as conflicted if the content changed since.`,
  );
}

const pageBasedOn = basedOnArgument('the content_hash read_page returned; omit it for a new page');
const fileBasedOn = (tool: string) =>
  basedOnArgument(`the revision.content_hash of your last ${tool} call; omit it to change the current state`);

/** Where the author tools of a server come from, and the check they run after writing. */
export interface AuthorOffer {
  /** The `kit validate --json` check; its issues about what a change touched come back in `validation`. */
  validate?: ValidateDocs | undefined;
}

/**
 * Who makes a change through this server: the signed-in user's identity (core's `userIdentity`:
 * their id, else e-mail), the one the review rule compares with a reviewer's; else
 * `agent:<client name>`, a label for the history rather than an identity.
 */
export function authorOf(server: McpServer, context: McpContext): string {
  const identity = userIdentity(context.viewer.user);
  if (identity !== null) return identity;
  const client = server.server.getClientVersion()?.name;
  return `agent:${client ?? 'mcp'}`;
}

function resultText(result: AuthorToolResult): string {
  const lines = [`${result.outcome}: ${result.message}`];
  if (result.revision) lines.push(`content_hash: ${result.revision.content_hash}`);
  if (result.docs_migration) lines.push(`docs migration: ${result.docs_migration.file}`);
  for (const issue of result.validation?.issues ?? []) {
    const at = [issue.file, issue.line].filter((part) => part !== undefined).join(':');
    lines.push(
      `- ${issue.severity} ${issue.rule}${at ? ` (${at})` : ''}: ${issue.message}${issue.fix ? ` Fix: ${issue.fix}` : ''}`,
    );
  }
  return lines.join('\n');
}

/**
 * Registers `write_page`, `move_page`, `delete_page`, `update_navigation`, `update_manifest`,
 * `write_asset` and `delete_asset`.
 * The caller decides whether to offer them (core's `authorAccess`); each call checks again, as the
 * web endpoint hands one server to many callers of the same kind.
 */
export function registerAuthorTools(server: McpServer, context: McpContext, offer: AuthorOffer): void {
  const { kit, scope } = context;
  const set = setArgument(scope.kind === 'local' ? { kind: 'local', defaultSet: kit.config.default } : scope);
  // Every author tool but update_manifest takes these; each adds its own based_on.
  const common = {
    version: versionArgument(context.examples, 'Default: the default version.'),
    locale: localeArgument(context.examples, 'Default: the default locale.'),
    summary: summaryArgument,
    set,
  };

  const run = (
    requestedSet: string | undefined,
    change: (docSet: DocSet, call: AuthorCall) => Promise<AuthorToolResult>,
  ): Promise<CallToolResult> =>
    guarded(context, async () => {
      const docSet = await resolveSet(context, requestedSet);
      const validate = offer.validate;
      const call: AuthorCall = {
        viewer: context.viewer,
        channel: scope.kind === 'local' ? 'local' : 'web',
        author: authorOf(server, context),
        ...(context.schemaOrigin ? { manifestSchemaUrl: manifestSchemaUrl(context.schemaOrigin) } : {}),
        ...(validate
          ? { validate: async (input) => (await validate(input)) as unknown as { issues: readonly ValidationIssue[] } }
          : {}),
      };
      const result = await change(docSet, call);
      return {
        content: [{ type: 'text', text: resultText(result) }],
        structuredContent: result as unknown as Record<string, unknown>,
      };
    });

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
