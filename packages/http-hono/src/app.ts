import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AskOptions } from '@kit/ai';
import {
  checkRateLimit,
  createMemoryRateLimitStore,
  type DocSet,
  isAllowedHost,
  isKitError,
  isRequestError,
  isSharedResponse,
  isSignedIn,
  type Kit,
  KitError,
  looksLikeFile,
  mcpEndpointPath,
  normalizePrefix,
  type PageRef,
  type PageView,
  parseRateLimit,
  type RateLimitStore,
  type ReadPageInput,
  readBoundedText,
  rebaseSchema,
  type SchemaName,
  schemaNames,
  schemas,
  type UrlMatch,
  type Viewer,
  withLlmsTxtDirective,
} from '@kit/core';
import { loadOptionalPeer, projectCacheDir } from '@kit/core/node';
import type { McpHttpOptions } from '@kit/mcp';
import { renderNotFoundPage, renderReaderPage, renderSearchPage } from '@kit/render';
import { type ReaderAssets, readerAssets } from '@kit/render/assets';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { every } from 'hono/combine';
import { compress } from 'hono/compress';
import { getPath } from 'hono/utils/url';
import { agentFileRoutes, agentLinkHeader, wellKnownSkillsRoute } from './agent-files/index.js';
import { type SiteRootFiles, sendServerCard, serverCardOf, siteRootRoutes } from './agent-files/site-root.js';
import { cachedResponse, type PreparedResponse, respond, sendCached } from './http-cache.js';
import { LOOPBACK_HOSTS } from './loopback.js';
import {
  callerAddress,
  callerAddressOf,
  clientIp,
  currentUser,
  domainMatches,
  type KitVariables,
  middlewareDependsOnRequest,
  requestHost,
  resolveMiddleware,
  userOfRequest,
  userResolution,
  WEB_HEADERS,
} from './middleware.js';
import { type CachedPage, cachedVariant, type PageResponseCache, pageResponseCache } from './page-cache.js';
import {
  readerNotFoundView,
  readerPageView,
  readerSearchView,
  type ViewContext,
  viewerClassOf,
} from './reader-view.js';
import { markPackageRoutes } from './references.js';
import { reviewScreen } from './review-screen.js';
import { signInJson, signInMarkdown, signInPage } from './sign-in.js';
import { fileUrlHash, type SetFileUrls, sendFile, setFileUrls } from './static-files.js';
import { DATABASE_RETRY_AFTER_SECONDS, databaseUnavailableResponse } from './unavailable.js';

/** Options of {@link createKitApp}. */
export interface KitAppOptions {
  kit: Kit;
  /** Only these sets (default: every set of the kit). */
  sets?: string[];
  /**
   * Where rate-limit counters live. Default: one process's memory. Give several server processes
   * one Redis store (`createRedisRateLimitStore`) so they share one limit.
   */
  rateLimitStore?: RateLimitStore;
  /** Passed to the MCP endpoint: the `kit validate --json` check offered to `manageKit` callers. */
  validate?: McpHttpOptions['validate'];
  /** Host names the MCP endpoint answers for (DNS-rebinding protection for servers on private addresses). */
  allowedHosts?: string[];
  /** Browser origins besides the site's own allowed to call the MCP endpoint. */
  allowedOrigins?: string[];
  /**
   * Public origin for absolute URLs (`https://docs.example.com`). Without it each request's own
   * origin is written, and what carries it (pages, `llms.txt`, the sitemap, schemas) is shared with
   * other callers (public, ETag) only when its Host is vouched for: one of `allowedHosts`, a set's
   * `route.domain`, or, with neither configured, a loopback name. Any other Host gets a private copy,
   * so a forged Host never reaches a cache.
   */
  origin?: string;
  /** Extra HTML injected before `</body>` of every page (the CLI's live-reload script). */
  injectHtml?: string;
  /**
   * Where the built reader script and stylesheet are kept between runs, so a restart with unchanged
   * reader sources does not build them again. Default `<root>/.kit/cache`; null keeps nothing on disk.
   */
  cacheDir?: string | null;
  /**
   * Ask AI's settings that are not configuration: the providers' environment (default
   * `process.env`), the clock of the daily budget, the wait for a silent provider. Its counts live
   * in `rateLimitStore`.
   */
  ask?: Omit<AskOptions, 'kit' | 'store'>;
  /**
   * The discovery files at the site root: `/llms.txt`, `/robots.txt` and the MCP catalog under
   * `/.well-known/mcp` (see `siteRootRoutes`). On by default; false, or false for one file, leaves
   * that path to the host application. Routes the host registers before mounting Kit win anyway.
   */
  siteRoot?: SiteRootFiles | false;
}

type Env = { Variables: KitVariables };

/** Largest feedback body read: a 2000-character comment, its page path and room to spare. */
const FEEDBACK_MAX_BODY_BYTES = 8 * 1024;
const SCHEMA_HEADERS = { 'Access-Control-Allow-Origin': '*' };
const encoder = new TextEncoder();
// Pages are negotiated on Accept (HTML or the Markdown twin) and compressed on Accept-Encoding. Naming
// both up front also keeps the compress middleware from re-creating a finished response to add Vary.
const PAGE_VARY = 'Accept, Accept-Encoding';

/**
 * Every HTTP route of the kit's doc sets as one Hono app a host application mounts: pages and
 * their `.md` twins, redirects, schemas, the MCP endpoint, agent files, search, feedback and the
 * reader's assets. Each set answers under its `route.prefix` (and `route.domain` when set).
 *
 * @example
 * const kit = await loadKit();
 * const app = new Hono();
 * app.route('/', createKitApp({ kit }));
 * serve({ fetch: app.fetch, port: 3000 });
 */
