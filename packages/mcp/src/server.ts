import { type Kit, seesAnyVersion, type Viewer } from '@kit/core';
import { authorAccess } from '@kit/core/internal';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolResult,
  ErrorCode,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { ArgumentExamples } from './arguments.js';
import { authorOf, registerAuthorTools } from './author-tools.js';
import { type AffectedPages, argumentExamples, type McpContext, type McpScope, type ValidateDocs } from './context.js';
import { readableSdkRequestError, readableSdkToolError } from './errors.js';
import { mcpInstructions } from './instructions.js';
import { StatelessJsonTransport } from './json-transport.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { offersReviewTools, registerReviewTools } from './review-tools.js';
import { registerTools } from './tools.js';
import { MCP_PACKAGE_VERSION } from './version.js';

/** Name and version the server reports in `initialize`: the version is the installed `@kit/mcp` package's. */
export const MCP_SERVER_INFO = { name: 'kit', title: 'Kit docs', version: MCP_PACKAGE_VERSION } as const;

/**
 * What every Kit server offers, as `server/discover` reports it. No `listChanged`: a server's offer
 * is fixed once built and no list-change notification is ever sent (the SDK still adds the flag to
 * what `initialize` reports, which stays as it was for clients of earlier revisions).
 */
const SERVER_CAPABILITIES = { tools: {}, resources: {}, prompts: {} };

export interface CreateMcpServerOptions {
  kit: Kit;
  /** `{ kind: 'local' }`: every set, `set` argument on the tools. `{ kind: 'web', set }`: that set only. */
  scope: McpScope;
  /** Who calls. The local server passes `{ user: null, local: true }`; a web endpoint the request's viewer. */
  viewer: Viewer;
  /** The `kit validate --json` check. Without it `validate_docs` is not offered. */
  validate?: ValidateDocs;
  /** The `kit affected --json` check, for the local server only; without it `affected_pages` is not offered. */
  affected?: AffectedPages;
  /** Reported in `McpToolCalled`. Default: `stdio` for a local scope, `http` for a web one. */
  transport?: 'stdio' | 'http';
  /** Absolute origin (`https://example.com`) to prefix URL paths in results with. */
  origin?: string;
  /** Versions and locales the tool descriptions quote. Default: those of the served sets `viewer` may see. */
  examples?: ArgumentExamples;
  /**
   * The service's base address for the manifest `$schema` that `update_manifest` writes
   * (`{base_url}/schemas/3.x/kit.json`). Default: `origin`; with neither, `$schema` is left alone.
   */
  schemaOrigin?: string;
}

/** Requests whose SDK-made errors are rewritten like tool errors. */
const READ_METHODS = new Set(['resources/read', 'prompts/get']);

interface PendingCall {
  tool: string;
  set: string;
  started: number;
}

function describeJsonValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * What is wrong with the shape of a `tools/call` request's params (the tool's name a string, its
 * arguments an object when sent), or null when the SDK may take it from here.
 */
function malformedToolCall(params: unknown): string | null {
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    return `tools/call needs params as an object like {"name":"search_docs","arguments":{"query":"queues"}}; got ${describeJsonValue(params)}.`;
  }
  const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
  if (typeof name !== 'string') {
    return `tools/call needs the tool's name as a string in params.name; got ${describeJsonValue(name)}. Call tools/list to see the tools.`;
  }
  if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) {
    return `${name}: send arguments as a JSON object of named arguments, such as {"path":"queues"}; got ${describeJsonValue(args)}.`;
  }
  return null;
}

/**
 * Fires `McpToolCalled` for every `tools/call` a transport carries, including calls the SDK refuses
 * before a tool runs (bad arguments, unknown tool), and rewrites the SDK's own error text (for
 * tools, resources and prompts) so the agent reads a stable code and what to send instead.
 */
