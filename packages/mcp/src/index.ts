export { createMcpServer, MCP_SERVER_INFO } from './server.js';
export type { CreateMcpServerOptions } from './server.js';
export type { AffectedPages, AffectedPagesInput, McpScope, ValidateDocs } from './context.js';
export { runStdioServer } from './stdio.js';
export type { StdioServerHandle, StdioServerOptions } from './stdio.js';
export { handleMcpHttpRequest, mcpErrorResponse, MCP_MAX_BODY_BYTES } from './http.js';
export type { McpHttpOptions } from './http.js';
export { MCP_TOOL_NAMES } from './tools.js';
export { AUTHOR_TOOL_NAMES } from './author-tools.js';
export { REVIEW_TOOL_NAMES } from './review-tools.js';
export type { McpToolName } from './tools.js';
export { DOCS_PAGE_URI_TEMPLATE, docsPageUri } from './resources.js';
export type { DocsPageAddress } from './resources.js';
export { mcpInstructions } from './instructions.js';
export {
  buildMcpServerCard,
  SERVER_CARD_MEDIA_TYPE,
  SERVER_CARD_OFFER_KEY,
  SERVER_CARD_SCHEMA_URL,
} from './server-card.js';
export type { McpServerCard, ServerCardOptions, ServerCardPrimitive } from './server-card.js';
