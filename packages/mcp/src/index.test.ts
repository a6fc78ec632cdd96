import { describe, expect, it } from 'vitest';

describe('@kit/mcp public API', () => {
  it('exports exactly the documented names', async () => {
    expect(Object.keys(await import('./index.js')).sort()).toEqual([
      'AUTHOR_TOOL_NAMES',
      'DOCS_PAGE_URI_TEMPLATE',
      'MCP_MAX_BODY_BYTES',
      'MCP_SERVER_INFO',
      'MCP_TOOL_NAMES',
      'REVIEW_TOOL_NAMES',
      'SERVER_CARD_MEDIA_TYPE',
      'SERVER_CARD_OFFER_KEY',
      'SERVER_CARD_SCHEMA_URL',
      'buildMcpServerCard',
      'createMcpServer',
      'docsPageUri',
      'handleMcpHttpRequest',
      'mcpErrorResponse',
      'mcpInstructions',
      'runStdioServer',
    ]);
  });
});
