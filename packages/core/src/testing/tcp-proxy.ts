import { createConnection, createServer, type Socket } from 'node:net';

/** A TCP proxy a test controls, in front of a real service (PostgreSQL, Redis). */
export interface TcpProxy {
  /** The port on 127.0.0.1 clients connect to; it stays the same across `down` and `up`. */
  readonly port: number;
  /** `url` with its host and port replaced by the proxy's, e.g. `redis://127.0.0.1:<port>`. */
  through(url: string): string;
  /** The service "goes away": every open connection is cut and new ones are refused. */
  down(): Promise<void>;
  /**
   * The service hangs: connections stay open (and new ones are accepted) but nothing passes in
   * either direction, as with a frozen server or a network that drops packets. `down` then `up`
   * ends it.
   */
  hang(): void;
  /** The service is back: connections are accepted and passed on again. */
  up(): Promise<void>;
  /** Stops the proxy for good. */
  close(): Promise<void>;
}

/**
 * Starts a TCP proxy on 127.0.0.1 that pipes every connection to `target`, so a test can take a
 * shared service "down" and bring it "back" without touching the service itself.
 *
 * @example
 * const proxy = await startTcpProxy({ host: '127.0.0.1', port: 6379 });
 * const store = createRedisRateLimitStore({ url: proxy.through('redis://127.0.0.1:6379') });
 * await proxy.down(); // Redis unreachable
 * await proxy.up(); // Redis back
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let hanging = false;
  const server = createServer((client) => {
    const upstream = createConnection(target);
    sockets.add(client);
    sockets.add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.on('data', (chunk) => {
      if (!hanging) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!hanging) client.write(chunk);
    });
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as { port: number }).port;
  let listening = true;
  const stop = async () => {
    if (!listening) return;
    listening = false;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    await closed;
  };
  return {
    port,
    through(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    down: stop,
    hang() {
      hanging = true;
    },
    async up() {
      hanging = false;
      if (listening) return;
      await listen(port);
      listening = true;
    },
    close: stop,
  };
}
