import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { setArgument } from './arguments.js';
import type { AffectedPages, McpContext, ValidateDocs } from './context.js';
import { registerAffectedPages } from './tools/affected-pages.js';
import { registerListPages } from './tools/list-pages.js';
import { registerReadPage } from './tools/read-page.js';
import { registerSearchDocs } from './tools/search-docs.js';
import { registerSubmitFeedback } from './tools/submit-feedback.js';
import { registerValidateDocs } from './tools/validate-docs.js';

/** The names of every tool this package serves, in the order `tools/list` shows them. */
export const MCP_TOOL_NAMES = [
  'search_docs',
  'read_page',
  'list_pages',
  'submit_feedback',
  'validate_docs',
  'affected_pages',
] as const;
export type McpToolName = (typeof MCP_TOOL_NAMES)[number];

/** Which optional tools this caller gets; decided once per server, before `tools/list`. */
export interface ToolOffer {
  feedback: boolean;
  validate: ValidateDocs | undefined;
  /** Local server only. */
  affected?: AffectedPages | undefined;
}

/** Registers the tools this caller may use on `server`. */
export function registerTools(server: McpServer, context: McpContext, offer: ToolOffer): void {
  // The viewer is read from the context at call time: the web endpoint reuses a server across callers.
  const { kit, scope } = context;
  const set = setArgument(scope.kind === 'local' ? { kind: 'local', defaultSet: kit.config.default } : scope);

  registerSearchDocs(server, context, set);
  registerReadPage(server, context, set);
  registerListPages(server, context, set);
  if (offer.feedback) registerSubmitFeedback(server, context, set);
  if (offer.validate) registerValidateDocs(server, context, set, offer.validate);
  if (offer.affected) registerAffectedPages(server, context, offer.affected);
}
