import { MAX_BATCH_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isInitializeRequest,
  type JSONRPCMessage,
  type JSONRPCRequest,
  JSONRPCMessageSchema,
  type MessageExtraInfo,
  type RequestId,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import {
  type CacheScope,
  discoverReply,
  isModernMethod,
  isModernRequest,
  type ModernReply,
  methodNotFound,
  modernError,
  modernReply,
  refuseModernMessage,
  type ServerDescription,
} from './protocol-2026-07-28.js';

/** One HTTP request's JSON-RPC requests, answered once every one has its response. */
interface Exchange {
  ids: RequestId[];
  responses: Map<RequestId, JSONRPCMessage>;
  resolve(response: Response): void;
  /** Set for a request of the modern revision (one per POST): its method and cache scope. */
  modern?: { method: string; cacheScope: CacheScope };
}

/** What {@link StatelessJsonTransport.handle} needs to know about the caller. */
export interface HandleOptions {
  /**
   * Whether results may be shared between callers, for the modern revision's caching hints.
   * Default: `private`.
   */
  cacheScope?: CacheScope;
}

const encoder = new TextEncoder();

/**
 * A JSON response that states its length. Compression middleware (Hono's `compress`) leaves a body
 * under its threshold alone only when it knows the length; without it every small answer (`ping`,
 * an error) went through a gzip stream costing more than the call.
 */
export function jsonResponse(status: number, value: unknown, headers: Record<string, string> = {}): Response {
  const body = encoder.encode(JSON.stringify(value));
  return new Response(body, {
    status,
    headers: { 'Content-Type': 'application/json', 'Content-Length': String(body.byteLength), ...headers },
  });
}

function jsonRpcError(status: number, code: number, message: string): Response {
  return jsonResponse(status, { jsonrpc: '2.0', error: { code, message }, id: null });
}

function replyResponse(reply: ModernReply): Response {
  return jsonResponse(reply.status, reply.body);
}

/**
 * Of the strict schemas `JSONRPCMessageSchema` tries, only the request takes both `method` and `id`,
 * so on a parsed message this says what `isJSONRPCRequest` says without parsing it again.
 */
function isRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return 'method' in message && 'id' in message;
}

function isResponse(message: JSONRPCMessage): boolean {
  return 'id' in message && !('method' in message);
}

/**
 * The stateless Streamable HTTP transport with JSON responses, kept connected to one server and
 * handed one HTTP request at a time. The SDK's `WebStandardStreamableHTTPServerTransport` serves one
 * request per instance, so every call paid for a new transport, `connect`, `close` (which aborts the
 * finished handler and builds a "Connection closed" error) and several failing schema checks per
 * message; together more than the docs call itself.
 *
 * It answers a POST exactly as that transport does with `sessionIdGenerator: undefined` and
 * `enableJsonResponse: true`: 406 unless JSON is acceptable, 415 unless the body is JSON, 400 for an
 * oversized batch, a message that is not JSON-RPC, a second message beside `initialize` or an
 * unsupported `MCP-Protocol-Version`, 202 for notifications and responses only, and otherwise the
 * responses as one JSON body (an array for a batch). Messages the server sends besides responses
 * (notifications, requests to the client) have no stream to go to and are dropped, as there.
 *
 * A POST of the 2026-07-28 revision (see `protocol-2026-07-28.ts`) is answered by that revision's
 * rules instead: one message per POST, headers checked against the body, `server/discover` answered
 * here, methods the revision removed or the server lacks refused with 404, and results shaped for it.
 */
