import { type DocSet, type Kit, seesAnyVersion, type Viewer } from '@kit/core';
import { isAllowedHost, isSharedResponse, readBoundedText } from '@kit/core/internal';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { argumentExamples, type McpContext, type ValidateDocs } from './context.js';
import { mcpInstructions } from './instructions.js';
import { jsonResponse, StatelessJsonTransport } from './json-transport.js';
import type { CacheScope } from './protocol-2026-07-28.js';
import { offersReviewTools } from './review-tools.js';
import { buildMcpServer, offersAuthorTools } from './server.js';

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
   * Host names the endpoint answers for: `host:port` matches exactly, a bare name (`localhost`) any port.
   * Set it when the server listens on a loopback or private address: a page on a rebinding domain sends
   * its own Host, which only this list stops.
   */
  allowedHosts?: string[];
  /** Default: {@link MCP_MAX_BODY_BYTES}. */
  maxBodyBytes?: number;
  /** Public origin for absolute URLs in results (behind a proxy). Default: the request URL's origin. */
  origin?: string;
  /**
   * False when `origin` is only what the request's Host said: results that carry it are then never
   * marked `public` for caches. Default: true (the caller vouches for the request's origin).
   */
  originTrusted?: boolean;
}

/**
 * A JSON-RPC error response for refusals outside MCP itself (access, origin, size, rate limit), so
 * every answer of the endpoint has one shape. The HTTP layer uses it for its 429.
 *
 * @example
 * return mcpErrorResponse(429, 'Too many requests: 60 per minute. Retry after 20 seconds.', { 'Retry-After': '20' });
 */
export function mcpErrorResponse(status: number, message: string, headers: Record<string, string> = {}): Response {
  return jsonResponse(status, { jsonrpc: '2.0', error: { code: -32000, message }, id: null }, headers);
}

