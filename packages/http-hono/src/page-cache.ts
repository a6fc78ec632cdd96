import type { IncomingMessage } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { DocSet, PageRef, UrlMatch, Viewer } from '@kit/core';
import { isSharedResponse, isSignedIn, mcpEndpointPath, normalizePrefix } from '@kit/core/internal';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { getPath } from 'hono/utils/url';
import { cachedResponse, etagOf, type PreparedResponse, respond } from './http-cache.js';
import {
  callerAddress,
  callerAddressOf,
  currentUser,
  type KitEnv,
  middlewareDependsOnRequest,
  userOfRequest,
  userResolution,
  WEB_HEADERS,
} from './middleware.js';
import type { KitAppOptions } from './options.js';
import { viewerClassOf } from './reader-view.js';
import { viewerFor } from './request/caller.js';
import { acceptsGzip, asksForMarkdownPart, prefersMarkdown } from './request/negotiation.js';
import { hostVouchedFor, type OriginOptions, originOf, requestHost } from './request/origin.js';

// The page response cache of each set and every way a request reaches it: the page route
// (`lookUp`), the app's first middleware and `keptPagesFirst` (both through the same early answer).
// Only this module builds or reads cache keys.

/** One finished page response: the bytes, their ETag and the headers it was sent with. */
export interface CachedPage {
  body: Uint8Array<ArrayBuffer>;
  etag: string;
  contentType: string;
  headers: Record<string, string>;
  /** The body gzipped, made on the first request that accepts gzip. */
  gzip?: Uint8Array<ArrayBuffer>;
  /** When the cache last moved it to the end of its order (a count of uses). */
  usedAt?: number;
  /**
   * The headers each way of sending it went out with (see sendCached's `sentHeaders`), by a small
   * number for gzipped, private and with the `web` headers.
   */
  sent?: Array<{ headers?: Record<string, string> } | undefined>;
}

/**
 * Finished page responses of one set, dropped whenever its source reports a change: a guest's of a
 * public set by address, and a signed-in reader's by address and the class of viewers shown the same.
 */
export interface PageResponseCache {
  get(key: string): CachedPage | undefined;
  /** Counts content changes; read it before building a response and hand it to `set`. */
  generation(): number;
  /** Keeps the response unless the content changed after `generation` was read. */
  set(key: string, generation: number, entry: Omit<CachedPage, 'etag'>): CachedPage;
}

/** Bytes of page bodies kept per set by default (the Laravel set's three versions fit twice over). */
const DEFAULT_MAX_BYTES = 128 * 1024 * 1024;

/**
 * The response cache of a set whose source watches its content, or null for one that does not:
 * without change notices a cached page could go stale, so those sets build every response afresh.
 * A `shared` source (a database other processes write) hears of their writes late, so its set
 * gets none either: its pages are rendered through its cache store, keyed by content hash.
 * A public page is the same for every guest, so the page route answers a repeat request for the
 * same origin, path and representation with the stored bytes and ETag instead of resolving,
 * laying out and hashing the page again. A signed-in reader's page is kept too, under what they
 * may see (the app's viewer class), so only the access checks run again.
 */
export function pageResponseCache(set: DocSet, maxBytes = DEFAULT_MAX_BYTES): PageResponseCache | null {
  if (typeof set.source.watch !== 'function' || set.source.shared === true) return null;
  const entries = new Map<string, CachedPage>();
  let bytes = 0;
  let changes = 0;
  let uses = 0;
  set.source.watch(() => {
    changes += 1;
    entries.clear();
    bytes = 0;
  });
  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    bytes -= entry.body.byteLength;
    entries.delete(key);
  };
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      // Least recently used goes first: an entry outside the newer half of the order is moved to
      // its end (re-inserted); one inside it is left, which spares a hot page two map writes a hit.
      uses += 1;
      if (uses - (entry.usedAt ?? 0) > entries.size / 2) {
        entries.delete(key);
        entries.set(key, entry);
        entry.usedAt = uses;
      }
      return entry;
    },
    generation: () => changes,
    set(key, generation, entry) {
      const stored: CachedPage = { ...entry, etag: etagOf(entry.body) };
      if (generation !== changes || entry.body.byteLength > maxBytes) return stored;
      drop(key);
      uses += 1;
      stored.usedAt = uses;
      entries.set(key, stored);
      bytes += entry.body.byteLength;
      while (bytes > maxBytes) drop(entries.keys().next().value as string);
      return stored;
    },
  };
}

