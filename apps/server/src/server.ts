import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type KitEnv, resolveConfig, warmKit } from '@kit/core';
import { parseDotenv } from '@kit/core/node';
import { createKitApp, keptPagesFirst } from '@kit/http-hono';
import { type LoadedKit, loadKit, openRateLimitStore } from '@kit/node';
import { Hono } from 'hono';
import { referenceConfig } from '../kit.config.js';
import { APP_ROOT as appRoot } from './app-root.js';
import { createExampleApi } from './example-api/api.js';

/** Options of the reference server; every one has an environment variable. */
export interface ReferenceServerOptions {
  /** Public origin used in absolute links (`KIT_URL`). */
  origin?: string;
  /** Redis URL shared by several processes for rate limits (`KIT_REDIS_URL`). */
  redisUrl?: string;
  /** Environment the config reads (default: process.env). */
  env?: Record<string, string | undefined>;
  /** Key prefix of the shared Redis counters (`KIT_REDIS_PREFIX`, default `kit:rl:`). */
  redisKeyPrefix?: string;
  /**
   * Host names the MCP endpoint answers for; an entry without a port matches any port. main.ts sets
   * the loopback names when it listens on a loopback address, which stops DNS rebinding.
   */
  allowedHosts?: string[];
  /**
   * Watch repository sets and refresh only what changed. Sets then keep page lists, navigation and
   * finished public pages between requests instead of reading the folder on every one.
   * @default true
   */
  watch?: boolean;
  /**
   * Render pages on worker threads with a deadline (`loadKit`'s `renderPool`): `KIT_RENDER_WORKERS`
   * and `KIT_RENDER_DEADLINE_MS` from `env` set the size and deadline. False renders on the event loop.
   * @default true
   */
  renderPool?: boolean | { workers?: number; deadlineMs?: number | null };
}

/** What {@link createReferenceServer} gives: the Hono app to serve, the kit, and its life cycle. */
export interface ReferenceServer {
  app: Hono;
  /**
   * What to serve: the app's `fetch` with the pages Kit keeps answered before the app runs
   * (`keptPagesFirst`; the app adds nothing of its own to Kit's pages).
   */
  fetch: (request: Request, env?: unknown) => Response | Promise<Response>;
  kit: LoadedKit;
  /**
   * Prepares every version of each set in the background (code grammars, then the guests' search
   * index; the default version first), one set after another. Call it once the server listens:
   * requests are answered meanwhile, and a search made before it finishes waits for the index being
   * built, not for a second one. Sections come back from `.kit/cache/store` after a restart.
   */
  warm(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The reference host application: a Hono app that mounts every doc set of apps/server/kit.config.ts
 * and sends `/` to the docs.
 */
export async function createReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const env = withDotenv(options.env ?? process.env);
  // Built from the env given here, not the one kit.config.ts saw at import, so KIT_LARAVEL in
  // options.env adds the Laravel set without touching process.env.
  const config = resolveConfig(referenceConfig(env), { env, root: appRoot, file: join(appRoot, 'kit.config.ts') });
  const kit = await loadKit({
    config,
    watch: options.watch ?? true,
    env,
    renderPool: options.renderPool ?? true,
    ...(options.origin ? { origin: options.origin } : {}),
  });
  // The same choice as `kit serve`: the options' Redis, else KIT_REDIS_URL, else a Redis cache.store.
  const rateLimitStore = await openRateLimitStore(kit.config, {
    ...env,
    ...(options.redisUrl ? { KIT_REDIS_URL: options.redisUrl } : {}),
    ...(options.redisKeyPrefix ? { KIT_REDIS_PREFIX: options.redisKeyPrefix } : {}),
  });
  const app = new Hono();
  app.get('/', (c) => c.redirect(`/${kit.set().config.route.prefix}`));
  // The example API Kit's own docs describe with <Route>, <Model> and <Event> (see kit.config.ts).
  app.route('/api', createExampleApi());
  const kitApp = createKitApp({
    kit,
    ...(rateLimitStore ? { rateLimitStore } : {}),
    ...(options.origin ? { origin: options.origin } : {}),
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
  });
  app.route('/', kitApp);
  let warming: Promise<void> | null = null;
  let closed = false;
  return {
    app,
    fetch: keptPagesFirst(kitApp, (request, env?: unknown) => app.fetch(request, env)),
    kit,
    warm() {
      warming ??= warmKit(kit, {
        stopped: () => closed,
        onError: (error, { set, version }) => {
          console.error(
            `Preparing the "${set}" docs${version ? ` (${version})` : ''} failed; they load on first use instead.`,
            error,
          );
        },
      });
      return warming;
    },
    async close() {
      closed = true;
      await kit.close();
      await rateLimitStore?.close();
    },
  };
}

/** The app's `.env` under the given environment, which wins, as the config loader does it. */
function withDotenv(env: KitEnv): KitEnv {
  const file = join(appRoot, '.env');
  if (!existsSync(file)) return env;
  return { ...parseDotenv(readFileSync(file, 'utf8'), env, file), ...env };
}