function observeToolCalls(
  transport: Transport,
  context: McpContext,
  transportName: 'stdio' | 'http',
  hasTool: (name: string) => boolean,
): void {
  const pending = new Map<RequestId, PendingCall>();
  const reads = new Set<RequestId>();
  // Requests answered here, before the SDK: its own later answer to the same id is dropped.
  const answered = new Set<RequestId>();
  const refuse = (id: RequestId, message: string) => {
    answered.add(id);
    void transport.send({
      jsonrpc: '2.0',
      id,
      error: {
        code: ErrorCode.InvalidParams,
        message: `argument.invalid: ${message}`,
        data: { code: 'argument.invalid' },
      },
    });
  };
  const { kit, scope } = context;
  const earlier = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if ('method' in message && 'id' in message) {
      // Keyed by the latest request of each id, so a reused id never inherits an earlier method.
      if (READ_METHODS.has(message.method)) reads.add(message.id);
      else reads.delete(message.id);
    }
    if ('method' in message && message.method === 'tools/call' && 'id' in message) {
      const params = (message.params ?? {}) as { name?: unknown; arguments?: { set?: unknown } };
      const requested = typeof params.arguments?.set === 'string' ? params.arguments.set : undefined;
      pending.set(message.id, {
        tool: String(params.name),
        set: scope.kind === 'web' ? scope.set : (requested ?? kit.config.default),
        started: performance.now(),
      });
      // The SDK answers a call of the wrong shape with -32603 and its schema library's issue dump.
      const malformed = malformedToolCall(message.params);
      if (malformed) {
        refuse(message.id, malformed);
        return;
      }
      // The MCP specification answers an unknown tool with -32602 (a protocol error), where the SDK
      // returns an isError result.
      const name = String(params.name);
      if (!hasTool(name)) {
        refuse(
          message.id,
          `There is no tool "${name}" for you on this server. Call tools/list to see the tools you may use.`,
        );
        return;
      }
    }
    earlier?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage, options) => {
    const id = 'id' in message && !('method' in message) ? message.id : undefined;
    if (id !== undefined && answered.has(id) && !pending.has(id)) {
      answered.delete(id);
      return Promise.resolve();
    }
    if (id !== undefined && reads.delete(id) && 'error' in message) {
      return send({ ...message, error: readableSdkRequestError(message.error) }, options);
    }
    const call = id === undefined ? undefined : pending.get(id);
    if (call && id !== undefined) {
      pending.delete(id);
      let ok = false;
      if ('result' in message) {
        const result = message.result as CallToolResult;
        ok = result.isError !== true;
        if (!ok) {
          result.content = result.content.map((item) =>
            item.type === 'text' ? { ...item, text: readableSdkToolError(item.text) } : item,
          );
        }
      }
      kit.events.emit('McpToolCalled', {
        set: call.set,
        tool: call.tool,
        transport: transportName,
        user: context.viewer.user,
        ok,
        durationMs: performance.now() - call.started,
      });
    }
    return send(message, options);
  };
}

/**
 * One JSON Schema validator for every server of the process. The SDK builds a fresh Ajv instance
 * (with its formats) per server otherwise, and the web endpoint builds a server per request: that
 * alone cost more than reading the page.
 */
const sharedJsonSchemaValidator = new AjvJsonSchemaValidator();

class KitMcpServer extends McpServer {
  /** Names of the tools registered for this caller. */
  private readonly toolNames = new Set<string>();

  constructor(
    private readonly instructions: string,
    private readonly context: McpContext,
    private readonly transportName: 'stdio' | 'http',
  ) {
    super(MCP_SERVER_INFO, {
      instructions,
      capabilities: SERVER_CAPABILITIES,
      jsonSchemaValidator: sharedJsonSchemaValidator,
      // Kit's arguments are a handful of flat fields; anything larger is not a real call.
      maxToolInputElements: 1000,
    });
    const register = this.registerTool.bind(this);
    this.registerTool = ((name: string, ...rest: unknown[]) => {
      this.toolNames.add(name);
      return (register as (...args: unknown[]) => ReturnType<McpServer['registerTool']>)(name, ...rest);
    }) as McpServer['registerTool'];
  }