export function createKitApp(options: KitAppOptions): Hono<Env> {
  const { kit } = options;
  const rateLimits = options.rateLimitStore ?? createMemoryRateLimitStore();
  const app = new Hono<Env>();
  const cacheDir = options.cacheDir === undefined ? projectCacheDir(kit.config.root) : options.cacheDir;
  const assets = loadAssets(cacheDir);

  const findCaller = callerAddress(kit);
  const findUser = userResolution(kit);
  // A page kept in a set's response cache is answered here, before routing and the middleware
  // chain, which cost a kept page more than sending it; the same access checks run (keptPage).
  app.use('*', async (c, next) => {
    if (c.req.method === 'GET' && !(c.req.raw as KeptAsked)[KEPT_ASKED]) {
      const set = findSet(c);
      const keptPage = set ? keptPages.get(set) : undefined;
      if (keptPage) {
        await findCaller(c, async () => {});
        await findUser(c, async () => {});
        const kept = await keptPage(askOf(c));
        if (kept) {
          c.set('kitEncoded', true);
          // First of all handlers (no application around Kit's app): no header was set before.
          c.set('kitAnsweredFirst', c.req.routeIndex === 0);
          return respond(c, kept.body, kept.status, kept.headers);
        }
      }
    }
    await next();
  });
  app.use('*', findCaller);
  app.use('*', findUser);
  const compressor = compress();
  app.use('*', async (c, next) => {
    await next();
    // A cached page arrives encoded for this request already (see cachedVariant); reading its
    // headers back would cost more than sending it.
    if (c.get('kitEncoded')) return;
    await compressor(c, async () => {});
  });

  // The versioned schema path resolves whatever set serves the site; like every schema route it runs `web`.
  const [web] = resolveMiddleware(kit, ['web'], 'the schema routes');
  app.get('/schemas/3.x/:file', web!, (c) => serveSchema(c, c.req.param('file')!, requestOrigin(c, options), options));
  app.route(
    '/',
    wellKnownSkillsRoute({
      kit,
      viewerOf: viewerFor,
      origin: (c) => requestOrigin(c, options),
      originTrusted: (c) => originVouchedFor(c, options),
      ...(options.sets ? { sets: options.sets } : {}),
    }),
  );

  if (options.siteRoot !== false) {
    app.route(
      '/',
      siteRootRoutes({
        kit,
        viewerOf: viewerFor,
        origin: (c) => requestOrigin(c, options),
        originTrusted: (c) => originVouchedFor(c, options),
        ...(options.sets ? { sets: options.sets } : {}),
        ...(options.siteRoot ? { files: options.siteRoot } : {}),
      }),
    );
  }

  const sets = [...kit.sets.values()].filter((set) => !options.sets || options.sets.includes(set.key));
  // Longer prefixes first so `/docs/api` is not swallowed by `/docs`; a root-mounted set last.
  sets.sort((a, b) => normalizePrefix(b.config.route.prefix).length - normalizePrefix(a.config.route.prefix).length);
  const asker = askLoader(options, rateLimits);
  // Loaded in the background when a set turns Ask AI on, so pages know whether to offer it.
  if (sets.some((set) => set.config.ai.ask.enabled)) void asker.get();
  const keptPages = new Map<DocSet, (ask: PageAsk) => MaybePromise<PreparedResponse | null>>();
  for (const set of sets) {
    const mounted = setApp(set, options, rateLimits, assets, asker);
    keptPages.set(set, mounted.keptPage);
    app.route(normalizePrefix(set.config.route.prefix) || '/', mounted.app);
  }

  const setAt = (path: string, host: string | undefined) =>
    sets.find((candidate) => servesPath(candidate, path, host)) ?? null;
  const findSet = (c: Context) => setAt(c.req.path, requestHost(c));
  const findAddress = callerAddressOf(kit);
  earlyAnswers.set(app as unknown as Hono<never>, (request, incoming) => {
    if (request.method !== 'GET') return null;
    const path = getPath(request);
    const host = headerOf(request, incoming, 'host') ?? new URL(request.url).host;
    const set = setAt(path, host);
    const keptPage = set ? keptPages.get(set) : undefined;
    if (!keptPage) return null;
    const user = userOfRequest(kit, request);
    if (user instanceof Promise) {
      return user.then((known) => keptPage(new BareAsk(request, incoming, path, host, known, findAddress)));
    }
    return keptPage(new BareAsk(request, incoming, path, host, user, findAddress));
  });
  app.notFound(async (c) => {
    const set = findSet(c);
    if (!set) return c.text('Not found', 404);
    return notFound(c, set, options, await assets);
  });
  app.onError(async (error, c) => {
    if (isKitError(error, 'database.unavailable')) {
      const set = findSet(c);
      const accept = c.req.header('accept');
      const shape = wantsHtml(accept)
        ? 'html'
        : c.req.path.endsWith('.md') || prefersMarkdown(accept)
          ? 'markdown'
          : 'json';
      const stylesheet = set && shape === 'html' ? readerStylesheet(set, await assets) : null;
      return databaseUnavailableResponse(c, error, shape, stylesheet);
    }
    if (isRequestError(error)) {
      const status = error.code === 'rate_limited' ? 429 : error.code.endsWith('not_found') ? 404 : 400;
      // A browser asking for a page gets the 404 page, never a JSON error body.
      const set = status === 404 && wantsHtml(c.req.header('accept')) ? findSet(c) : null;
      if (set) {
        try {
          return await notFound(c, set, options, await assets);
        } catch (pageError) {
          console.error(pageError);
        }
      }
      return c.json({ error: error.code, message: error.message }, status);
    }
    console.error(error);
    return c.json({ error: 'internal', message: 'Something went wrong on the server.' }, 500);
  });
  // Kit's own routes: kept apart from the application's in route references.
  return markPackageRoutes(app, '@kit/http-hono');
}

