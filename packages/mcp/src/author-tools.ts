import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { setArgument } from './arguments.js';
import type { McpContext, ValidateDocs } from './context.js';
import { commonAuthorArguments } from './tools/author/arguments.js';
import { registerAssetAuthorTools } from './tools/author/assets.js';
import { registerPageAuthorTools } from './tools/author/pages.js';
import { changeRunner } from './tools/author/run-change.js';
import { registerStructureAuthorTools } from './tools/author/structure.js';

export { authorOf } from './tools/author/run-change.js';

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

/** Where the author tools of a server come from, and the check they run after writing. */
export interface AuthorOffer {
  /** The `kit validate --json` check; its issues about what a change touched come back in `validation`. */
  validate?: ValidateDocs | undefined;
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
  const common = commonAuthorArguments(context, set);
  const run = changeRunner(server, context, offer);
  registerPageAuthorTools(server, common, run);
  registerStructureAuthorTools(server, common, set, run);
  registerAssetAuthorTools(server, common, run);
}