/**
 * The representation of a cached page for a request's Accept-Encoding (`gzipped` when it goes
 * with `Content-Encoding: gzip`): gzipped once and kept, so a browser's request costs no
 * compression (the compress middleware leaves a response alone that already names its encoding).
 * The gzipped bytes carry the weak form of the page's ETag, as the compress middleware would.
 */
export function cachedVariant(
  entry: CachedPage,
  acceptEncoding: string | undefined,
): { body: Uint8Array<ArrayBuffer>; etag: string; gzipped: boolean } {
  if (entry.body.byteLength < 1024 || !acceptsGzip(acceptEncoding)) {
    return { body: entry.body, etag: entry.etag, gzipped: false };
  }
  entry.gzip ??= new Uint8Array(gzipSync(entry.body)) as Uint8Array<ArrayBuffer>;
  return { body: entry.gzip, etag: `W/${entry.etag}`, gzipped: true };
}

type MaybePromise<T> = T | Promise<T>;

/** The early answer of one set: a cached response for a page request, or null to let the routes run. */
type EarlyAnswer = (request: PageRequest) => MaybePromise<PreparedResponse | null>;

/** The page caches of an app's sets, made by {@link appPageCache}. */
export interface AppPageCache {
  /** The cache of one of the app's sets, for its page route; its pages are answered early from then on. */
  forSet(set: DocSet): SetPageCache;
  /**
   * The app's first middleware: a cached page is answered here, before routing and the middleware
   * chain, which cost a cached page more than sending it; the same access checks run.
   */
  answerFirst: MiddlewareHandler<KitEnv>;
  /** Lets {@link keptPagesFirst} answer the cached pages of `app`, the app these caches serve. */
  answerEarlyFor(app: Hono<KitEnv>): void;
}

/**
 * The page response caches of the sets of one app made by `createKitApp`, and the answers they give
 * before the routes run. `setAt` finds the set that serves a path on a host.
 */
export function appPageCache(
  options: KitAppOptions,
  setAt: (path: string, host: string | undefined) => DocSet | null,
): AppPageCache {
  const { kit } = options;
  const early = new Map<DocSet, EarlyAnswer>();
  const findCaller = callerAddress(kit);
  const findUser = userResolution(kit);
  const findAddress = callerAddressOf(kit);
  return {
    forSet(set) {
      const cache = setPageCache(set, options);
      early.set(set, cache.answer);
      return cache;
    },
    answerFirst: async (c, next) => {
      if (c.req.method === 'GET' && !(c.req.raw as LookedUp)[LOOKED_UP]) {
        const set = setAt(c.req.path, requestHost(c));
        const answer = set ? early.get(set) : undefined;
        if (answer) {
          await findCaller(c, async () => {});
          await findUser(c, async () => {});
          const cached = await answer(contextPageRequest(c));
          if (cached) {
            c.set('kitEncoded', true);
            // First of all handlers (no application around Kit's app): no header was set before.
            c.set('kitAnsweredFirst', c.req.routeIndex === 0);
            return respond(c, cached.body, cached.status, cached.headers);
          }
        }
      }
      await next();
    },
    answerEarlyFor(app) {
      earlyAnswers.set(app as unknown as Hono<never>, (request, incoming) => {
        if (request.method !== 'GET') return null;
        const path = getPath(request);
        const host = headerOf(request, incoming, 'host') ?? new URL(request.url).host;
        const set = setAt(path, host);
        const answer = set ? early.get(set) : undefined;
        if (!answer) return null;
        const user = userOfRequest(kit, request);
        if (user instanceof Promise) {
          return user.then((known) => answer(new BarePageRequest(request, incoming, path, host, known, findAddress)));
        }
        return answer(new BarePageRequest(request, incoming, path, host, user, findAddress));
      });
    },
  };
}

/** What {@link SetPageCache.lookUp} tells the page route. */
export interface PageLookup {
  /** True when the response depends on who asks. */
  isPrivate: boolean;
  /** The URL match, when finding the page's place in the cache needed one. */
  match?: UrlMatch;
  /** The cached response to this request. */
  cached?: CachedPage;
  /** Caches the response made for this request; absent when it is not cached. */
  store?: (page: Omit<CachedPage, 'etag'>) => CachedPage;
}