function setApp(
  set: DocSet,
  options: KitAppOptions,
  rateLimits: RateLimitStore,
  assets: Promise<ReaderAssets>,
  asker: AskLoader,
) {
  const { kit } = options;
  const config = set.config;
  const app = new Hono<Env>();
  // A person who opens a page in a browser and is refused by the built-in `auth` gets the sign-in
  // page the `auth` access mode shows. Agents and API clients (no text/html in Accept, a `.md`
  // twin, which is never answered in HTML, or the `_kit` search and feedback APIs, which answer
  // JSON to whoever calls them) keep the JSON 401 with the bearer challenge.
  const apiPath = `${normalizePrefix(config.route.prefix)}/_kit/`;
  const pageGuards = {
    signIn: async (c: Context) =>
      wantsHtml(c.req.header('accept')) && !c.req.path.endsWith('.md') && !c.req.path.startsWith(apiPath)
        ? signInPage(c, readerStylesheet(set, await assets))
        : undefined,
  };
  const pageMiddleware = every(
    ...resolveMiddleware(kit, config.route.middleware, `sets.${set.key}.route.middleware`, pageGuards),
  );
  const mcpMiddleware = every(
    ...resolveMiddleware(kit, config.mcp.web.middleware, `sets.${set.key}.mcp.web.middleware`),
  );
  // `access.mode: auth`: a guest is asked to sign in (401) on every route of the set that shows
  // its content, as the pages do, never told "not found" by the search, feedback or agent files.
  const signInGuard: MiddlewareHandler<Env> = async (c, next) => {
    if (config.access.mode !== 'auth' || isSignedIn(currentUser(c))) return next();
    const path = c.req.path;
    if (path.startsWith(apiPath) || /\.(json|xml)$/.test(path)) return signInJson(c);
    if (/\.(md|txt)$/.test(path) || prefersMarkdown(c.req.header('accept'))) return signInMarkdown(c);
    return signInPage(c, readerStylesheet(set, await assets));
  };
  const mcpRule = parseRateLimit(config.mcp.web.rate_limit, 'mcp.web.rate_limit');
  const feedbackRule = parseRateLimit(config.feedback.rate_limit, 'feedback.rate_limit');
  const fileUrls = setFileUrls(set);
  const pageResponses = pageResponseCache(set);
  // Kept pages may be answered before the routes run (keptPage) when no middleware but the
  // built-in `web` stands before them.
  const keptPagesAnswerEarly = !middlewareDependsOnRequest(kit, config.route.middleware);
  const sendsWebHeaders = config.route.middleware.includes('web');

  // `route.domain`: a set bound to a domain answers nothing elsewhere.
  app.use('*', async (c, next) => {
    if (!domainMatches(set, requestHost(c))) return c.notFound();
    await next();
  });

  // Schemas run `web` whatever the set's own middleware says (spec: schema routes carry `web`).
  const schemaMiddleware = config.route.middleware.includes('web')
    ? pageMiddleware
    : every(
        ...resolveMiddleware(kit, ['web', ...config.route.middleware], `sets.${set.key}.route.middleware`, pageGuards),
      );
  app.get('/schemas/:file', schemaMiddleware, (c) =>
    serveSchema(c, c.req.param('file')!, requestOrigin(c, options), options),
  );

  const mcpPath = mcpEndpointPath('', config.mcp.web.path);
  const mcpRoute = `${normalizePrefix(config.route.prefix)}${mcpPath}`;
  // A page may live at the endpoint's path (Laravel's docs have `mcp`): a browser's GET (Accept names
  // text/html) or a Markdown request shows it. Every other GET goes on to the endpoint, which answers
  // 405 with `Allow: POST`: an MCP client that opens its event stream with GET and got the HTML page
  // instead would read it as an empty stream and reconnect forever.
  app.get(mcpPath, pageMiddleware, async (c, next) => {
    const accept = c.req.header('accept');
    if (!/\btext\/html\b/i.test(accept ?? '') && !prefersMarkdown(accept)) return next();
    const match = await set.resolveUrl(c.req.path, viewerFor(c));
    if (match.kind === 'page') return servePage(c);
    await next();
  });
  // The endpoint's Server Card (MCP Server Card draft: `<endpoint>/server-card`), listed by the
  // site's /.well-known/mcp catalog; what it lists is what this caller would be offered.
  app.get(`${mcpPath}/server-card`, pageMiddleware, mcpMiddleware, async (c) => {
    const viewer = viewerFor(c);
    const card = await serverCardOf(kit, set, viewer, requestOrigin(c, options));
    if (!card) {
      return c.json({ error: 'not_found', message: `The "${set.key}" docs publish no MCP server card here.` }, 404, {
        'Cache-Control': 'no-cache',
      });
    }
    return sendServerCard(c, card, isPrivateFor(set, c) || !originVouchedFor(c, options));
  });
  app.all(
    mcpPath,
    async (c, next) => {
      if (!config.mcp.web.enabled) {
        const { mcpErrorResponse } = await loadMcp();
        return mcpErrorResponse(
          404,
          `The "${set.key}" docs have no MCP endpoint here: mcp.web.enabled is off for this set.`,
        );
      }
      await next();
      // A refusal by `mcp.web.middleware` (a guard written for pages) still reaches an MCP client
      // as MCP refuses: a JSON-RPC error body, and the bearer challenge with Kit's realm.
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
    },
    mcpMiddleware,
    async (c) => {
      const { handleMcpHttpRequest, mcpErrorResponse } = await loadMcp();
      const verdict = await checkRateLimit(rateLimits, `mcp:${set.key}:${callerKey(c)}`, mcpRule);
      if (!verdict.allowed) {
        return mcpErrorResponse(
          429,
          `Too many requests: ${mcpRule.max} per ${describeWindow(mcpRule.windowMs)}. Retry after ${verdict.retryAfterSeconds} seconds.`,
          { 'Retry-After': String(verdict.retryAfterSeconds) },
        );
      }
      return handleMcpHttpRequest(c.req.raw, {
        kit,
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
    },
  );

  app.post('/_kit/feedback', pageMiddleware, signInGuard, async (c) => {
    if (!config.feedback.enabled) return c.notFound();
    const verdict = await checkRateLimit(rateLimits, `feedback:${set.key}:${callerKey(c)}`, feedbackRule);
    if (!verdict.allowed) {
      return c.json(
        {
          error: 'rate_limited',
          message: `Too much feedback at once. Retry after ${verdict.retryAfterSeconds} seconds.`,
        },
        429,
        { 'Retry-After': String(verdict.retryAfterSeconds) },
      );
    }
    const body = await readJson(c, FEEDBACK_MAX_BODY_BYTES);
    if (!body.ok) {
      // Past the limit the rest of the upload is not read: closing the connection stops it.
      const headers: Record<string, string> = body.status === 413 ? { Connection: 'close' } : {};
      return c.json({ error: 'argument.invalid', message: body.message }, body.status, headers);
    }
    const input = body.value as Record<string, unknown>;
    try {
      await set.submitFeedback(
        {
          path: String(input.path ?? ''),
          helpful: input.helpful as boolean,
          ...(typeof input.comment === 'string' && input.comment !== '' ? { comment: input.comment } : {}),
          ...(typeof input.version === 'string' ? { version: input.version } : {}),
          ...(typeof input.locale === 'string' ? { locale: input.locale } : {}),
        },
        viewerFor(c),
        'widget',
      );
    } catch (error) {
      if (isRequestError(error)) {
        const status = error.code === 'page.not_found' ? 404 : 400;
        return c.json({ error: error.code, message: error.message }, status);
      }
      throw error;
    }
    return c.json({ ok: true });
  });

  // Ask AI: checked and counted before any provider is called; the answer streams as server-sent
  // events (`Accept: text/event-stream`, what the reader UI sends), or arrives whole as JSON.
  app.post('/_kit/ask', pageMiddleware, signInGuard, async (c) => {
    const ask = config.ai.ask;
    if (!ask.enabled) {
      return c.json(
        { error: 'ask.disabled', message: `Ask AI is off for the "${set.key}" docs (ai.ask.enabled is false).` },
        404,
      );
    }
    const service = await asker.get();
    if (!service.ok) return c.json({ error: 'ask.unavailable', message: service.message }, 503);
    // Room for the longest question and history the limits allow, each character escaped in JSON.
    const maxBytes = 6 * (ask.max_question_length + ask.max_history_length) + 64 * ask.max_messages + 1024;
    const body = await readJson(c, maxBytes, {
      type: 'Send the question as JSON with Content-Type: application/json.',
      size: `The body is larger than ${maxBytes} bytes: the conversation is longer than ai.ask.max_question_length and ai.ask.max_history_length allow. Start a new conversation.`,
      shape: 'The body is not a JSON object like {"messages":[{"role":"user","content":"How do I retry jobs?"}]}.',
    });
    if (!body.ok) {
      const headers: Record<string, string> = body.status === 413 ? { Connection: 'close' } : {};
      return c.json({ error: 'ask.invalid', message: body.message }, body.status, headers);
    }
    const result = await service.ask.ask({
      set: set.key,
      viewer: viewerFor(c),
      caller: callerKey(c),
      body: body.value,
      signal: c.req.raw.signal,
      origin: requestOrigin(c, options),
    });
    if (!result.ok) {
      const headers: Record<string, string> =
        result.retryAfterSeconds !== undefined ? { 'Retry-After': String(result.retryAfterSeconds) } : {};
      return c.json(
        { error: result.code, message: result.message, ...(result.limit ? { limit: result.limit } : {}) },
        result.status,
        headers,
      );
    }
    if (!/\btext\/event-stream\b/i.test(c.req.header('accept') ?? '')) {
      // An agent without a stream reader gets the answer whole.
      let answer = '';
      for await (const event of result.events) {
        if (event.type === 'text') answer += event.delta;
        else if (event.type === 'error') return c.json({ error: event.code, message: event.message }, 502);
        else if (event.type === 'done') {
          const { type: _type, ...rest } = event;
          return c.json({ answer, ...rest }, 200, { 'Cache-Control': 'no-store' });
        }
      }
      return c.json({ error: 'ask.provider_failed', message: 'The answer ended early. Ask again.' }, 502);
    }
    // Sent as it is written: never compressed (which would hold text back) nor kept.
    c.set('kitEncoded', true);
    const encoder = new TextEncoder();
    const events = result.events[Symbol.asyncIterator]();
    // The reader may stop (or leave) while an event is on its way: nothing is written after that.
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let chunk: string | null;
        try {
          const next = await events.next();
          chunk = next.done ? null : `data: ${JSON.stringify(next.value)}\n\n`;
        } catch (error) {
          console.error(error);
          chunk = `data: ${JSON.stringify({ type: 'error', code: 'internal', message: 'Something went wrong on the server.' })}\n\n`;
          if (!cancelled) controller.enqueue(encoder.encode(chunk));
          chunk = null;
        }
        if (cancelled) return;
        if (chunk === null) controller.close();
        else controller.enqueue(encoder.encode(chunk));
      },
      async cancel() {
        cancelled = true;
        await events.return?.(undefined);
      },
    });
    return new Response(stream, {
      headers: {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        'X-Accel-Buffering': 'no',
      },
    });
  });

  app.get('/_kit/search', pageMiddleware, signInGuard, async (c) => {
    const limit = c.req.query('limit');
    const sections = c.req.query('sections');
    // A browser (a form sent without the script, the header's search link) gets the results page.
    const page = wantsHtml(c.req.header('accept'));
    try {
      if (page) return await searchPage(c, set, options, await assets, await fileUrls());
      const result = await set.search(
        {
          query: c.req.query('q') ?? '',
          ...(c.req.query('version') ? { version: c.req.query('version')! } : {}),
          ...(c.req.query('locale') ? { locale: c.req.query('locale')! } : {}),
          ...(limit !== undefined ? { limit: Number(limit) } : {}),
          ...(sections !== undefined ? { sections: Number(sections) } : {}),
        },
        viewerFor(c),
        'http',
      );
      return sendCached(c, JSON.stringify(result), {
        contentType: 'application/json; charset=utf-8',
        isPrivate: isPrivateFor(set, c),
        // Browsers get the results page at this URL: a cache must not hand them this JSON.
        headers: { Vary: PAGE_VARY },
      });
    } catch (error) {
      if (isRequestError(error))
        return c.json({ error: error.code, message: error.message }, error.code.endsWith('not_found') ? 404 : 400);
      throw error;
    }
  });

  app.get('/_kit/search-index/:version/:file', pageMiddleware, signInGuard, async (c) => {
    const locale = c.req.param('file')!.replace(/\.json$/, '');
    const index = await set
      .clientSearchIndex({ version: c.req.param('version')!, locale }, viewerFor(c))
      .catch((error: unknown) => (isRequestError(error) ? null : Promise.reject(error)));
    if (!index) return c.notFound();
    return sendCached(c, index.body, { contentType: index.contentType, isPrivate: isPrivateFor(set, c) });
  });

  // Drafts, history and restore for people `manageKit` allows; the reader's 404 for anyone else.
  app.use('/_kit/review/*', pageMiddleware);
  app.route(
    '/_kit/review',
    reviewScreen({ kit, set, viewerOf: viewerFor, stylesheet: async () => readerStylesheet(set, await assets) }),
  );

  app.get('/_kit/:file', async (c) => {
    const built = await assets;
    const file = c.req.param('file')!;
    const asset = [built.js, built.css, ...built.chunks, ...built.fonts].find((candidate) => candidate.name === file);
    if (!asset) return c.notFound();
    return sendCached(c, asset.body, {
      contentType: asset.contentType,
      isPrivate: false,
      headers: { 'Cache-Control': 'public, max-age=31536000, immutable' },
    });
  });

  app.get('/_kit/css/:hash/:file{.+}', pageMiddleware, async (c) => {
    const file = c.req.param('file')!;
    const manifest = await set.manifest();
    if (!manifest.assets.css.includes(file)) return c.notFound();
    const bytes = await set.source.readAsset(file);
    if (!bytes) return c.notFound();
    return sendCached(c, bytes, {
      contentType: 'text/css; charset=utf-8',
      isPrivate: false,
      headers: { 'Cache-Control': 'public, max-age=31536000, immutable' },
    });
  });

  // The logo and favicon the manifest names, at content-hashed URLs the reader pages write.
  app.get('/_kit/file/:hash/:name{.+}', pageMiddleware, async (c) => {
    const view = await set.manifestFile(c.req.param('name')!, viewerFor(c));
    if (!view) return c.notFound();
    const immutable = fileUrlHash(view.file.contentHash) === c.req.param('hash');
    return sendFile(c, view, { isPrivate: isPrivateFor(set, c), immutable });
  });

  app.use('*', pageMiddleware);
  app.use('*', signInGuard);
  app.route(
    '/',
    agentFileRoutes({
      kit,
      set,
      viewerOf: viewerFor,
      origin: (c) => requestOrigin(c, options),
      originTrusted: (c) => originVouchedFor(c, options),
    }),
  );

  app.get('*', async (c) => {
    // Files beside the pages (images, PDFs, downloads) answer at the page URLs of their folder.
    if (looksLikeFile(c.req.path)) {
      const view = await set.resolveFile(c.req.path, viewerFor(c));
      if (view) {
        const version = c.req.query('v');
        const immutable = version !== undefined && version === fileUrlHash(view.file.contentHash);
        return sendFile(c, view, { isPrivate: isPrivateFor(set, c), immutable });
      }
    }
    return servePage(c);
  });

  /** A page's key in the response cache: the origin its links carry, the representation, the path. */
  function pageVariant(ask: PageAsk, wantsMarkdown: boolean): string {
    return `${originOf(ask.url, options)}\u0000${wantsMarkdown ? 'md' : 'html'}\u0000${ask.path}`;
  }

  /**
   * Where a page request stands with the set's response cache: whether its response depends on
   * who asks, the key it is kept under (null when it is not kept: a cache-less set, or no page for
   * this viewer), the URL match when finding the key needed one, and the kept page when there is.
   * A guest's public page is found at once, without a promise.
   */
  function lookUpKept(ask: PageAsk, wantsMarkdown: boolean): KeptLookup | Promise<KeptLookup> {
    // The page's canonical URL carries the origin: a copy made for a forged Host is not shared.
    const isPrivate = !isSharedResponse(config.access.mode, ask.user) || !hostVouchedFor(ask.host, options);
    if (!pageResponses) return { isPrivate, cacheKey: null };
    const variant = pageVariant(ask, wantsMarkdown);
    // A public page is the same for every guest: answered before asking anything about the viewer.
    if (!isPrivate) return { isPrivate, cacheKey: variant, kept: pageResponses.get(variant) };
    return lookUpPrivate(pageResponses, ask, variant, wantsMarkdown);
  }

  /** {@link lookUpKept} for a response that depends on who asks: at once when nothing needs waiting for. */
  function lookUpPrivate(
    responses: PageResponseCache,
    ask: PageAsk,
    variant: string,
    wantsMarkdown: boolean,
  ): KeptLookup | Promise<KeptLookup> {
    const viewer = ask.viewer();
    const match = set.resolveUrl(ask.path, viewer);
    if (match instanceof Promise)
      return match.then((found) => keptUnder(responses, found, variant, wantsMarkdown, viewer));
    return keptUnder(responses, match, variant, wantsMarkdown, viewer);
  }

  /**
   * The kept response, if any, for where a private page request leads. What a signed-in reader (or
   * any reader of a non-public set) is shown depends on what they may see: kept per page and per
   * class of viewers seeing the same (see viewerClassOf). The Markdown twin is the page alone, the
   * same for everyone who may open it, so it needs no class and no promise.
   */
  function keptUnder(
    responses: PageResponseCache,
    match: UrlMatch,
    variant: string,
    wantsMarkdown: boolean,
    viewer: Viewer,
  ): KeptLookup | Promise<KeptLookup> {
    if (match.kind !== 'page') return { isPrivate: true, cacheKey: null, match };
    if (match.markdown || wantsMarkdown) return keptAt(responses, privateKeyOf(variant, match.ref, ''), match);
    return viewerClassOf(set, viewer, match.ref).then((viewerClass) =>
      keptAt(responses, privateKeyOf(variant, match.ref, viewerClass), match),
    );
  }

  /**
   * The kept response to a page request, answered before any route runs (see createKitApp), or
   * null when the page route must run: the same lookup as {@link servePage}. Only for a set whose
   * page middleware is at most the built-in `web`, whose headers it adds; never for the MCP
   * endpoint's path, where the Accept header picks the route, nor for part of a Markdown twin.
   */
  function keptPage(ask: PageAsk): MaybePromise<PreparedResponse | null> {
    if (!pageResponses || !keptPagesAnswerEarly) return null;
    const { path } = ask;
    if (path === mcpRoute || path.startsWith(`${mcpRoute}/`)) return null;
    if (config.access.mode === 'auth' && !isSignedIn(ask.user)) return null;
    const wantsMarkdown = prefersMarkdown(ask.header('accept'));
    if ((wantsMarkdown || path.endsWith('.md')) && asksForMarkdownPart(ask.url)) return null;
    const lookup = lookUpKept(ask, wantsMarkdown);
    return lookup instanceof Promise ? lookup.then((found) => sendKept(found, ask)) : sendKept(lookup, ask);
  }

  function sendKept({ isPrivate, kept }: KeptLookup, ask: PageAsk): PreparedResponse | null {
    if (!kept) return null;
    const extraHeaders = sendsWebHeaders ? WEB_HEADERS : undefined;
    return storedResponse(kept, isPrivate, ask.header('accept-encoding'), ask.header('if-none-match'), extraHeaders);
  }

  async function servePage(c: Context<Env>): Promise<Response> {
    const viewer = viewerFor(c);
    const wantsMarkdown = prefersMarkdown(c.req.header('accept'));
    // `?section=`, `?max_chars=` and `?cursor=` ask the Markdown twin for part of the page: built
    // for each request, never kept under the page's address.
    const readQuery = markdownReadQuery(c);
    if (readQuery && (wantsMarkdown || c.req.path.endsWith('.md'))) return serveMarkdownPart(c, readQuery);
    const generation = pageResponses?.generation() ?? 0;
    const { isPrivate, cacheKey, match: matched, kept } = await lookUpKept(askOf(c), wantsMarkdown);
    if (kept) return sendStored(c, kept, isPrivate);
    const send = (body: string, contentType: string, headers: Record<string, string>) => {
      if (!cacheKey) return sendCached(c, body, { contentType, isPrivate, headers });
      return sendStored(
        c,
        pageResponses!.set(cacheKey, generation, { body: encoder.encode(body), contentType, headers }),
        isPrivate,
      );
    };

    const match = matched ?? (await set.resolveUrl(c.req.path, viewer));
    if (match.kind === 'redirect') return redirect(c, set, match.location, match.status);
    if (match.kind === 'none') return notFound(c, set, options, await assets);
    const page = await set.getPage(match.ref, viewer);
    if (!page) return notFound(c, set, options, await assets);
    const llmsTxt = await llmsTxtUrl(set, page);
    const link = agentLinkHeader({ markdownUrl: page.markdownUrl, llmsTxtUrl: llmsTxt });
    if (match.markdown || wantsMarkdown) {
      // The whole twin, with a note on top when the code it documents changed after it, and the
      // set's index named under its title, as the HTML page does at its top.
      const read = await set.readPage({ ...match.ref, staleness: true }, viewer);
      const markdown = llmsTxt ? withLlmsTxtDirective(read.text, `${requestOrigin(c, options)}${llmsTxt}`) : read.text;
      if (page.provisional) {
        return sendCached(c, markdown, {
          contentType: 'text/markdown; charset=utf-8',
          isPrivate,
          headers: { Vary: PAGE_VARY, Link: link, 'Cache-Control': 'no-store' },
        });
      }
      return send(markdown, 'text/markdown; charset=utf-8', { Vary: PAGE_VARY, Link: link });
    }
    const view = await readerPageView(await viewContext(c, set, options, await assets, await fileUrls(), asker), page);
    let html = renderReaderPage(view);
    if (options.injectHtml) html = html.replace('</body>', `${options.injectHtml}</body>`);
    if (page.highlightPending || page.provisional) {
      // Code shown plain while its grammar loads, or a page a render deadline cut short: never
      // kept, here or by a browser or proxy.
      return sendCached(c, html, {
        contentType: 'text/html; charset=utf-8',
        isPrivate,
        headers: { Vary: PAGE_VARY, Link: link, 'Cache-Control': 'no-store' },
      });
    }
    return send(html, 'text/html; charset=utf-8', { Vary: PAGE_VARY, Link: link });
  }

  /** Part of a page's Markdown twin, as `read_page` would answer the same request. */
  async function serveMarkdownPart(c: Context<Env>, query: MarkdownReadQuery): Promise<Response> {
    const viewer = viewerFor(c);
    const match = await set.resolveUrl(c.req.path, viewer);
    if (match.kind === 'redirect') return redirect(c, set, match.location, match.status);
    if (match.kind === 'none') return notFound(c, set, options, await assets);
    const isPrivate = isPrivateFor(set, c) || !originVouchedFor(c, options);
    try {
      const read = await set.readPage({ ...match.ref, ...query, staleness: true }, viewer);
      return sendCached(c, read.text, {
        contentType: 'text/markdown; charset=utf-8',
        isPrivate,
        headers: { Vary: PAGE_VARY },
      });
    } catch (error) {
      if (!isRequestError(error)) throw error;
      const status = error.code.endsWith('not_found') ? 404 : error.code === 'content.conflict' ? 409 : 400;
      return c.body(`# ${error.code}\n\n${error.message}\n`, status, {
        'Content-Type': 'text/markdown; charset=utf-8',
        'Cache-Control': isPrivate ? 'private, no-cache' : 'no-cache',
      });
    }
  }

  return { app, keptPage };
}

