import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpContext } from '../context.js';
import { toolError } from '../errors.js';

/** Runs a tool's body and turns any failure into the tool error an agent reads. */
export async function guarded(context: McpContext, run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    return toolError(error, context.scope.kind === 'local');
  }
}
