import { type DocSet, isKitError, type RateLimitStore } from '@kit/core';
import { checkRateLimit, mcpEndpointPath, parseRateLimit } from '@kit/core/internal';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { sendServerCard, serverCardOf } from '../agent-files/site-root.js';
import type { KitEnv } from '../middleware.js';
import type { KitAppOptions } from '../options.js';
import { callerKey, isPrivateFor, viewerFor } from '../request/caller.js';
import { namesType, prefersMarkdown } from '../request/negotiation.js';
import { originVouchedFor, requestOrigin } from '../request/origin.js';
import { DATABASE_RETRY_AFTER_SECONDS } from '../unavailable.js';
import type { SetGuards } from './guards.js';

/** What the MCP routes of a set need; `servePage` answers a page that lives at the endpoint's path. */
export interface McpRouteParts {
  set: DocSet;
  options: KitAppOptions;
  rateLimits: RateLimitStore;
  guards: SetGuards;
  servePage: (c: Context<KitEnv>) => Promise<Response>;
}

/** The set's MCP endpoint (Streamable HTTP), its Server Card, and a page that shares its path. */
export function mcpRoutes(app: Hono<KitEnv>, parts: McpRouteParts): void {
  const { set, options, guards } = parts;
  const mcpPath = mcpEndpointPath('', set.config.mcp.web.path);
  // A page may live at the endpoint's path (Laravel's docs have `mcp`): a browser's GET (Accept names
  // text/html) or a Markdown request shows it. Every other GET goes on to the endpoint, which answers
  // 405 with `Allow: POST`: an MCP client that opens its event stream with GET and got the HTML page
  // instead would read it as an empty stream and reconnect forever.
  app.get(mcpPath, guards.page, async (c, next) => {
    const accept = c.req.header('accept');
    if (!namesType(accept, 'text/html') && !prefersMarkdown(accept)) return next();
    const match = await set.resolveUrl(c.req.path, viewerFor(c));
    if (match.kind === 'page') return parts.servePage(c);
    await next();
  });
  // The endpoint's Server Card (MCP Server Card draft: `<endpoint>/server-card`), listed by the
  // site's /.well-known/mcp catalog; what it lists is what this caller would be offered.
  app.get(`${mcpPath}/server-card`, guards.page, guards.mcp, async (c) => {
    const card = await serverCardOf(options.kit, set, viewerFor(c), requestOrigin(c, options));
    if (!card) {
      return c.json({ error: 'not_found', message: `The "${set.key}" docs publish no MCP server card here.` }, 404, {
        'Cache-Control': 'no-cache',
      });
    }
    return sendServerCard(c, card, isPrivateFor(set, c) || !originVouchedFor(c, options));
  });
  app.all(mcpPath, mcpRefusals(set), guards.mcp, mcpEndpoint(parts));
}

/**
 * Before the endpoint's middleware: 404 while `mcp.web.enabled` is off. After it: a refusal by
 * `mcp.web.middleware` (a guard written for pages) still reaches an MCP client as MCP refuses, a
 * JSON-RPC error body and the bearer challenge with Kit's realm.
 */
function mcpRefusals(set: DocSet): MiddlewareHandler<KitEnv> {
  return async (c, next) => {
    if (!set.config.mcp.web.enabled) {
      const { mcpErrorResponse } = await loadMcp();
      return mcpErrorResponse(
        404,
        `The "${set.key}" docs have no MCP endpoint here: mcp.web.enabled is off for this set.`,
      );
    }
    await next();
    const status = c.res.status;
    if (status !== 401 && status !== 403) return;
    const type = c.res.headers.get('Content-Type') ?? '';
    if (type.includes('json') && (await c.res.clone().text()).includes('"jsonrpc"')) return;
    const { mcpErrorResponse } = await loadMcp();
    c.res = undefined;
    c.res =
      status === 401
        ? mcpErrorResponse(
            401,
            `The "${set.key}" docs need credentials. Send them (for example an Authorization: Bearer token) with every request.`,
            { 'WWW-Authenticate': 'Bearer realm="kit"' },
          )
        : mcpErrorResponse(403, `Your account may not read the "${set.key}" docs.`);
  };
}

/** The endpoint itself, rate-limited per caller under `mcp.web.rate_limit`. */
function mcpEndpoint({ set, options, rateLimits }: McpRouteParts): (c: Context<KitEnv>) => Promise<Response> {
  const rule = parseRateLimit(set.config.mcp.web.rate_limit, 'mcp.web.rate_limit');
  return async (c) => {
    const { handleMcpHttpRequest, mcpErrorResponse } = await loadMcp();
    const verdict = await checkRateLimit(rateLimits, `mcp:${set.key}:${callerKey(c)}`, rule);
    if (!verdict.allowed) {
      return mcpErrorResponse(
        429,
        `Too many requests: ${rule.max} per ${describeWindow(rule.windowMs)}. Retry after ${verdict.retryAfterSeconds} seconds.`,
        { 'Retry-After': String(verdict.retryAfterSeconds) },
      );
    }
    return handleMcpHttpRequest(c.req.raw, {
      kit: options.kit,
      set: set.key,
      viewer: viewerFor(c),
      ...(options.validate ? { validate: options.validate } : {}),
      ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
      ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
      origin: requestOrigin(c, options),
      originTrusted: originVouchedFor(c, options),
    }).catch((error: unknown) => {
      // Failing before any tool ran (the access check, the server's set-up): still a JSON-RPC answer.
      if (!isKitError(error, 'database.unavailable')) throw error;
      return mcpErrorResponse(503, `${error.code}: ${error.message}`, {
        'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS),
      });
    });
  };
}

function describeWindow(windowMs: number): string {
  const minutes = windowMs / 60_000;
  return minutes === 1 ? 'minute' : `${minutes} minutes`;
}

let mcpModule: Promise<typeof import('@kit/mcp')> | undefined;
/** The MCP server and its SDK load on the first MCP request, so a reader's first page never waits for them. */
function loadMcp(): Promise<typeof import('@kit/mcp')> {
  mcpModule ??= import('@kit/mcp');
  return mcpModule;
}