/** What a Markdown twin's query asks for, in `readPage`'s terms. */
type MarkdownReadQuery = Pick<ReadPageInput, 'section' | 'subsections' | 'maxChars' | 'cursor'>;

/**
 * The read a Markdown twin's query asks for, or null when it names none of `section` (repeat it
 * for several), `subsections`, `max_chars` and `cursor`: the whole twin. Any of them makes the
 * read budgeted, `max_chars` defaulting to the set's `agents.markdown_budget`, as for `read_page`.
 * Values are checked where `read_page`'s are, in core.
 */
function markdownReadQuery(c: Context): MarkdownReadQuery | null {
  if (!asksForMarkdownPart(c.req.url)) return null;
  const sections = c.req.queries('section') ?? [];
  const subsections = c.req.query('subsections');
  const maxChars = c.req.query('max_chars');
  const cursor = c.req.query('cursor');
  const flag = subsections?.trim().toLowerCase();
  return {
    ...(sections.length > 0 ? { section: sections } : {}),
    ...(flag === undefined ? {} : { subsections: !(flag === 'false' || flag === '0' || flag === 'no') }),
    maxChars:
      maxChars === undefined ? 'budget' : /^\d+$/.test(maxChars.trim()) ? Number(maxChars) : (maxChars as never),
    ...(cursor !== undefined ? { cursor } : {}),
  };
}

