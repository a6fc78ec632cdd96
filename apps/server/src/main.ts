import { serve } from '@hono/node-server';
import { loopbackAllowedHosts } from '@kit/http-hono';
import { createReferenceServer } from './server.js';

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? 'localhost';
const origin = process.env.KIT_URL ?? `http://localhost:${port}`;
// Listening on loopback, the MCP endpoint answers only loopback names and the public origin's host.
const allowedHosts = loopbackAllowedHosts(hostname, origin);
const server = await createReferenceServer({
  origin,
  ...(process.env.KIT_REDIS_URL ? { redisUrl: process.env.KIT_REDIS_URL } : {}),
  ...(process.env.KIT_REDIS_PREFIX ? { redisKeyPrefix: process.env.KIT_REDIS_PREFIX } : {}),
  ...(allowedHosts ? { allowedHosts } : {}),
});

// Grammars and search indexes are prepared in the background once the first response is out (or a
// second after listening, when nobody asks sooner), so they never slow the first page down.
let warmTimer: ReturnType<typeof setTimeout> | undefined;
const warm = () => {
  clearTimeout(warmTimer);
  void server.warm();
};
let answered = false;
const fetch: typeof server.fetch = (request, env) => {
  if (answered) return server.fetch(request, env);
  return Promise.resolve(server.fetch(request, env)).finally(() => {
    if (!answered) {
      answered = true;
      setTimeout(warm, 0);
    }
  });
};

const listener = serve({ fetch, port, hostname }, (info) => {
  const sets = [...server.kit.sets.values()].map(
    (set) => `  ${set.key}: http://localhost:${info.port}/${set.config.route.prefix}`,
  );
  // performance.now() counts from process start, so this includes loading the modules.
  console.log(`Kit reference server ready in ${Math.round(performance.now())} ms\n${sets.join('\n')}`);
  warmTimer = setTimeout(warm, 1000);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    listener.close();
    void server.close().finally(() => process.exit(0));
  });
}