  override async connect(transport: Transport): Promise<void> {
    observeToolCalls(transport, this.context, this.transportName, (name) => this.toolNames.has(name));
    const observe = transport.onmessage;
    await super.connect(transport);
    if (!(transport instanceof StatelessJsonTransport)) return;
    // For `server/discover` of the 2026-07-28 revision, which the SDK does not know.
    transport.description = {
      serverInfo: MCP_SERVER_INFO,
      capabilities: SERVER_CAPABILITIES,
      instructions: this.instructions,
    };
    // The SDK's message handler sniffs every message against the response schemas before it
    // dispatches a request. The web transport knows a request when it sees one, so it hands
    // requests to the dispatch itself (after the same observer); other messages take the usual way.
    const dispatch = (this.server as unknown as { _onrequest?: unknown })._onrequest;
    if (typeof dispatch === 'function') {
      transport.deliverRequest = (message: JSONRPCRequest, extra: MessageExtraInfo) => {
        observe?.(message, extra);
        dispatch.call(this.server, message, extra);
      };
    }
  }
}

/**
 * Whether a server offers the author tools: the local server when any of its sets can be written
 * (a call naming one that cannot is refused with the reason), a web endpoint when core's
 * `authorAccess` admits the caller (a database set with `mcp.web.author_tools` on, a signed-in
 * caller `manageKit` allows).
 */
export async function offersAuthorTools(
  options: Pick<CreateMcpServerOptions, 'kit' | 'scope' | 'viewer'>,
): Promise<boolean> {
  const { kit, scope, viewer } = options;
  if (scope.kind === 'local')
    return viewer.local === true && [...kit.sets.values()].some((docSet) => docSet.source.writer);
  return (await authorAccess(kit.set(scope.set), { viewer, channel: 'web' })).allowed;
}

/**
 * Builds the MCP server for one caller: the tools that caller may use (`submit_feedback` when
 * feedback is on, `validate_docs` when a check is handed in and, on the web, the caller passes
 * `manageKit`; the author tools where {@link offersAuthorTools} says; the review tools where
 * `offersReviewTools` says: on the web, to a caller the `reviewKit` gate allows), the `docs-page`
 * resource template, the two prompts and the connect instructions.
 * Every tool call fires `McpToolCalled` on `kit.events`.
 *
 * @example
 * const server = await createMcpServer({ kit, scope: { kind: 'local' }, viewer: { user: null, local: true } });
 * await server.connect(new StdioServerTransport());
 */
export async function createMcpServer(options: CreateMcpServerOptions): Promise<McpServer> {
  return (await buildMcpServer(options)).server;
}

/**
 * {@link createMcpServer} plus the context its tools read at call time. Setting `context.viewer`
 * between two connections hands the same server to another caller of the same kind (same offer);
 * the web endpoint reuses servers this way instead of building one per request.
 */
export async function buildMcpServer(
  options: CreateMcpServerOptions,
): Promise<{ server: McpServer; context: McpContext }> {
  const { kit, scope, viewer } = options;
  const context: McpContext = {
    kit,
    scope,
    viewer,
    origin: options.origin?.replace(/\/$/, ''),
    examples: options.examples ?? (await argumentExamples(kit, scope, viewer)),
    schemaOrigin: (options.schemaOrigin ?? options.origin)?.replace(/\/$/, ''),
  };
  const served = scope.kind === 'web' ? [kit.set(scope.set)] : [...kit.sets.values()];
  const feedback = served.some((docSet) => docSet.config.feedback.enabled);
  const validate =
    options.validate && (scope.kind === 'local' || (await kit.set(scope.set).canManage(viewer)))
      ? options.validate
      : undefined;

  const authors = await offersAuthorTools(options);
  const server = new KitMcpServer(
    await mcpInstructions(kit, scope, {
      named: scope.kind === 'local' || (await seesAnyVersion(kit.set(scope.set), viewer)),
      writes: authors,
      feedback,
    }),
    context,
    options.transport ?? (scope.kind === 'local' ? 'stdio' : 'http'),
  );
  // affected_pages reads the working tree: never on a web endpoint.
  const affected = scope.kind === 'local' ? options.affected : undefined;
  registerTools(server, context, { feedback, validate, affected });
  if (authors) registerAuthorTools(server, context, { validate: options.validate });
  // Reviewing is a right of its own (reviewKit on the web): a writer may have it or not.
  if (await offersReviewTools(kit, scope, viewer)) {
    registerReviewTools(server, context, () => authorOf(server, context));
  }
  registerResources(server, context);
  registerPrompts(server, context);
  return { server, context };
}
