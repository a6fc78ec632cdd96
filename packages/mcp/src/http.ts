import type { DocSet, Kit, Viewer } from '@kit/core';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { ValidateDocs } from './context.js';
import { createMcpServer } from './server.js';

/** Largest request body the web endpoint reads: 1 MiB. */
export const MCP_MAX_BODY_BYTES = 1024 * 1024;

export interface McpHttpOptions {
  kit: Kit;
  /** The set this endpoint serves; calls naming another set are refused. */
  set: string;
  /** The caller, as the application's user resolver and middleware found them. */
  viewer: Viewer;
  /** The `kit validate --json` check; offered only to callers `manageKit` allows. */
  validate?: ValidateDocs;
  /** Origins besides the request's own that browsers may call from (`https://app.example.com`). */
  allowedOrigins?: string[];
  /**
   * Host names (with port when not default) the endpoint answers for. Set it when the server listens on
   * a loopback or private address: a page on a rebinding domain sends its own Host, which only this list stops.
   */
  allowedHosts?: string[];
  /** Default: {@link MCP_MAX_BODY_BYTES}. */
  maxBodyBytes?: number;
  /** Public origin for absolute URLs in results (behind a proxy). Default: the request URL's origin. */
  origin?: string;
}

/**
 * A JSON-RPC error response for refusals outside MCP itself (access, origin, size, rate limit), so
 * every answer of the endpoint has one shape. The HTTP layer uses it for its 429.
 *
 * @example
 * return mcpErrorResponse(429, 'Too many requests: 60 per minute. Retry after 20 seconds.', { 'Retry-After': '20' });
 */
export function mcpErrorResponse(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

function refuseOrigin(request: Request, options: McpHttpOptions): Response | null {
  const url = new URL(request.url);
  if (options.allowedHosts && !options.allowedHosts.includes(request.headers.get('host') ?? url.host)) {
    return mcpErrorResponse(403, `Host "${request.headers.get('host') ?? url.host}" is not served here.`);
  }
  const origin = request.headers.get('origin');
  if (origin === null) return null;
  const allowed = new Set([url.origin, ...(options.allowedOrigins ?? []).map((o) => o.replace(/\/$/, ''))]);
  return allowed.has(origin)
    ? null
    : mcpErrorResponse(
        403,
        `Origin ${origin} may not call this MCP endpoint. Call it from ${url.origin}, or add the origin to the endpoint's allowed origins.`,
      );
}

async function refuseCaller(docSet: DocSet, viewer: Viewer): Promise<Response | null> {
  if (await docSet.canView(viewer, {})) return null;
  if (viewer.user == null) {
    return mcpErrorResponse(
      401,
      `The docs set "${docSet.key}" is private. Send credentials (for example an Authorization: Bearer token) with every request.`,
      { 'WWW-Authenticate': 'Bearer realm="kit"' },
    );
  }
  return mcpErrorResponse(403, `Your account may not read the docs set "${docSet.key}".`);
}

/** The body as text, or null as soon as it passes `maxBytes` (a chunked body has no Content-Length to check). */
async function readBoundedText(request: Request, maxBytes: number): Promise<string | null> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * Answers one request to a set's web MCP endpoint (`POST /{prefix}/mcp`): Streamable HTTP,
 * stateless, JSON responses. Before MCP runs it refuses a foreign `Origin` or `Host` (403), any
 * method but POST (405), a body over the limit (413) and a caller the set does not admit (401 for
 * a guest, 403 for a signed-in user). Then it builds a server for this caller, so `tools/list`
 * shows exactly the tools they may use, and access is checked again on every call.
 *
 * @example
 * app.post('/docs/mcp', (c) => handleMcpHttpRequest(c.req.raw, { kit, set: 'docs', viewer: c.get('viewer') }));
 */
export async function handleMcpHttpRequest(request: Request, options: McpHttpOptions): Promise<Response> {
  const { kit, viewer } = options;
  const docSet = kit.sets.get(options.set);
  if (!docSet?.config.mcp.web.enabled) {
    return mcpErrorResponse(404, `There is no MCP endpoint for the set "${options.set}".`);
  }
  const refusedOrigin = refuseOrigin(request, options);
  if (refusedOrigin) return refusedOrigin;
  if (request.method !== 'POST') {
    return mcpErrorResponse(
      405,
      `This MCP endpoint is stateless and answers POST only (JSON-RPC in the body), not ${request.method}.`,
      { Allow: 'POST' },
    );
  }
  const maxBodyBytes = options.maxBodyBytes ?? MCP_MAX_BODY_BYTES;
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBodyBytes) {
    return mcpErrorResponse(413, `Request body over ${maxBodyBytes} bytes; send one smaller JSON-RPC message.`);
  }
  const refusedCaller = await refuseCaller(docSet, viewer);
  if (refusedCaller) return refusedCaller;

  const body = await readBoundedText(request, maxBodyBytes);
  if (body === null) {
    return mcpErrorResponse(413, `Request body over ${maxBodyBytes} bytes; send one smaller JSON-RPC message.`);
  }
  let parsedBody: unknown;
  try {
    parsedBody = JSON.parse(body);
  } catch {
    return new Response(
      JSON.stringify({
        jsonrpc: '2.0',
        error: { code: -32700, message: 'Parse error: the body is not JSON. Send one JSON-RPC message as JSON.' },
        id: null,
      }),
      { status: 400, headers: { 'Content-Type': 'application/json' } },
    );
  }

  // Responses are always JSON here, so a client that accepts only JSON (curl, simple scripts) is served too.
  const headers = new Headers(request.headers);
  const accept = headers.get('accept') ?? '';
  const acceptsBoth = accept.includes('text/event-stream') && accept.includes('application/json');
  if (!acceptsBoth && (accept === '' || accept.includes('application/json') || accept.includes('*/*'))) {
    headers.set('accept', 'application/json, text/event-stream');
  }
  const mcpRequest = new Request(request.url, { method: 'POST', headers });

  const server = await createMcpServer({
    kit,
    scope: { kind: 'web', set: docSet.key },
    viewer,
    validate: options.validate,
    transport: 'http',
    origin: options.origin ?? new URL(request.url).origin,
  });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  try {
    await server.connect(transport);
    return await transport.handleRequest(mcpRequest, { parsedBody });
  } finally {
    await server.close();
  }
}
