import { isKitError } from '@kit/core';
import {
  type CallToolResult,
  ErrorCode,
  type JSONRPCErrorResponse,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';

/** What a web caller gets for a `source.error`: its message names the set's files, which are the server's business. */
const SOURCE_ERROR_ON_THE_WEB =
  "The docs server cannot read some of its files right now; its log names them. Try again later, or tell the site's maintainers.";

/**
 * True for a `source.error` that a web caller must not read: it is logged here (naming the files
 * the server cannot read), and the caller gets {@link SOURCE_ERROR_ON_THE_WEB}.
 */
function hiddenSourceError(error: unknown, exposeInternals: boolean): boolean {
  if (exposeInternals || !isKitError(error, 'source.error')) return false;
  console.error(error);
  return true;
}

/**
 * The one place a failure becomes a tool error. A `KitError` already says what to send instead, so
 * its code and message go to the agent as they are, except a `source.error` on the web (files the
 * server cannot read or write), which is logged and told without the file names. Anything else is a
 * fault of the server: on the web its message could expose internals, so the agent gets a generic
 * line instead.
 */
export function toolError(error: unknown, exposeInternals: boolean): CallToolResult {
  if (hiddenSourceError(error, exposeInternals)) {
    return { isError: true, content: [{ type: 'text', text: `source.error: ${SOURCE_ERROR_ON_THE_WEB}` }] };
  }
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
 * The SDK's validation issues, one per line, as one sentence run: the first issue of each argument,
 * each message once. zod also runs an argument's length checks on a value of the wrong type (a list
 * has a length), so a list sent for a string would read "must be a string" and "must not be empty";
 * and a list of bad items repeats one message per item.
 */
function validationIssues(lines: string): string {
  const paths = new Set<string>();
  const messages = new Set<string>();
  const issues: string[] = [];
  for (const line of lines.split('\n')) {
    // The SDK appends ` at <field>`; each of our messages already names its field.
    const at = / at ([\w.[\]]+)$/.exec(line);
    const message = at ? line.slice(0, at.index) : line;
    const path = at?.[1];
    if (messages.has(message) || (path !== undefined && paths.has(path))) continue;
    messages.add(message);
    if (path !== undefined) paths.add(path);
    issues.push(message);
  }
  return issues.join(' ');
}

/**
 * Rewrites a tool error the SDK produced itself (argument validation, unknown tool) so it reads as
 * a sentence for the agent: `argument.invalid: read_page: Send \`path\`: ...`. Kit's own errors pass
 * through untouched.
 */
export function readableSdkToolError(text: string): string {
  const validation = SDK_VALIDATION_PREFIX.exec(text);
  if (validation) {
    return `argument.invalid: Invalid arguments for ${validation[1]}. ${validationIssues(text.slice(validation[0].length))}`;
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

/**
 * A JSON-RPC error that leads with Kit's stable code, as tool errors do: the wire message is
 * `page.not_found: No page …` and `data.code` holds the code. (The SDK's `McpError` would put
 * `MCP error -32602:` in front of the message it sends.)
 */
class KitRequestError extends McpError {
  constructor(jsonRpcCode: number, kitCode: string, message: string) {
    super(jsonRpcCode, message, { code: kitCode });
    this.message = `${kitCode}: ${message}`;
  }
}

/**
 * The one place a failure of `resources/read` or `prompts/get` becomes a JSON-RPC error. A
 * `KitError` keeps its code and message (`-32602`, the request named something that is not there
 * or not the caller's; `-32603` for `database.unavailable` and `source.error`, which are no fault of
 * the request, a `source.error` on the web logged and told without the file names); anything else is
 * `internal` (`-32603`), with its message only where `exposeInternals` is set (the local server),
 * never on the web.
 */
export function requestError(error: unknown, exposeInternals: boolean, failure: string): McpError {
  if (error instanceof KitRequestError) return error;
  // A file the server cannot read and the database being down are no fault of the request: -32603.
  if (isKitError(error, 'source.error')) {
    const message = hiddenSourceError(error, exposeInternals) ? SOURCE_ERROR_ON_THE_WEB : error.message;
    return new KitRequestError(ErrorCode.InternalError, error.code, message);
  }
  if (isKitError(error, 'database.unavailable'))
    return new KitRequestError(ErrorCode.InternalError, error.code, error.message);
  if (isKitError(error)) return new KitRequestError(ErrorCode.InvalidParams, error.code, error.message);
  const detail = exposeInternals && error instanceof Error ? ` (${error.message})` : '';
  return new KitRequestError(ErrorCode.InternalError, 'internal', `${failure}${detail}. Try again.`);
}

const SDK_PROMPT_VALIDATION_PREFIX = /^Invalid arguments for prompt ([\w-]+): /;

const DOCS_PAGE_URI_HINT =
  'Send docs://{set}/{version}/{path}, e.g. docs://docs/3.x/queues ("current" as the version of an unversioned set); search_docs and list_pages give the paths.';

/**
 * Rewrites an error the SDK produced itself for `resources/read` or `prompts/get` (a URI outside
 * the template, an unknown prompt, missing prompt arguments) so it leads with `argument.invalid`
 * and says what to send instead, like a tool error. Kit's own errors, which already lead with
 * their code, and anything not recognized pass unchanged.
 */
export function readableSdkRequestError(error: JSONRPCErrorResponse['error']): JSONRPCErrorResponse['error'] {
  const text = readableSdkRequestMessage(error.message);
  if (text === undefined) return error;
  return { code: ErrorCode.InvalidParams, message: `argument.invalid: ${text}`, data: { code: 'argument.invalid' } };
}

function readableSdkRequestMessage(raw: string): string | undefined {
  // The SDK reads the uri with `new URL(...)` before any template is tried.
  if (raw === 'Invalid URL') return `The uri is not a URI. ${DOCS_PAGE_URI_HINT}`;
  if (!SDK_PREFIX.test(raw)) return undefined;
  const message = raw.replace(SDK_PREFIX, '');
  const validation = SDK_PROMPT_VALIDATION_PREFIX.exec(message);
  if (validation) {
    return `Invalid arguments for prompt ${validation[1]}. ${validationIssues(message.slice(validation[0].length))}`;
  }
  const unknownPrompt = /^Prompt (.+) (not found|disabled)$/.exec(message);
  if (unknownPrompt) {
    return `There is no prompt "${unknownPrompt[1]}" on this server. Call prompts/list to see the prompts.`;
  }
  const unknownResource = /^Resource (.+) (not found|disabled)$/.exec(message);
  if (unknownResource) return `"${unknownResource[1]}" is not a docs page URI. ${DOCS_PAGE_URI_HINT}`;
  return undefined;
}
