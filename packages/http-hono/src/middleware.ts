import type { DocSet, Kit } from '@kit/core';
import { KitError } from '@kit/core';
import type { ProxyTrust } from '@kit/core/internal';
import { clientAddress, compileProxyTrust, UNKNOWN_ADDRESS } from '@kit/core/internal';
import { type Context, Context as HonoContext, type MiddlewareHandler } from 'hono';
import { namedMiddleware } from './references.js';

/** The environment of Kit's Hono apps: the context variables of {@link KitVariables}. */
export type KitEnv = { Variables: KitVariables };

/** The context variables Kit sets on every request it handles. */
export interface KitVariables {
  kitUser: unknown | null;
  /** Set when a response is already encoded for this request (a cached page), so compression leaves it. */
  kitEncoded?: boolean;
  /** Set when the response was made by `respond`, which keeps the headers set before it. */
  kitHeadersKept?: boolean;
  /** Set while a kept page is answered by the first handler of all, before any could set a header. */
  kitAnsweredFirst?: boolean;
  /** The caller's address under `http.trusted_proxies`, found once per request by {@link callerAddress}. */
  kitClientIp?: string;
}

/**
 * Resolves the signed-in user once per request through the config's `resolveUser` and keeps it on
 * the context, so every route and gate sees the same answer.
 */
export function userResolution(kit: Kit): MiddlewareHandler<{ Variables: KitVariables }> {
  return async (c, next) => {
    if (c.get('kitUser') === undefined) c.set('kitUser', await userOfRequest(kit, c.req.raw));
    await next();
  };
}

// Kept on the request itself (not in a WeakMap, whose entries cost every garbage collection), so a
// request whose user was resolved before Kit's app ran (keptPagesFirst) is not resolved again.
const RESOLVED_USER = Symbol('kit.resolvedUser');

/**
 * The config's `resolveUser` answer for a request (null for a guest), asked once per request
 * object however many doors ask; a promise only when the resolver's answer is one.
 */
export function userOfRequest(kit: Kit, request: Request): unknown | null | Promise<unknown | null> {
  const resolver = kit.config.resolveUser;
  if (!resolver) return null;
  const known = request as KnownUser;
  if (known[RESOLVED_USER] !== undefined) return known[RESOLVED_USER];
  // A resolver that answers at once is not made to wait for a promise.
  const user = resolver(request);
  return typeof (user as PromiseLike<unknown> | null)?.then === 'function'
    ? Promise.resolve(user).then((resolved) => keepUser(known, resolved))
    : keepUser(known, user);
}

type KnownUser = Request & { [RESOLVED_USER]?: unknown | null };

function keepUser(request: KnownUser, user: unknown): unknown | null {
  request[RESOLVED_USER] = user ?? null;
  return user ?? null;
}

/** The user `userResolution` found for this request (null for a guest). */
export function currentUser(c: Context): unknown | null {
  return (c.get('kitUser' as never) as unknown) ?? null;
}

/**
 * The address of the connection's other end where the runtime says it: Node (`@hono/node-server`
 * passes the incoming message), Bun (the server's `requestIP`) and Deno (the handler's `remoteAddr`).
 */
function peerAddress(c: Context): string | undefined {
  const env = c.env as
    | {
        incoming?: { socket?: { remoteAddress?: string } };
        requestIP?: (request: Request) => { address?: string } | null;
        remoteAddr?: { hostname?: string };
      }
    | undefined;
  if (!env) return undefined;
  if (env.incoming) return env.incoming.socket?.remoteAddress;
  if (typeof env.requestIP === 'function') return env.requestIP(c.req.raw)?.address;
  return env.remoteAddr?.hostname;
}

/**
 * Finds the caller's address once per request under the config's `http.trusted_proxies`, for
 * {@link clientIp} and through it every rate limit. Without trusted proxies it is the connection's
 * address, whatever `X-Forwarded-For` says.
 */
export function callerAddress(kit: Kit): MiddlewareHandler<{ Variables: KitVariables }> {
  const findAddress = callerAddressOf(kit);
  return async (c, next) => {
    if (c.get('kitClientIp') === undefined) {
      c.set('kitClientIp', findAddress(peerAddress(c), c.req.header('x-forwarded-for')));
    }
    await next();
  };
}

/**
 * The caller's address from the connection's address and `X-Forwarded-For`, under the config's
 * `http.trusted_proxies` (see {@link callerAddress}).
 */
export function callerAddressOf(kit: Kit): (peer: string | undefined, forwardedFor: string | undefined) => string {
  const trust = compileProxyTrust(kit.config.http?.trusted_proxies ?? false);
  return (peer, forwardedFor) => clientAddress({ peer, forwardedFor }, trust);
}

function addressOf(c: Context, trust: ProxyTrust): string {
  return clientAddress({ peer: peerAddress(c), forwardedFor: c.req.header('x-forwarded-for') }, trust);
}

const TRUST_NO_PROXY: ProxyTrust = () => false;

/**
 * The caller's address: as {@link callerAddress} found it, or (outside an app that runs it) the
 * connection's own. `unknown` when the runtime does not say and no trusted proxy names the caller.
 */
export function clientIp(c: Context): string {
  return (c.get('kitClientIp' as never) as string | undefined) ?? addressOf(c, TRUST_NO_PROXY) ?? UNKNOWN_ADDRESS;
}