function refuseOrigin(request: Request, options: McpHttpOptions): Response | null {
  const url = new URL(request.url);
  const host = request.headers.get('host') ?? url.host;
  if (options.allowedHosts && !isAllowedHost(host, options.allowedHosts)) {
    return mcpErrorResponse(
      403,
      `Host "${host}" is not served here. Call the endpoint by one of: ${options.allowedHosts.join(', ')}.`,
    );
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

/** Idle servers kept per kind of caller; more than this many at once are built and dropped. */
const MAX_IDLE_SERVERS = 8;
/** Kinds of caller remembered per kit before the idle servers are dropped and rebuilt on demand. */
const MAX_SERVER_KINDS = 64;

interface PooledServer {
  server: McpServer;
  context: McpContext;
  /** Connected once; carries this server's requests one at a time. */
  transport: StatelessJsonTransport;
}

/** The idle servers of one kind of caller, and the instructions they were built with. */
interface IdlePool {
  instructions: string;
  servers: PooledServer[];
}

/**
 * Idle web servers per kit, keyed by everything that shapes a server: the set, whether the caller
 * gets `validate_docs` (and which check), the author tools and the review tools, and the result origin; a pool built with other instructions
 * (the set's name changed) is replaced. Building an McpServer with its tools, resource and prompts
 * per request cost more than the docs call itself, and so did connecting a fresh SDK transport to
 * it: each server stays connected to its own {@link StatelessJsonTransport}.
 */
const idleServers = new WeakMap<Kit, Map<string, IdlePool>>();
const validatorIds = new WeakMap<ValidateDocs, number>();

let nextValidatorId = 1;

function validatorId(validate: ValidateDocs): number {
  const known = validatorIds.get(validate);
  if (known !== undefined) return known;
  const id = nextValidatorId++;
  validatorIds.set(validate, id);
  return id;
}

/**
 * Whether what this caller is served may be cached for other callers too: only when it cannot
 * depend on who asks, as with the site's own pages (a public set, a guest), and the guest is not
 * offered `validate_docs` either.
 */
function cacheScopeOf(docSet: DocSet, viewer: Viewer, manages: boolean): CacheScope {
  return isSharedResponse(docSet.config.access.mode, viewer.user) && !manages ? 'public' : 'private';
}

async function acquireServer(
  docSet: DocSet,
  options: McpHttpOptions,
  origin: string,
): Promise<{ pooled: PooledServer; cacheScope: CacheScope; release(): void }> {
  const { kit, viewer } = options;
  const scope = { kind: 'web', set: docSet.key } as const;
  // An author already passed manageKit: no second gate call for validate_docs.
  const authors = await offersAuthorTools({ kit, scope, viewer });
  const manages = options.validate !== undefined && (authors || (await docSet.canManage(viewer)));
  const reviews = await offersReviewTools(kit, scope, viewer);
  // A caller who may read no version is not told whose docs these are.
  const named = await seesAnyVersion(docSet, viewer);
  const instructions = await mcpInstructions(kit, scope, {
    named,
    writes: authors,
    feedback: docSet.config.feedback.enabled,
  });
  // Tool descriptions quote the versions this caller may see: callers who see other versions get other servers.
  const examples = await argumentExamples(kit, scope, viewer);
  const key = `${docSet.key}\u0000${manages ? validatorId(options.validate!) : 0}\u0000${authors ? 1 : 0}\u0000${reviews ? 1 : 0}\u0000${named ? 1 : 0}\u0000${origin}\u0000${examples.versions.join(',')}\u0000${examples.locales.join(',')}`;
  let byKey = idleServers.get(kit);
  if (!byKey) {
    byKey = new Map();
    idleServers.set(kit, byKey);
  }
  let pool = byKey.get(key);
  if (!pool || pool.instructions !== instructions) {
    // The origin comes from the Host header when none is configured: bound the keys a client can mint.
    if (!pool && byKey.size >= MAX_SERVER_KINDS) byKey.clear();
    pool = { instructions, servers: [] };
    byKey.set(key, pool);
  }
  const idle = pool.servers;
  let pooled = idle.pop();
  if (!pooled) {
    const built = await buildMcpServer({
      kit,
      scope,
      viewer,
      validate: manages ? options.validate : undefined,
      transport: 'http',
      origin,
      examples,
    });
    const transport = new StatelessJsonTransport();
    await built.server.connect(transport);
    pooled = { ...built, transport };
  }
  pooled.context.viewer = viewer;
  const acquired = pooled;
  return {
    pooled: acquired,
    // Results carry the origin: one taken from an unvouched Host is never marked for shared caches.
    cacheScope:
      options.originTrusted === false ? 'private' : cacheScopeOf(docSet, viewer, manages || authors || reviews),
    release() {
      if (idle.length < MAX_IDLE_SERVERS) idle.push(acquired);
    },
  };
}

/**
 * Answers one request to a set's web MCP endpoint (`POST /{prefix}/mcp`): Streamable HTTP,
 * stateless, JSON responses, for clients of protocol 2026-07-28 (per-request `_meta`, caching
 * hints: `public` only for a guest of a public set) and of the initialize-based revisions alike. Before MCP runs it refuses a foreign `Origin` or `Host` (403), any
 * method but POST (405), a body over the limit (413) and a caller the set does not admit (401 for
 * a guest, 403 for a signed-in user). Then a server built for this kind of caller answers (reused
 * across requests), so `tools/list` shows exactly the tools they may use, and access is checked
 * again on every call.
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
  const tooLarge = () =>
    // Past the limit the rest of the upload is not read: closing the connection stops it.
    mcpErrorResponse(413, `Request body over ${maxBodyBytes} bytes; send one smaller JSON-RPC message.`, {
      Connection: 'close',
    });
  const contentLength = request.headers.get('content-length')?.trim();
  if (contentLength !== undefined && /^\d+$/.test(contentLength) && Number(contentLength) > maxBodyBytes) {
    return tooLarge();
  }
  const refusedCaller = await refuseCaller(docSet, viewer);
  if (refusedCaller) return refusedCaller;

  const body = await readBoundedText(request, maxBodyBytes);
  if (!body.ok) return tooLarge();
  let parsedBody: unknown;
  try {
    parsedBody = JSON.parse(body.text);
  } catch {
    return jsonResponse(400, {
      jsonrpc: '2.0',
      error: { code: -32700, message: 'Parse error: the body is not JSON. Send one JSON-RPC message as JSON.' },
      id: null,
    });
  }

  // A server built for this kind of caller (same tools offered), now acting for this viewer alone
  // until it answers.
  const { pooled, cacheScope, release } = await acquireServer(
    docSet,
    options,
    options.origin ?? new URL(request.url).origin,
  );
  let response: Response;
  try {
    response = await pooled.transport.handle(request, parsedBody, { cacheScope });
  } catch (error) {
    await pooled.server.close();
    throw error;
  }
  release();
  return response;
}
