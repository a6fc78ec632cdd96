import { type LoadedKit, loadKit } from '@kit/cli';
import { createKitApp, createRedisRateLimitStore } from '@kit/http-hono';
import { Hono } from 'hono';

const appRoot = new URL('..', import.meta.url).pathname;

/** Options of the reference server; every one has an environment variable. */
export interface ReferenceServerOptions {
  /** Public origin used in absolute links (`KIT_URL`). */
  origin?: string;
  /** Redis URL shared by several processes for rate limits (`KIT_REDIS_URL`). */
  redisUrl?: string;
  /** Environment the config reads (default: process.env). */
  env?: Record<string, string | undefined>;
}

/**
 * The reference host application: a Hono app that mounts every doc set of apps/server/kit.config.ts
 * and sends `/` to the docs.
 */
export async function createReferenceServer(
  options: ReferenceServerOptions = {},
): Promise<{ app: Hono; kit: LoadedKit; close(): Promise<void> }> {
  const kit = await loadKit({
    cwd: appRoot,
    ...(options.env ? { env: options.env } : {}),
    ...(options.origin ? { origin: options.origin } : {}),
  });
  const rateLimitStore = options.redisUrl ? createRedisRateLimitStore({ url: options.redisUrl }) : undefined;
  const app = new Hono();
  app.get('/', (c) => c.redirect(`/${kit.set().config.route.prefix}`));
  app.route(
    '/',
    createKitApp({
      kit,
      ...(rateLimitStore ? { rateLimitStore } : {}),
      ...(options.origin ? { origin: options.origin } : {}),
    }),
  );
  return {
    app,
    kit,
    async close() {
      await kit.close();
      await rateLimitStore?.close();
    },
  };
}
