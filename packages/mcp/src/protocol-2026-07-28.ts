import {
  type Implementation,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type RequestId,
  type ServerCapabilities,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';

// The 2026-07-28 revision of MCP ("modern" in its own terms): no `initialize` handshake, every
// request carries its protocol version and the client's capabilities in `params._meta`, the
// Streamable HTTP transport mirrors method and target name into headers the server must check,
// and list and read results carry caching hints. The SDK this package uses speaks only the
// initialize-based revisions, so the web transport answers this one here and hands the SDK
// server the same requests it serves for older clients.

/** Protocol revisions answered without a handshake, from per-request `_meta`. */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = ['2026-07-28'];

/** Every revision the web endpoint answers, newest first: what `server/discover` lists. */
export const WEB_PROTOCOL_VERSIONS: readonly string[] = [...MODERN_PROTOCOL_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS];

/** JSON-RPC error codes the 2026-07-28 revision adds. */
export const MODERN_ERROR = {
  /** Headers missing, malformed or not matching the body. HTTP 400. */
  headerMismatch: -32020,
  /** The request needs a client capability the client did not declare. HTTP 400. */
  missingClientCapability: -32021,
  /** The requested protocol version is not served here. HTTP 400. */
  unsupportedProtocolVersion: -32022,
} as const;

/**
 * How long a client may reuse a list result (`tools/list`, `prompts/list`, the resource lists,
 * `server/discover`): what a caller is offered changes only with configuration or their gates, and
 * a minute bounds how long such a change goes unseen.
 */
export const MODERN_LIST_TTL_MS = 60_000;
/** Page contents are stale at once, as the site's own page responses (`max-age=0, must-revalidate`). */
export const MODERN_READ_TTL_MS = 0;

/**
 * Whether a cached result may be shared across callers (`public`: the same for every guest) or
 * only reused by the caller who got it (`private`).
 */
export type CacheScope = 'public' | 'private';

/** What `server/discover` tells a client about the server it reached. */
export interface ServerDescription {
  serverInfo: Implementation;
  capabilities: ServerCapabilities;
  instructions?: string;
}

/** A reply the transport sends as JSON with this HTTP status. */
export interface ModernReply {
  status: number;
  body: Record<string, unknown>;
}

const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

/**
 * Methods this server answers under the modern revision. The rest are unknown there, including
 * what the revision removed (`initialize`, `ping`, `logging/setLevel`, `resources/subscribe`) and
 * `subscriptions/listen`, which serves list-change notifications this server never sends.
 */
const MODERN_METHODS = new Set([
  'server/discover',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
]);

/** Results that carry `ttlMs` and `cacheScope`, and for how long. */
const CACHE_TTL_MS: ReadonlyMap<string, number> = new Map([
  ['server/discover', MODERN_LIST_TTL_MS],
  ['tools/list', MODERN_LIST_TTL_MS],
  ['prompts/list', MODERN_LIST_TTL_MS],
  ['resources/list', MODERN_LIST_TTL_MS],
  ['resources/templates/list', MODERN_LIST_TTL_MS],
  ['resources/read', MODERN_READ_TTL_MS],
]);

/** The body field `Mcp-Name` mirrors, per method. */
const NAMED_BY: Readonly<Record<string, 'name' | 'uri'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

const LEGACY_VERSIONS = new Set<string>(SUPPORTED_PROTOCOL_VERSIONS);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function metaOf(params: unknown): Record<string, unknown> | undefined {
  return isObject(params) && isObject(params._meta) ? params._meta : undefined;
}

/** RFC 9110 field values exclude the optional whitespace around them. */
function fieldValue(headers: Headers, name: string): string | null {
  const value = headers.get(name);
  return value === null ? null : value.replace(/^[ \t]+|[ \t]+$/g, '');
}

/**
 * Which revision a POST speaks. The modern one when the `MCP-Protocol-Version` header names it, or
 * when the body declares a protocol version in `_meta` that is not an initialize-based one and the
 * header does not name one either. Everything else, a header naming an unknown version included,
 * takes the initialize-based path exactly as before.
 */
export function isModernRequest(headers: Headers, body: unknown): boolean {
  const header = fieldValue(headers, 'mcp-protocol-version');
  if (header !== null && LEGACY_VERSIONS.has(header)) return false;
  if (header !== null && MODERN_PROTOCOL_VERSIONS.includes(header)) return true;
  if (!isObject(body)) return false;
  const declared = metaOf(body.params)?.[META_PROTOCOL_VERSION];
  return typeof declared === 'string' && !LEGACY_VERSIONS.has(declared);
}

/**
 * A JSON-RPC error as the modern revision sends it: with the request's id, or without one when the
 * message had none (the revision's schema has no null ids).
 */
export function modernError(
  status: number,
  code: number,
  message: string,
  id?: RequestId,
  data?: Record<string, unknown>,
): ModernReply {
  return {
    status,
    body: { jsonrpc: '2.0', ...(id === undefined ? {} : { id }), error: { code, message, ...(data && { data }) } },
  };
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A header value as the client meant it: values no header can carry as they are (non-ASCII, edge
 * whitespace) come as `=?base64?<UTF-8 in Base64>?=`. Null when that form does not decode.
 */
export function decodeHeaderValue(value: string): string | null {
  const encoded = /^=\?base64\?(.*)\?=$/.exec(value);
  if (!encoded) return value;
  if (!BASE64.test(encoded[1]!)) return null;
  try {
    return utf8.decode(Uint8Array.from(atob(encoded[1]!), (char) => char.charCodeAt(0)));
  } catch {
    return null;
  }
}

/**
 * Checks a modern request or notification before it is served, in the order the revision states
 * its rules: the `Mcp-Method` header, the `_meta` a request must carry (-32602), the
 * `MCP-Protocol-Version` header against it, the `Mcp-Name` header, then whether the version is
 * served here (-32022, listing the versions that are). Returns the refusal, or null to serve it.
 */
export function refuseModernMessage(
  headers: Headers,
  message: JSONRPCRequest | JSONRPCNotification,
): ModernReply | null {
  const id = 'id' in message ? message.id : undefined;
  const mismatch = (text: string) => modernError(400, MODERN_ERROR.headerMismatch, `Header mismatch: ${text}`, id);
  const method = fieldValue(headers, 'mcp-method');
  if (method === null) {
    return mismatch(`send the Mcp-Method header with every request (here "Mcp-Method: ${message.method}").`);
  }
  if (method !== message.method) {
    return mismatch(`the Mcp-Method header is "${method}" but the body's method is "${message.method}".`);
  }
  const meta = metaOf(message.params);
  const declared = meta?.[META_PROTOCOL_VERSION];
  if (id !== undefined) {
    const missing = [
      typeof declared === 'string' ? null : META_PROTOCOL_VERSION,
      isObject(meta?.[META_CLIENT_CAPABILITIES]) ? null : META_CLIENT_CAPABILITIES,
    ].filter((field) => field !== null);
    if (missing.length > 0) {
      return modernError(
        400,
        -32602,
        `Invalid params: params._meta needs ${missing.join(' and ')} (the protocol version as a string, the client's capabilities as an object, {} for none).`,
        id,
      );
    }
  }
  const version = fieldValue(headers, 'mcp-protocol-version');
  if (version === null) {
    return mismatch(`send the MCP-Protocol-Version header with every request (here "${String(declared)}").`);
  }
  if (typeof declared === 'string' && version !== declared) {
    return mismatch(
      `the MCP-Protocol-Version header is "${version}" but params._meta declares "${declared}"; send the same version in both.`,
    );
  }
  const field = NAMED_BY[message.method];
  if (field) {
    const target = isObject(message.params) ? message.params[field] : undefined;
    const raw = fieldValue(headers, 'mcp-name');
    const name = raw === null ? null : decodeHeaderValue(raw);
    if (raw !== null && name === null) {
      return mismatch(`the Mcp-Name header is not valid =?base64?...?= text.`);
    }
    if (typeof target === 'string' && name === null) {
      return mismatch(`send the Mcp-Name header with ${message.method} (here "Mcp-Name: ${target}").`);
    }
    if (name !== null && name !== target) {
      return mismatch(
        `the Mcp-Name header is "${name}" but the body's params.${field} is ${typeof target === 'string' ? `"${target}"` : 'missing'}.`,
      );
    }
  }
  if (!MODERN_PROTOCOL_VERSIONS.includes(version)) {
    return modernError(
      400,
      MODERN_ERROR.unsupportedProtocolVersion,
      `Unsupported protocol version: ${version}. This server speaks ${WEB_PROTOCOL_VERSIONS.join(', ')}.`,
      id,
      { supported: [...WEB_PROTOCOL_VERSIONS], requested: version },
    );
  }
  return null;
}

/** Whether the server answers `method` under the modern revision; the others get {@link methodNotFound}. */
export function isModernMethod(method: string): boolean {
  return MODERN_METHODS.has(method);
}

/** The revision's answer to a method the server does not implement: 404 with -32601. */
export function methodNotFound(id: RequestId, method: string): ModernReply {
  return modernError(
    404,
    -32601,
    `Method not found: ${method}. Under protocol ${MODERN_PROTOCOL_VERSIONS[0]} this server answers ${[...MODERN_METHODS].join(', ')}.`,
    id,
  );
}

function withServerInfo(result: Record<string, unknown>, description: ServerDescription | undefined) {
  if (!description) return result;
  const meta = isObject(result._meta) ? result._meta : {};
  return { ...result, _meta: { ...meta, [META_SERVER_INFO]: description.serverInfo } };
}

/** The `server/discover` result: versions, capabilities, instructions and who answers. */
export function discoverReply(
  id: RequestId,
  description: ServerDescription | undefined,
  cacheScope: CacheScope,
): ModernReply {
  const result = {
    resultType: 'complete',
    supportedVersions: [...WEB_PROTOCOL_VERSIONS],
    capabilities: description?.capabilities ?? {},
    ...(description?.instructions && { instructions: description.instructions }),
    ttlMs: CACHE_TTL_MS.get('server/discover')!,
    cacheScope,
  };
  return { status: 200, body: { jsonrpc: '2.0', id, result: withServerInfo(result, description) } };
}

/**
 * The server's response to a modern request as the revision shapes it: a result gains
 * `resultType`, the server's identity in `_meta` and, for list and read results, `ttlMs` and
 * `cacheScope`; an error keeps its body, with 404 for an unknown method and 400 for the
 * revision's own refusals.
 */
export function modernReply(
  method: string,
  response: Record<string, unknown>,
  description: ServerDescription | undefined,
  cacheScope: CacheScope,
): ModernReply {
  if (isObject(response.error)) {
    const code = response.error.code;
    const refusals: unknown[] = Object.values(MODERN_ERROR);
    return { status: code === -32601 ? 404 : refusals.includes(code) ? 400 : 200, body: response };
  }
  const ttlMs = CACHE_TTL_MS.get(method);
  const result = {
    ...(isObject(response.result) ? response.result : {}),
    resultType: 'complete',
    ...(ttlMs !== undefined && { ttlMs, cacheScope }),
  };
  return { status: 200, body: { ...response, result: withServerInfo(result, description) } };
}