/**
 * A kept page, encoded as the request accepts; `isPrivate` for a page kept per class of viewers;
 * `extraHeaders` for what a middleware that has not run would have added (the built-in `web`).
 */
function sendStored(c: Context<Env>, entry: CachedPage, isPrivate: boolean): Response {
  c.set('kitEncoded', true);
  const stored = storedResponse(entry, isPrivate, c.req.header('accept-encoding'), c.req.header('if-none-match'));
  return respond(c, stored.body, stored.status, stored.headers);
}

/** The response {@link sendStored} sends, for a request's Accept-Encoding and If-None-Match. */
function storedResponse(
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
  // Merged for the first sending only: later ones take the headers sendCached kept in `sent`.
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
 * A redirect of the page routes. The request's query string goes on to the new address (before
 * any `#fragment` of the target). Where the target depends on who asks (a signed-in reader, a
 * non-public set) the redirect is private, so a shared cache never hands staff's redirect into a
 * private version to a guest; a guest's is public but revalidated, as pages are.
 */
function redirect(c: Context, set: DocSet, location: string, status: 301 | 302 | 307 | 308): Response {
  c.header('Cache-Control', isPrivateFor(set, c) ? 'private, no-cache' : 'public, max-age=0, must-revalidate');
  return c.redirect(withQuery(location, new URL(c.req.url).search), status);
}

