import type { DocSet, RateLimitStore } from '@kit/core';
import type { ReaderAssets } from '@kit/render/assets';
import { Hono } from 'hono';
import { agentFileRoutes } from '../agent-files/index.js';
import { domainMatches, type KitEnv } from '../middleware.js';
import type { KitAppOptions } from '../options.js';
import type { SetPageCache } from '../page-cache.js';
import { viewerFor } from '../request/caller.js';
import { originVouchedFor, requestHost, requestOrigin } from '../request/origin.js';
import { reviewScreen } from '../review-screen.js';
import { setFileUrls } from '../static-files.js';
import { type AskLoader, askAiRoute } from './ask-ai.js';
import { assetRoutes } from './assets.js';
import { feedbackRoute } from './feedback.js';
import { setGuards } from './guards.js';
import { mcpRoutes } from './mcp.js';
import { navRoutes } from './nav.js';
import { pageRoutes } from './pages.js';
import { readerStylesheet } from './reader-context.js';
import { serveSchema } from './schemas.js';
import { searchRoutes } from './search.js';

/** What the app gives each set's routes. */
export interface SetAppParts {
  options: KitAppOptions;
  rateLimits: RateLimitStore;
  assets: Promise<ReaderAssets>;
  asker: AskLoader;
  pageCache: SetPageCache;
}

/**
 * The routes of one set, relative to its `route.prefix`, in the order they match: domain check,
 * schemas, the MCP endpoint, `/_kit/*` (feedback, Ask AI, search, navigation, review, assets), then the set's
 * `route.middleware` and the sign-in guard before the agent files and the pages.
 */
export function setApp(set: DocSet, { options, rateLimits, assets, asker, pageCache }: SetAppParts): Hono<KitEnv> {
  const { kit } = options;
  const app = new Hono<KitEnv>();
  const stylesheet = async () => readerStylesheet(set, await assets);
  const guards = setGuards(kit, set, stylesheet);
  const fileUrls = setFileUrls(set);
  const pages = pageRoutes({ set, options, assets, fileUrls, asker, pageCache });

  // `route.domain`: a set bound to a domain answers nothing elsewhere.
  app.use('*', async (c, next) => {
    if (!domainMatches(set, requestHost(c))) return c.notFound();
    await next();
  });
  // Schemas run `web` whatever the set's own middleware says (spec: schema routes carry `web`).
  app.get('/schemas/:file', guards.schema, (c) => serveSchema(c, options));
  mcpRoutes(app, { set, options, rateLimits, guards, servePage: pages.servePage });
  feedbackRoute(app, { set, rateLimits, guards });
  askAiRoute(app, { set, options, asker, guards });
  searchRoutes(app, { set, options, assets, fileUrls, guards });
  navRoutes(app, { set, options, assets, fileUrls, guards });
  // Drafts, history and restore for people `manageKit` allows; the reader's 404 for anyone else.
  app.use('/_kit/review/*', guards.page);
  app.route('/_kit/review', reviewScreen({ kit, set, viewerOf: viewerFor, stylesheet }));
  assetRoutes(app, { set, assets, guards });

  app.use('*', guards.page);
  app.use('*', guards.signIn);
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
  app.get('*', pages.serveAny);
  return app;
}
