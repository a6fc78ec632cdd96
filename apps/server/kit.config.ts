import { resolve } from 'node:path';
import { defineConfig, eventTypes, type KitEnv, registerReferences } from '@kit/core';
import { honoRoutes } from '@kit/http-hono';
import { drizzleModels } from '@kit/source-db';
import { APP_ROOT } from './src/app-root.js';
import { createExampleApi } from './src/example-api/api.js';
import { shopEvents } from './src/example-api/events.js';
import * as shopSchema from './src/example-api/schema.js';

// What <Route>, <Model> and <Event> describe: the example API as server.ts mounts it, its tables and
// its event types. Here rather than in server.ts so `kit validate` and render workers see them too.
registerReferences({
  routes: honoRoutes(createExampleApi(), { prefix: '/api' }),
  models: drizzleModels(shopSchema),
  events: eventTypes(shopEvents),
});

/**
 * The reference server's config, built from an environment so a test or an embedding host can pass
 * its own (`createReferenceServer({ env })`) instead of mutating `process.env`.
 */
export function referenceConfig(env: KitEnv) {
  // The Laravel corpus ships in the repository (`tests/data/corpora/laravel`); KIT_LARAVEL_PATH overrides.
  const laravelPath = env.KIT_LARAVEL_PATH ?? resolve(APP_ROOT, '../../tests/data/corpora/laravel');
  return defineConfig({
    sets: {
      // Kit's own documentation, from apps/site.
      docs: {
        route: { prefix: 'docs' },
        source: { driver: 'repository', path: '../site' },
      },
      // KIT_LARAVEL=1 adds the Laravel docs (three versions) as a second set. Its pages mark anchors with
      // raw <a name> tags, so it is served as its owners would: a trusted repository set with html_input allow.
      // They were written for laravel.com, which mounts them at /docs (`/docs/{{version}}/routing`); here
      // /docs is Kit's own docs, so link_prefix serves those links under /laravel instead.
      ...(env.KIT_LARAVEL
        ? {
            laravel: {
              route: { prefix: 'laravel', link_prefix: 'docs' },
              source: { driver: 'repository' as const, path: laravelPath },
              html_input: 'allow' as const,
              search: { driver: env.KIT_LARAVEL_SEARCH ?? 'server' },
            },
          }
        : {}),
    },
    // The worked example of a custom search driver: `search: { driver: 'minisearch' }` on any set uses it.
    // Imported only when a set names it, so the default start does not load MiniSearch.
    searchDrivers: {
      minisearch: async () => (await import('@kit/search/examples/minisearch-driver')).createMiniSearchDriver(),
    },
    // KIT_MCP_RATE_LIMIT ('requests,minutes') sets every set's web MCP limit, e.g. low to show that several
    // processes sharing KIT_REDIS_URL count one limit, or high for a conformance run.
    ...(env.KIT_MCP_RATE_LIMIT ? { mcp: { web: { rate_limit: env.KIT_MCP_RATE_LIMIT } } } : {}),
  });
}

export default referenceConfig(process.env);
