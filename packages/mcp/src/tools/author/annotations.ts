import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

/** A tool that changes the docs. */
export const AUTHOR_TOOL: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
};