/** The response cache of one set, as its page route uses it. */
export interface SetPageCache {
  /** Where a page request stands with the cache: answered without a promise when nothing needs waiting for. */
  lookUp(c: Context, wantsMarkdown: boolean): MaybePromise<PageLookup>;
  /** The set's early answer (see {@link appPageCache}). */
  answer: EarlyAnswer;
}

function setPageCache(set: DocSet, options: KitAppOptions): SetPageCache {
  const config = set.config;
  const responses = pageResponseCache(set);
  const mcpRoute = `${normalizePrefix(config.route.prefix)}${mcpEndpointPath('', config.mcp.web.path)}`;
  // Answered before the routes run only when no middleware but the built-in `web` stands before them.
  const answersEarly = !middlewareDependsOnRequest(options.kit, config.route.middleware);
  const webHeaders = config.route.middleware.includes('web') ? WEB_HEADERS : undefined;

  /**
   * The cached response to a page request, or null when the page route must run: the same lookup
   * as the route's. Never for the MCP endpoint's path, where the Accept header picks the route,
   * nor for part of a Markdown twin, nor for a guest of an `auth` set.
   */
  const answer: EarlyAnswer = (request) => {
    if (!responses || !answersEarly) return null;
    const { path } = request;
    if (path === mcpRoute || path.startsWith(`${mcpRoute}/`)) return null;
    if (config.access.mode === 'auth' && !isSignedIn(request.user)) return null;
    const wantsMarkdown = prefersMarkdown(request.header('accept'));
    if ((wantsMarkdown || path.endsWith('.md')) && asksForMarkdownPart(request.url)) return null;
    const found = lookUp(set, responses, request, wantsMarkdown, options);
    return found instanceof Promise
      ? found.then((place) => earlyResponse(place, request, webHeaders))
      : earlyResponse(found, request, webHeaders);
  };

  return {
    answer,
    lookUp(c, wantsMarkdown) {
      // Read before the lookup: a change while the response is built keeps it out of the cache.
      const generation = responses?.generation() ?? 0;
      const found = lookUp(set, responses, contextPageRequest(c), wantsMarkdown, options);
      return found instanceof Promise
        ? found.then((place) => pageLookup(place, responses, generation))
        : pageLookup(found, responses, generation);
    },
  };
}

/** Where a page request stands with its set's response cache (see {@link lookUp}). */
interface CachePlace {
  isPrivate: boolean;
  /** The key it is cached under; null when it is not cached (a cache-less set, or no page for this viewer). */
  cacheKey: string | null;
  match?: UrlMatch;
  cached?: CachedPage;
}

function pageLookup(place: CachePlace, responses: PageResponseCache | null, generation: number): PageLookup {
  const { isPrivate, cacheKey, match, cached } = place;
  return {
    isPrivate,
    ...(match ? { match } : {}),
    ...(cached ? { cached } : {}),
    ...(cacheKey !== null && responses ? { store: (page) => responses.set(cacheKey, generation, page) } : {}),
  };
}

function earlyResponse(
  { isPrivate, cached }: CachePlace,
  request: PageRequest,
  webHeaders: Readonly<Record<string, string>> | undefined,
): PreparedResponse | null {
  if (!cached) return null;
  return cachedPageResponse(
    cached,
    isPrivate,
    request.header('accept-encoding'),
    request.header('if-none-match'),
    webHeaders,
  );
}

/** A page's key in the response cache: the origin its links carry, the representation, the path. */
function pageVariant(request: PageRequest, wantsMarkdown: boolean, options: OriginOptions): string {
  return `${originOf(request.url, options)}\u0000${wantsMarkdown ? 'md' : 'html'}\u0000${request.path}`;
}

/**
 * Where a page request stands with the set's response cache: whether its response depends on who
 * asks, the key it is cached under, the URL match when finding the key needed one, and the cached
 * page when there is one. A guest's public page is found without a promise.
 */