export class StatelessJsonTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];
  /**
   * Hands a request straight to the server's request dispatch, when the server offers one (see
   * `KitMcpServer.connect`). `onmessage` reaches the same dispatch, but only after the SDK has tried
   * the message against the response schemas first, and each failed parse builds a ZodError: two
   * per call, a fifth of what the SDK spends on one.
   */
  deliverRequest?: (message: JSONRPCRequest, extra: MessageExtraInfo) => void;
  /** The server's identity, capabilities and instructions, for `server/discover` (set on connect). */
  description?: ServerDescription;

  private exchange: Exchange | null = null;
  private closed = false;

  async start(): Promise<void> {}

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.exchange?.resolve(jsonRpcError(404, -32001, 'Session not found'));
    this.exchange = null;
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!isResponse(message)) return;
    const id = (message as { id: RequestId }).id;
    const exchange = this.exchange;
    if (!exchange?.ids.includes(id) || exchange.responses.has(id)) {
      throw new Error(`No connection established for request ID: ${String(id)}`);
    }
    exchange.responses.set(id, message);
    if (exchange.responses.size < exchange.ids.length) return;
    this.exchange = null;
    if (exchange.modern) {
      const { method, cacheScope } = exchange.modern;
      exchange.resolve(
        replyResponse(modernReply(method, message as unknown as Record<string, unknown>, this.description, cacheScope)),
      );
      return;
    }
    const body =
      exchange.ids.length === 1 ? exchange.responses.get(id) : exchange.ids.map((each) => exchange.responses.get(each));
    exchange.resolve(jsonResponse(200, body));
  }

  /**
   * Answers one POST whose body is already read and parsed. The caller makes sure only one request
   * is under way per transport (the server it is connected to acts for one caller at a time).
   */
  handle(request: { url: string; headers: Headers }, body: unknown, options: HandleOptions = {}): Promise<Response> {
    if (this.closed) return Promise.resolve(jsonRpcError(404, -32001, 'Session not found'));
    if (this.exchange) throw new Error('StatelessJsonTransport carries one request at a time; this one is busy.');
    const { headers } = request;
    const accept = headers.get('accept') ?? '';
    // A client that accepts only JSON (curl, simple scripts) is served too: responses are always JSON here.
    if (accept !== '' && !accept.includes('application/json') && !accept.includes('*/*')) {
      return Promise.resolve(
        jsonRpcError(406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream'),
      );
    }
    if (!isJsonContentType(headers.get('content-type'))) {
      return Promise.resolve(
        jsonRpcError(415, -32000, 'Unsupported Media Type: Content-Type must be application/json'),
      );
    }
    if (isModernRequest(headers, body)) return this.handleModern(request, body, options.cacheScope ?? 'private');
    if (Array.isArray(body) && body.length > MAX_BATCH_SIZE) {
      return Promise.resolve(
        jsonRpcError(400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`),
      );
    }
    let messages: JSONRPCMessage[];
    try {
      messages = (Array.isArray(body) ? body : [body]).map((each) => JSONRPCMessageSchema.parse(each));
    } catch {
      return Promise.resolve(jsonRpcError(400, -32700, 'Parse error: Invalid JSON-RPC message'));
    }
    // The full schema only for what names the method: a failed parse costs more than the call.
    const initializing = messages.some(
      (message) => 'method' in message && message.method === 'initialize' && isInitializeRequest(message),
    );
    if (initializing && messages.length > 1) {
      return Promise.resolve(jsonRpcError(400, -32600, 'Invalid Request: Only one initialization request is allowed'));
    }
    const version = headers.get('mcp-protocol-version');
    if (!initializing && version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      const supported = SUPPORTED_PROTOCOL_VERSIONS.join(', ');
      return Promise.resolve(
        jsonRpcError(
          400,
          -32000,
          `Bad Request: Unsupported protocol version: ${version} (supported versions: ${supported})`,
        ),
      );
    }
    const extra: MessageExtraInfo = { requestInfo: new LazyRequestInfo(request) };
    const requests = messages.map(isRequest);
    const ids = messages.filter((_, index) => requests[index]).map((message) => (message as JSONRPCRequest).id);
    const deliver = (message: JSONRPCMessage, index: number) => {
      if (requests[index] && this.deliverRequest) this.deliverRequest(message as JSONRPCRequest, extra);
      else this.onmessage?.(message, extra);
    };
    if (ids.length === 0) {
      messages.forEach(deliver);
      return Promise.resolve(new Response(null, { status: 202 }));
    }
    if (new Set(ids).size !== ids.length) {
      return Promise.resolve(jsonRpcError(400, -32600, 'Invalid Request: every request in a batch needs its own id'));
    }
    return new Promise<Response>((resolve) => {
      this.exchange = { ids, responses: new Map(), resolve };
      messages.forEach(deliver);
    });
  }

  private handleModern(
    request: { url: string; headers: Headers },
    body: unknown,
    cacheScope: CacheScope,
  ): Promise<Response> {
    if (Array.isArray(body)) {
      return Promise.resolve(
        replyResponse(modernError(400, -32600, 'Invalid Request: send one JSON-RPC message per POST, not a batch.')),
      );
    }
    const parsed = JSONRPCMessageSchema.safeParse(body);
    if (!parsed.success) {
      return Promise.resolve(replyResponse(modernError(400, -32700, 'Parse error: Invalid JSON-RPC message')));
    }
    const message = parsed.data;
    if (!('method' in message)) {
      return Promise.resolve(
        replyResponse(modernError(400, -32600, 'Invalid Request: a client sends requests and notifications only.')),
      );
    }
    const refused = refuseModernMessage(request.headers, message);
    if (refused) return Promise.resolve(replyResponse(refused));
    const extra: MessageExtraInfo = { requestInfo: new LazyRequestInfo(request) };
    if (!isRequest(message)) {
      this.onmessage?.(message, extra);
      return Promise.resolve(new Response(null, { status: 202 }));
    }
    const { id, method } = message;
    if (!isModernMethod(method)) return Promise.resolve(replyResponse(methodNotFound(id, method)));
    if (method === 'server/discover') {
      return Promise.resolve(replyResponse(discoverReply(id, this.description, cacheScope)));
    }
    return new Promise<Response>((resolve) => {
      this.exchange = { ids: [id], responses: new Map(), resolve, modern: { method, cacheScope } };
      if (this.deliverRequest) this.deliverRequest(message, extra);
      else this.onmessage?.(message, extra);
    });
  }
}

/** The request's headers and URL for tool handlers, built only if one reads them. */
class LazyRequestInfo {
  private cachedHeaders: Record<string, string> | undefined;
  private cachedUrl: URL | undefined;

  constructor(private readonly request: { url: string; headers: Headers }) {}

  get headers(): Record<string, string> {
    this.cachedHeaders ??= Object.fromEntries(this.request.headers.entries());
    return this.cachedHeaders;
  }

  get url(): URL {
    this.cachedUrl ??= new URL(this.request.url);
    return this.cachedUrl;
  }
}