/**
 * `location` with a request's query string (`?tab=1`) added: after a query the target already has
 * (joined by `&`) and before its `#fragment`.
 *
 * @example
 * withQuery('/docs/queues#retries', '?tab=1'); // '/docs/queues?tab=1#retries'
 */
export function withQuery(location: string, search: string): string {
  const query = search.replace(/^\?/, '');
  if (query === '') return location;
  const hash = location.indexOf('#');
  const target = hash === -1 ? location : location.slice(0, hash);
  const fragment = hash === -1 ? '' : location.slice(hash);
  const joiner = !target.includes('?') ? '?' : target.endsWith('?') || target.endsWith('&') ? '' : '&';
  return `${target}${joiner}${query}${fragment}`;
}

/**
 * Not found, in HTML or Markdown as asked. A guest of an `auth` set is asked to sign in instead
 * (401): the set exists but needs a signed-in reader. Whatever lists the viewer's navigation is
 * private to them.
 */
async function notFound(c: Context, set: DocSet, options: KitAppOptions, assets: ReaderAssets): Promise<Response> {
  const cacheControl = isPrivateFor(set, c) ? 'private, no-cache' : 'no-cache';
  const markdown = c.req.path.endsWith('.md') || prefersMarkdown(c.req.header('accept'));
  if (set.config.access.mode === 'auth' && !isSignedIn(currentUser(c))) {
    return markdown ? signInMarkdown(c) : signInPage(c, readerStylesheet(set, assets));
  }
  if (markdown) {
    return c.body(
      '# Not found\n\nNo page lives at this address. Search the docs or read llms.txt for the page list.\n',
      404,
      {
        'Content-Type': 'text/markdown; charset=utf-8',
        'Cache-Control': cacheControl,
      },
    );
  }
  const context = await viewContext(c, set, options, assets, await setFileUrls(set)());
  const html = renderNotFoundPage(await readerNotFoundView(context, c.req.path));
  return c.body(html, 404, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': cacheControl });
}

/**
 * The server-rendered search page: the query searched in the version and locale the form sent
 * (else the set's defaults), for this viewer, as `set.search` filters it. An empty query shows the
 * form alone. Private to a viewer who may see private pages, like the JSON answer.
 */
async function searchPage(
  c: Context,
  set: DocSet,
  options: KitAppOptions,
  assets: ReaderAssets,
  files: SetFileUrls,
): Promise<Response> {
  const query = (c.req.query('q') ?? '').slice(0, 500);
  const version = c.req.query('version') || undefined;
  const locales = await set.locales();
  const locale =
    locales.find((candidate) => candidate.code === c.req.query('locale'))?.code ??
    (locales.find((candidate) => candidate.default) ?? locales[0])?.code ??
    'en';
  const result = query.trim()
    ? await set.search({ query, ...(version ? { version } : {}), locale, limit: 20, sections: 3 }, viewerFor(c), 'http')
    : null;
  const versions = await set.versions(viewerFor(c));
  const shownVersion =
    result?.version ??
    versions.find((candidate) => candidate.id === version)?.id ??
    (versions.find((candidate) => candidate.default) ?? versions[0])?.id;
  if (!shownVersion) return notFound(c, set, options, assets);
  const context = await viewContext(c, set, options, assets, files);
  const view = await readerSearchView(
    context,
    { version: shownVersion, locale },
    query,
    // Each page once, its best section first and its other matching sections under it.
    (result?.results ?? []).flatMap((hit) => [
      { title: hit.title, url: hit.url, heading: hit.heading, snippet: hit.snippet },
      ...(hit.sections ?? []).map((section) => ({
        title: hit.title,
        url: section.url,
        heading: section.heading,
        snippet: section.snippet,
      })),
    ]),
  );
  return c.body(renderSearchPage(view), 200, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': isPrivateFor(set, c) ? 'private, no-cache' : 'no-cache',
    Vary: PAGE_VARY,
  });
}

