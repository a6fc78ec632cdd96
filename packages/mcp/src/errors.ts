import { isKitError } from '@kit/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * The one place a failure becomes a tool error. A `KitError` already says what to send instead, so
 * its code and message go to the agent as they are. Anything else is a fault of the server: on the
 * web its message could expose internals, so the agent gets a generic line instead.
 */
export function toolError(error: unknown, exposeInternals: boolean): CallToolResult {
  if (isKitError(error)) {
    return { isError: true, content: [{ type: 'text', text: `${error.code}: ${error.message}` }] };
  }
  const detail = exposeInternals && error instanceof Error ? ` (${error.message})` : '';
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text: `internal: The docs server failed to answer${detail}. Try the call again; if it keeps failing, tell the site's maintainers.`,
      },
    ],
  };
}

const SDK_VALIDATION_PREFIX = /^MCP error -32602: Input validation error: Invalid arguments for tool ([\w-]+): /;
const SDK_PREFIX = /^MCP error -?\d+: /;

/**
 * Rewrites a tool error the SDK produced itself (argument validation, unknown tool) so it reads as
 * a sentence for the agent: `argument.invalid: read_page: Send \`path\`: ...`. Kit's own errors pass
 * through untouched.
 */
export function readableSdkToolError(text: string): string {
  const validation = SDK_VALIDATION_PREFIX.exec(text);
  if (validation) {
    const issues = text
      .slice(validation[0].length)
      .split('\n')
      // The SDK appends ` at <field>`; each of our messages already names its field.
      .map((issue) => issue.replace(/ at [\w.[\]]+$/, ''))
      .join(' ');
    return `argument.invalid: Invalid arguments for ${validation[1]}. ${issues}`;
  }
  if (SDK_PREFIX.test(text)) {
    const message = text.replace(SDK_PREFIX, '');
    const unknownTool = /^Tool ([\w-]+) (not found|disabled)$/.exec(message);
    if (unknownTool) {
      return `argument.invalid: There is no tool "${unknownTool[1]}" for you on this server. Call tools/list to see the tools you may use.`;
    }
    return message;
  }
  return text;
}