function lookUp(
  set: DocSet,
  responses: PageResponseCache | null,
  request: PageRequest,
  wantsMarkdown: boolean,
  options: OriginOptions,
): MaybePromise<CachePlace> {
  // The page's canonical URL carries the origin: a copy made for a forged Host is not shared.
  const isPrivate = !isSharedResponse(set.config.access.mode, request.user) || !hostVouchedFor(request.host, options);
  if (!responses) return { isPrivate, cacheKey: null };
  const variant = pageVariant(request, wantsMarkdown, options);
  // A public page is the same for every guest: answered before asking anything about the viewer.
  if (!isPrivate) return { isPrivate, cacheKey: variant, cached: responses.get(variant) };
  const viewer = request.viewer();
  const match = set.resolveUrl(request.path, viewer);
  if (match instanceof Promise) {
    return match.then((found) => privatePlace(set, responses, found, variant, wantsMarkdown, viewer));
  }
  return privatePlace(set, responses, match, variant, wantsMarkdown, viewer);
}

/**
 * Where a private page request leads in the cache. What a signed-in reader (or any reader of a
 * non-public set) is shown depends on what they may see: cached per page and per class of viewers
 * seeing the same (see viewerClassOf). The Markdown twin is the page alone, the same for everyone
 * who may open it, so it needs no class and no promise.
 */
function privatePlace(
  set: DocSet,
  responses: PageResponseCache,
  match: UrlMatch,
  variant: string,
  wantsMarkdown: boolean,
  viewer: Viewer,
): MaybePromise<CachePlace> {
  if (match.kind !== 'page') return { isPrivate: true, cacheKey: null, match };
  const placeFor = (viewerClass: string): CachePlace => {
    const cacheKey = privateKeyOf(variant, match.ref, viewerClass);
    return { isPrivate: true, cacheKey, match, cached: responses.get(cacheKey) };
  };
  if (match.markdown || wantsMarkdown) return placeFor('');
  return viewerClassOf(set, viewer, match.ref).then(placeFor);
}

/** A signed-in reader's (or a non-public set's) page in the response cache, per class of viewers seeing the same. */
function privateKeyOf(variant: string, ref: PageRef, viewerClass: string): string {
  return `${variant}\u0000private\u0000${ref.version}\u0000${ref.locale}\u0000${ref.path}\u0000${viewerClass}`;
}

/** Sends a cached page, encoded as the request accepts; `isPrivate` for a page cached per class of viewers. */
export function sendCachedPage(c: Context<KitEnv>, entry: CachedPage, isPrivate: boolean): Response {
  c.set('kitEncoded', true);
  const sent = cachedPageResponse(entry, isPrivate, c.req.header('accept-encoding'), c.req.header('if-none-match'));
  return respond(c, sent.body, sent.status, sent.headers);
}

/**
 * The response a cached page makes for a request's Accept-Encoding and If-None-Match;
 * `extraHeaders` for what a middleware that has not run would have added (the built-in `web`).
 */
function cachedPageResponse(
  entry: CachedPage,
  isPrivate: boolean,
  acceptEncoding: string | undefined,
  ifNoneMatch: string | undefined,
  extraHeaders?: Readonly<Record<string, string>>,
): PreparedResponse {
  const { body, etag, gzipped } = cachedVariant(entry, acceptEncoding);
  entry.sent ??= [];
  // A number, not a text: it is worked out on every request.
  const sending = (gzipped ? 4 : 0) + (isPrivate ? 2 : 0) + (extraHeaders !== undefined ? 1 : 0);
  entry.sent[sending] ??= {};
  const sent = entry.sent[sending];
  // Merged for the first sending only: later ones take the headers cachedResponse stored in `sent`.
  const headers = sent.headers
    ? undefined
    : { ...extraHeaders, ...entry.headers, ...(gzipped ? { 'Content-Encoding': 'gzip' } : {}) };
  return cachedResponse(
    body,
    { contentType: entry.contentType, ...(headers ? { headers } : {}), etag, isPrivate, sentHeaders: sent },
    ifNoneMatch,
  );
}

/**
 * What looking up a page reads of a request: from Hono's context inside Kit's app
 * ({@link contextPageRequest}), or from the bare request before any application runs
 * ({@link BarePageRequest}).
 */
interface PageRequest {
  /** The request's path as Hono's `c.req.path` gives it. */
  path: string;
  /** The absolute request URL. */
  url: string;
  /** The Host the request sent. */
  host: string;
  /** A request header by its lower-case name. */
  header(name: string): string | undefined;
  /** What `resolveUser` answered (null for a guest). */
  user: unknown | null;
  /** The viewer, with the caller's address: made only when a page's access must be checked. */
  viewer(): Viewer;
}

