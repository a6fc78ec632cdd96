import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

/** A tool that only reads: calling it again gives the same answer. */
export const READ_TOOL: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };

/** A tool that records something new (feedback) and changes nothing else. */
export const FEEDBACK_TOOL: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};