/** The URL of the reader stylesheet under the set's prefix. */
function readerStylesheet(set: DocSet, assets: ReaderAssets): string {
  return `${normalizePrefix(set.config.route.prefix)}/_kit/${assets.css.name}`;
}

async function viewContext(
  c: Context,
  set: DocSet,
  options: KitAppOptions,
  assets: ReaderAssets,
  files: SetFileUrls,
  asker?: AskLoader,
): Promise<ViewContext> {
  const base = normalizePrefix(set.config.route.prefix);
  const askAvailable = set.config.ai.ask.enabled && asker ? (await asker.get()).ok : false;
  return {
    askAvailable,
    kit: options.kit,
    set,
    viewer: viewerFor(c),
    base,
    origin: requestOrigin(c, options),
    assets: { js: `${base}/_kit/${assets.js.name}`, css: readerStylesheet(set, assets) },
    stylesheets: files.stylesheets,
    branding: { ...(files.logo ? { logo: files.logo } : {}), ...(files.favicon ? { favicon: files.favicon } : {}) },
  };
}

let mcpModule: Promise<typeof import('@kit/mcp')> | undefined;
/** The MCP server and its SDK load on the first MCP request, so a reader's first page never waits for them. */
function loadMcp(): Promise<typeof import('@kit/mcp')> {
  mcpModule ??= import('@kit/mcp');
  return mcpModule;
}

function loadAssets(cacheDir: string | null): Promise<ReaderAssets> {
  return readerAssets({
    clientSearch: { module: '@kit/search/client', resolveDir: new URL('.', import.meta.url).pathname },
    ...(cacheDir ? { cacheDir } : {}),
  });
}

async function llmsTxtUrl(set: DocSet, page: PageView): Promise<string | undefined> {
  if (!set.config.agents.llms_txt) return undefined;
  const manifest = await set.manifest();
  const home = await set.pageUrl({ version: page.ref.version, locale: page.ref.locale, path: manifest.landing });
  return `${home === '/' ? '' : home}/llms.txt`;
}

function serveSchema(c: Context, file: string, origin: string, options: KitAppOptions): Response {
  const name = schemaOfFile(file);
  if (!name) return c.notFound() as Response;
  const body = JSON.stringify(rebaseSchema(name, `${origin}/schemas/3.x/`), null, 2);
  return sendCached(c, body, {
    contentType: 'application/schema+json',
    isPrivate: !originVouchedFor(c, options),
    headers: SCHEMA_HEADERS,
  });
}

/**
 * The schema a served file name stands for: its interface name (`larecipe.json`) or the file name
 * of its `$id` (`kit.json`), so the `$id` written into manifests resolves too.
 */
function schemaOfFile(file: string): SchemaName | null {
  if (!file.endsWith('.json')) return null;
  return (
    schemaNames.find((name) => file === `${name}.json` || String(schemas[name].$id ?? '').endsWith(`/${file}`)) ?? null
  );
}

/** The viewer of a request: the resolved user and the caller's address. */
export function viewerFor(c: Context): Viewer {
  return { user: currentUser(c), ip: clientIp(c) };
}

/**
 * What finding a kept page reads of a request: from Hono's context inside Kit's app (askOf), or
 * straight from the incoming message before any application runs (keptPagesFirst).
 */
