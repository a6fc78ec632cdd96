import { serve } from '@hono/node-server';
import { createReferenceServer } from './server.js';

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? 'localhost';
const started = performance.now();
const server = await createReferenceServer({
  origin: process.env.KIT_URL ?? `http://localhost:${port}`,
  ...(process.env.KIT_REDIS_URL ? { redisUrl: process.env.KIT_REDIS_URL } : {}),
});

const listener = serve({ fetch: server.app.fetch, port, hostname }, (info) => {
  const sets = [...server.kit.sets.values()].map(
    (set) => `  ${set.key}: http://localhost:${info.port}/${set.config.route.prefix}`,
  );
  console.log(`Kit reference server ready in ${Math.round(performance.now() - started)} ms\n${sets.join('\n')}`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    listener.close();
    void server.close().finally(() => process.exit(0));
  });
}