function contextPageRequest(c: Context): PageRequest {
  return {
    path: c.req.path,
    url: c.req.url,
    host: requestHost(c),
    header: (name) => c.req.header(name),
    user: currentUser(c),
    viewer: () => viewerFor(c),
  };
}

/** A request header by its lower-case name: from Node's incoming message when there is one. */
function headerOf(request: Request, incoming: IncomingMessage | undefined, name: string): string | undefined {
  return incoming ? (incoming.headers[name] as string | undefined) : (request.headers.get(name) ?? undefined);
}

/** A bare request as a {@link PageRequest} (keptPagesFirst): a class, so that asking makes no closure per request. */
class BarePageRequest implements PageRequest {
  readonly url: string;
  constructor(
    private readonly request: Request,
    private readonly incoming: IncomingMessage | undefined,
    readonly path: string,
    readonly host: string,
    readonly user: unknown | null,
    private readonly findAddress: (peer: string | undefined, forwardedFor: string | undefined) => string,
  ) {
    this.url = request.url;
  }

  header(name: string): string | undefined {
    return headerOf(this.request, this.incoming, name);
  }

  viewer(): Viewer {
    return {
      user: this.user,
      ip: this.findAddress(this.incoming?.socket.remoteAddress, this.header('x-forwarded-for')),
    };
  }
}

/** How each app createKitApp made answers a cached page from a bare request (see keptPagesFirst). */
const earlyAnswers = new WeakMap<
  Hono<never>,
  (request: Request, incoming: IncomingMessage | undefined) => MaybePromise<PreparedResponse | null>
>();

/** Marks a request keptPagesFirst looked up and found nothing cached for. */
const LOOKED_UP = Symbol('kit.keptAsked');
type LookedUp = Request & { [LOOKED_UP]?: true };

/**
 * A `fetch` handler that answers the pages `kitApp` has cached before `fetch` runs at all, and
 * hands every other request to `fetch`: `kitApp` is what `createKitApp` made, and `fetch` is the
 * application it is mounted in (or `kitApp.fetch`). Kit's app answers cached pages ahead of its own
 * routes already; this skips the application's routing and Hono's context as well, which cost a
 * small cached page (a `.md` twin) about as much as sending it. The same checks run: `resolveUser`
 * (once: the application's Kit routes see the same answer), the gates, the `web` headers and
 * `If-None-Match`. Use it only where the application adds nothing of its own to Kit's pages: no
 * middleware on their paths, which this would skip. With `@hono/node-server` the headers are read
 * from the incoming message, without building the request's `Headers`.
 *
 * @example
 * const kitApp = createKitApp({ kit });
 * const app = new Hono().route('/', kitApp);
 * serve({ fetch: keptPagesFirst(kitApp, app.fetch), port: 3000 });
 */
export function keptPagesFirst<Bindings>(
  kitApp: Hono<KitEnv>,
  fetch: (request: Request, env: Bindings) => Response | Promise<Response>,
): (request: Request, env: Bindings) => Response | Promise<Response> {
  const answer = earlyAnswers.get(kitApp as unknown as Hono<never>);
  if (!answer) throw new TypeError('keptPagesFirst takes the app createKitApp made.');
  // A failing `resolveUser` or source is the application's to answer, as on any other request.
  const send = (kept: PreparedResponse | null, request: Request, env: Bindings) => {
    if (kept) return new Response(kept.body, { status: kept.status, headers: kept.headers });
    // Looked up already: Kit's own early answer (createKitApp) would only ask again.
    (request as LookedUp)[LOOKED_UP] = true;
    return fetch(request, env);
  };
  // Answered without a promise where nothing asked needs one (a guest's public page, a `resolveUser`
  // that answers at once): @hono/node-server then writes the response straight away.
  return (request, env) => {
    const incoming = (env as { incoming?: IncomingMessage } | undefined)?.incoming;
    let kept: MaybePromise<PreparedResponse | null>;
    try {
      kept = answer(request, incoming?.headers ? incoming : undefined);
    } catch {
      return fetch(request, env);
    }
    if (!(kept instanceof Promise)) return send(kept, request, env);
    return kept.then(
      (answered) => send(answered, request, env),
      () => fetch(request, env),
    );
  };
}