/** True when a set answers on this host: any host without `route.domain`, else that domain only (any port). */
export function domainMatches(set: DocSet, host: string | undefined): boolean {
  const domain = set.config.route.domain;
  if (!domain) return true;
  return (host ?? '').replace(/:\d+$/, '').toLowerCase() === domain.toLowerCase();
}

/**
 * Would this request get past `middleware`? Runs it on a copy of the request's context (so its
 * headers and cookies stay off the real response) with `user` as the signed-in user, and answers
 * true when it reaches the end of the chain. A middleware that answers itself or throws refuses.
 * For listings that must only name what the caller can open (the agent-skills index).
 */
export async function passesMiddleware(
  middleware: MiddlewareHandler,
  c: Context,
  user: unknown | null,
): Promise<boolean> {
  const probe = new HonoContext(c.req.raw, { env: c.env });
  probe.set('kitUser' as never, user as never);
  let reached = false;
  try {
    await middleware(probe, async () => {
      reached = true;
    });
  } catch {
    return false;
  }
  return reached;
}

/** The headers the built-in `web` adds to every response of the routes it guards. */
export const WEB_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
});

function applyWebHeaders(c: Context): void {
  for (const name in WEB_HEADERS) c.header(name, WEB_HEADERS[name]);
}

/** Built in: `web` adds the headers every HTML page should carry. */
const web: MiddlewareHandler = async (c, next) => {
  // Set before the handler so they join the response it builds: a header set on a finished
  // response makes Hono copy it, body and all, which costs more than the page itself when cached.
  applyWebHeaders(c);
  await next();
  // A handler that returned its own Response (not through `c` or `respond`) did not take them.
  if (!c.get('kitHeadersKept' as never) && !c.res.headers.has('X-Content-Type-Options')) applyWebHeaders(c);
};

/** Options of {@link resolveMiddleware}. */
export interface ResolveMiddlewareOptions {
  /**
   * The answer the built-in `auth` gives a guest who opens a page in a browser (the set's HTML
   * sign-in page), or undefined to answer this request with JSON. Without it every guest gets
   * JSON: right for routes no person opens, such as the MCP endpoint.
   */
  signIn?: (c: Context) => Response | undefined | Promise<Response | undefined>;
}

/**
 * Built in: `auth` (and `auth:<guard>` when the application registers no such name) admits
 * signed-in users only. A guest gets a JSON 401 with the bearer challenge, which agents and API
 * clients read, unless `signIn` has a page for the request.
 */
function auth(signIn: ResolveMiddlewareOptions['signIn']): MiddlewareHandler {
  return async (c, next) => {
    if (currentUser(c) === null) {
      const page = await signIn?.(c);
      if (page) return page;
      return c.json({ error: 'unauthenticated', message: 'Sign in or send a valid bearer token.' }, 401, {
        'WWW-Authenticate': 'Bearer realm="kit"',
        ...(signIn ? { Vary: 'Accept' } : {}),
      });
    }
    await next();
  };
}

/**
 * Turns the middleware names of `route.middleware` / `mcp.web.middleware` into handlers: the
 * application's own (config `middleware`) first, then the built-in `web` and `auth[:guard]`.
 * An unknown name is a configuration error at start-up, never a silently open route.
 *
 * @example
 * const guards = resolveMiddleware(kit, ['web', 'auth'], 'sets.docs.route.middleware');
 */
export function resolveMiddleware(
  kit: Kit,
  names: string[],
  key: string,
  options: ResolveMiddlewareOptions = {},
): MiddlewareHandler[] {
  const registered = (kit.config.middleware ?? {}) as Record<string, MiddlewareHandler>;
  const builtInAuth = auth(options.signIn);
  return names.map((name) => {
    const own = registered[name];
    if (own) return namedMiddleware(name, own);
    if (name === 'web') return namedMiddleware('web', web);
    if (name === 'auth' || name.startsWith('auth:')) return namedMiddleware(name, builtInAuth);
    const known = ['web', 'auth', 'auth:<guard>', ...Object.keys(registered)].join(', ');
    throw new KitError(
      'config.invalid',
      `${key} names middleware \`${name}\`, which is not registered. Known: ${known}. Register it under \`middleware\` in kit.config.ts.`,
    );
  });
}

/**
 * True when middleware of these names may answer two requests differently: anything but the
 * built-in `web`, which only adds headers. A listing filtered through such middleware depends on
 * who asks and must not be shared by caches.
 */
export function middlewareDependsOnRequest(kit: Kit, names: string[]): boolean {
  const registered = (kit.config.middleware ?? {}) as Record<string, MiddlewareHandler>;
  return names.some((name) => name !== 'web' || registered[name] !== undefined);
}

/**
 * A user resolver for bearer tokens: `Authorization: Bearer <token>` maps to the user listed for
 * that token. Compose it into `resolveUser` in kit.config.ts.
 *
 * @example
 * resolveUser: bearerTokenUsers({ [process.env.DOCS_TOKEN!]: { id: 'ci', role: 'editor' } })
 */
export function bearerTokenUsers(tokens: Record<string, unknown>): (request: Request) => unknown | null {
  const table = new Map(Object.entries(tokens).filter(([token]) => token.length > 0));
  return (request) => {
    const header = request.headers.get('authorization') ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header.trim());
    return match ? (table.get(match[1]!) ?? null) : null;
  };
}
