import { createMemoryRateLimitStore, type DocSet, isKitError, isRequestError, type Kit } from '@kit/core';
import { normalizePrefix } from '@kit/core/internal';
import { projectCacheDir } from '@kit/core/node';
import type { ReaderAssets } from '@kit/render/assets';
import { type Context, type ErrorHandler, Hono, type MiddlewareHandler } from 'hono';
import { compress } from 'hono/compress';
import { wellKnownSkillsRoute } from './agent-files/index.js';
import { siteRootRoutes } from './agent-files/site-root.js';
import { callerAddress, domainMatches, type KitEnv, resolveMiddleware, userResolution } from './middleware.js';
import type { KitAppOptions } from './options.js';
import { appPageCache } from './page-cache.js';
import { markPackageRoutes } from './references.js';
import { viewerFor } from './request/caller.js';
import { prefersMarkdown, wantsHtml } from './request/negotiation.js';
import { originVouchedFor, requestHost, requestOrigin } from './request/origin.js';
import { askLoader } from './routes/ask-ai.js';
import { loadAssets, notFound, readerStylesheet } from './routes/reader-context.js';
import { serveSchema } from './routes/schemas.js';
import { setApp } from './routes/set-app.js';
import { databaseUnavailableResponse } from './unavailable.js';

export type { KitAppOptions };

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
export function createKitApp(options: KitAppOptions): Hono<KitEnv> {
  const { kit } = options;
  const rateLimits = options.rateLimitStore ?? createMemoryRateLimitStore();
  const app = new Hono<KitEnv>();
  const cacheDir = options.cacheDir === undefined ? projectCacheDir(kit.config.root) : options.cacheDir;
  const assets = loadAssets(cacheDir);
  const sets = servedSets(kit, options.sets);
  const setAt = (path: string, host: string | undefined) =>
    sets.find((candidate) => servesPath(candidate, path, host)) ?? null;
  const findSet = (c: Context) => setAt(c.req.path, requestHost(c));
  const pageCache = appPageCache(options, setAt);

  app.use('*', pageCache.answerFirst);
  app.use('*', callerAddress(kit));
  app.use('*', userResolution(kit));
  app.use('*', compressUnencoded());
  siteRoutes(app, options);

  const asker = askLoader(options, rateLimits);
  // Loaded in the background when a set turns Ask AI on, so pages know whether to offer it.
  if (sets.some((set) => set.config.ai.ask.enabled)) void asker.get();
  for (const set of sets) {
    const routes = setApp(set, { options, rateLimits, assets, asker, pageCache: pageCache.forSet(set) });
    app.route(normalizePrefix(set.config.route.prefix) || '/', routes);
  }
  pageCache.answerEarlyFor(app);
  app.notFound(async (c) => {
    const set = findSet(c);
    if (!set) return c.text('Not found', 404);
    return notFound(c, set, options, await assets);
  });
  app.onError(errorHandler(options, findSet, assets));
  // Kit's own routes: kept apart from the application's in route references.
  return markPackageRoutes(app, '@kit/http-hono');
}

/** The sets an app serves, longer prefixes first so `/docs/api` is not swallowed by `/docs`; a root-mounted set last. */
function servedSets(kit: Kit, only: string[] | undefined): DocSet[] {
  const sets = [...kit.sets.values()].filter((set) => !only || only.includes(set.key));
  sets.sort((a, b) => normalizePrefix(b.config.route.prefix).length - normalizePrefix(a.config.route.prefix).length);
  return sets;
}

/** Compression for every response not already encoded for this request (a cached page, Ask AI's stream). */
function compressUnencoded(): MiddlewareHandler<KitEnv> {
  const compressor = compress();
  return async (c, next) => {
    await next();
    // A cached page arrives encoded for this request already (see cachedVariant); reading its
    // headers back would cost more than sending it.
    if (c.get('kitEncoded')) return;
    await compressor(c, async () => {});
  };
}

/** The routes at the site root: the versioned schema path, the agent-skills index, and the discovery files. */
function siteRoutes(app: Hono<KitEnv>, options: KitAppOptions): void {
  const { kit } = options;
  // The versioned schema path resolves whatever set serves the site; like every schema route it runs `web`.
  const [web] = resolveMiddleware(kit, ['web'], 'the schema routes');
  app.get('/schemas/3.x/:file', web!, (c) => serveSchema(c, options));
  const root = {
    kit,
    viewerOf: viewerFor,
    origin: (c: Context) => requestOrigin(c, options),
    originTrusted: (c: Context) => originVouchedFor(c, options),
    ...(options.sets ? { sets: options.sets } : {}),
  };
  app.route('/', wellKnownSkillsRoute(root));
  if (options.siteRoot !== false) {
    app.route('/', siteRootRoutes({ ...root, ...(options.siteRoot ? { files: options.siteRoot } : {}) }));
  }
}

/**
 * Errors as statuses: a database that does not answer is a 503 in the shape asked for; a request
 * error is 429, 404 (the 404 page for a browser) or 400; anything else is a logged 500.
 */
function errorHandler(
  options: KitAppOptions,
  findSet: (c: Context) => DocSet | null,
  assets: Promise<ReaderAssets>,
): ErrorHandler<KitEnv> {
  return async (error, c) => {
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
  };
}

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

export type { MiddlewareHandler };