interface PageAsk {
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

function askOf(c: Context): PageAsk {
  return {
    path: c.req.path,
    url: c.req.url,
    host: requestHost(c),
    header: (name) => c.req.header(name),
    user: currentUser(c),
    viewer: () => viewerFor(c),
  };
}

/** A private page request's place in the response cache, and what is kept there. */
function keptAt(responses: PageResponseCache, cacheKey: string, match: UrlMatch): KeptLookup {
  return { isPrivate: true, cacheKey, match, kept: responses.get(cacheKey) };
}

/** A signed-in reader's (or a non-public set's) page in the response cache, per class of viewers seeing the same. */
function privateKeyOf(variant: string, ref: PageRef, viewerClass: string): string {
  return `${variant}\u0000private\u0000${ref.version}\u0000${ref.locale}\u0000${ref.path}\u0000${viewerClass}`;
}

/** A request header by its lower-case name: from Node's incoming message when there is one. */
function headerOf(request: Request, incoming: IncomingMessage | undefined, name: string): string | undefined {
  return incoming ? (incoming.headers[name] as string | undefined) : (request.headers.get(name) ?? undefined);
}

/**
 * A bare request as a {@link PageAsk} (keptPagesFirst): a class, so that asking makes no closure
 * per request.
 */
class BareAsk implements PageAsk {
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

/** True when a URL's query names part of a Markdown twin (see markdownReadQuery). */
function asksForMarkdownPart(url: string): boolean {
  if (!url.includes('?')) return false;
  const query = new URL(url).searchParams;
  return query.has('section') || query.has('subsections') || query.has('max_chars') || query.has('cursor');
}

/** How each app createKitApp made answers a kept page from a bare request (see keptPagesFirst). */
const earlyAnswers = new WeakMap<
  Hono<never>,
  (request: Request, incoming: IncomingMessage | undefined) => MaybePromise<PreparedResponse | null>
>();

type MaybePromise<T> = T | Promise<T>;

/** Marks a request keptPagesFirst looked up and found nothing kept for. */
const KEPT_ASKED = Symbol('kit.keptAsked');
type KeptAsked = Request & { [KEPT_ASKED]?: true };

/** Where a page request stands with its set's response cache (see lookUpKept). */
interface KeptLookup {
  isPrivate: boolean;
  cacheKey: string | null;
  match?: UrlMatch;
  kept?: CachedPage;
}

/**
 * A `fetch` handler that answers the pages `kitApp` keeps before `fetch` runs at all, and hands
 * every other request to `fetch`: `kitApp` is what {@link createKitApp} made, and `fetch` is the
 * application it is mounted in (or `kitApp.fetch`). Kit's app answers kept pages ahead of its own
 * routes already; this skips the application's routing and Hono's context as well, which cost a
 * small kept page (a `.md` twin) about as much as sending it. The same checks run: `resolveUser`
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
  kitApp: Hono<Env>,
  fetch: (request: Request, env: Bindings) => Response | Promise<Response>,
): (request: Request, env: Bindings) => Response | Promise<Response> {
  const answer = earlyAnswers.get(kitApp as unknown as Hono<never>);
  if (!answer) throw new TypeError('keptPagesFirst takes the app createKitApp made.');
  // A failing `resolveUser` or source is the application's to answer, as on any other request.
  const send = (kept: PreparedResponse | null, request: Request, env: Bindings) => {
    if (kept) return new Response(kept.body, { status: kept.status, headers: kept.headers });
    // Looked up already: Kit's own early answer (createKitApp) would only ask again.
    (request as KeptAsked)[KEPT_ASKED] = true;
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

/** A response depends on who asks unless the set is public and the reader is a guest. */
function isPrivateFor(set: DocSet, c: Context): boolean {
  return !isSharedResponse(set.config.access.mode, currentUser(c));
}

/** Rate limits count per caller: the user when signed in, else the address. */
function callerKey(c: Context): string {
  const user = currentUser(c) as { id?: unknown } | null;
  if (user === null) return `ip:${clientIp(c)}`;
  if (typeof user === 'object' && user.id !== undefined) return `user:${String(user.id)}`;
  return `user:${createHash('sha256').update(JSON.stringify(user)).digest('hex').slice(0, 16)}`;
}

function describeWindow(windowMs: number): string {
  const minutes = windowMs / 60_000;
  return minutes === 1 ? 'minute' : `${minutes} minutes`;
}

function requestOrigin(c: Context, options: KitAppOptions): string {
  return originOf(c.req.url, options);
}

/** The origin of an absolute request URL, or the configured `origin`. */
function originOf(url: string, options: KitAppOptions): string {
  if (options.origin) return options.origin.replace(/\/+$/, '');
  // A request URL is absolute and already normalized: its origin ends where its path begins.
  const pathStart = url.indexOf('/', url.indexOf('//') + 2);
  return pathStart === -1 ? url : url.slice(0, pathStart);
}

/**
 * True when the origin {@link requestOrigin} writes is vouched for by configuration, not only by the
 * Host the request sent: a configured `origin`, a Host among `allowedHosts` or equal to a set's
 * `route.domain`, or (with none of these configured) a loopback name. Only then may a response
 * carrying it be shared with other callers.
 */
function originVouchedFor(c: Context, options: KitAppOptions): boolean {
  return hostVouchedFor(requestHost(c), options);
}

/** {@link originVouchedFor} for the Host a request sent. */
function hostVouchedFor(host: string, options: KitAppOptions): boolean {
  if (options.origin) return true;
  let vouched = vouchedHosts.get(options);
  if (!vouched) {
    const domains = [...options.kit.sets.values()].flatMap((set) => set.config.route.domain ?? []);
    vouched = { hosts: options.allowedHosts ?? (domains.length > 0 ? domains : LOOPBACK_HOSTS), answers: new Map() };
    vouchedHosts.set(options, vouched);
  }
  // Remembered per Host for the few a server sees; any Host beyond them is checked every time.
  let answer = vouched.answers.get(host);
  if (answer === undefined) {
    answer = isAllowedHost(host, vouched.hosts);
    if (vouched.answers.size < 64) vouched.answers.set(host, answer);
  }
  return answer;
}

/** The hosts {@link hostVouchedFor} accepts for each app's options, and its answers so far. */
const vouchedHosts = new WeakMap<KitAppOptions, { hosts: readonly string[]; answers: Map<string, boolean> }>();

function servesPath(set: DocSet, path: string, host: string | undefined): boolean {
  if (!domainMatches(set, host)) return false;
  let base = setBases.get(set);
  if (base === undefined) {
    base = normalizePrefix(set.config.route.prefix);
    setBases.set(set, base);
  }
  return base === '' || path === base || path.startsWith(`${base}/`);
}
/** Each set's URL prefix as servesPath compares it, asked of every request. */
const setBases = new WeakMap<DocSet, string>();

/**
 * True when the Accept header asks for Markdown at least as much as HTML (agents send
 * `Accept: text/markdown`); browsers, which never name text/markdown, get HTML.
 */
export function prefersMarkdown(accept: string | undefined): boolean {
  if (!accept) return false;
  const weights = new Map<string, number>();
  for (const part of accept.split(',')) {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    weights.set(type!.trim(), q ? Number(q.slice(2)) || 0 : 1);
  }
  const markdown = weights.get('text/markdown') ?? weights.get('text/x-markdown');
  if (markdown === undefined || markdown === 0) return false;
  return markdown >= (weights.get('text/html') ?? 0);
}

/** A browser's page request: Accept names text/html and does not prefer Markdown. */
function wantsHtml(accept: string | undefined): boolean {
  return /\btext\/html\b/i.test(accept ?? '') && !prefersMarkdown(accept);
}

/** What {@link readJson} says about a body it refuses. */
interface BodyMessages {
  type: string;
  size: string;
  shape: string;
}

const FEEDBACK_BODY: BodyMessages = {
  type: 'Send the feedback as JSON with Content-Type: application/json.',
  size: `The body is larger than ${FEEDBACK_MAX_BODY_BYTES} bytes; keep comments under 2000 characters.`,
  shape: 'The body is not a JSON object like {"path":"intro","helpful":true}.',
};

async function readJson(
  c: Context,
  maxBytes: number,
  messages: BodyMessages = FEEDBACK_BODY,
): Promise<{ ok: true; value: unknown } | { ok: false; status: 400 | 413 | 415; message: string }> {
  if (!(c.req.header('content-type') ?? '').includes('application/json')) {
    return { ok: false, status: 415, message: messages.type };
  }
  const body = await readBoundedText(c.req.raw, maxBytes);
  if (!body.ok) return { ok: false, status: 413, message: messages.size };
  try {
    const value = JSON.parse(body.text) as unknown;
    if (!value || typeof value !== 'object') throw new KitError('argument.invalid', 'not an object');
    return { ok: true, value };
  } catch {
    return { ok: false, status: 400, message: messages.shape };
  }
}

/** The Ask AI service of an app, loaded with `@kit/ai` on the first question. */
interface AskLoader {
  get(): Promise<{ ok: true; ask: import('@kit/ai').AskService } | { ok: false; message: string }>;
}

/** The command that installs Ask AI with its default provider (kept equal to `ASK_INSTALL_COMMAND`). */
const ASK_INSTALL = 'npm install @kit/ai ai @ai-sdk/openai';

function askLoader(options: KitAppOptions, store: RateLimitStore): AskLoader {
  let loaded: ReturnType<AskLoader['get']> | undefined;
  return {
    get() {
      loaded ??= loadOptionalPeer(() => import('@kit/ai'), '@kit/ai', 'Ask AI').then(
        ({ createAsk }) => ({ ok: true as const, ask: createAsk({ ...options.ask, kit: options.kit, store }) }),
        (error: unknown) => {
          const message = `Ask AI needs the optional package @kit/ai, which is not installed on this server. Install it (${ASK_INSTALL}) and restart.`;
          console.warn(`[kit] ${message} (${(error as Error).message})`);
          return { ok: false as const, message };
        },
      );
      return loaded;
    },
  };
}

export type { MiddlewareHandler };
