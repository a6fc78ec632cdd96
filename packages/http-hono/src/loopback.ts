/** The names a loopback listener is reached by; a browser page on any other name is DNS rebinding. */
export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

/** True for a listen address only this machine reaches (`localhost`, 127.0.0.0/8, `::1`). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '::1' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * The `Host` names a server listening on `hostname` should answer its MCP endpoint for: on a
 * loopback address, the loopback names and the public origin's host, so a page on a rebinding
 * domain (evil.example resolving to 127.0.0.1) that sends its own `Host` is refused. Undefined for
 * any other address, where the application (or its proxy) decides which names reach it.
 *
 * @example
 * createKitApp({ kit, ...(loopbackAllowedHosts('127.0.0.1', 'http://localhost:3000') ? {...} : {}) });
 * loopbackAllowedHosts('127.0.0.1', 'http://localhost:3000'); // ['localhost', '127.0.0.1', '[::1]', 'localhost:3000']
 */
export function loopbackAllowedHosts(hostname: string, origin: string): string[] | undefined {
  if (!isLoopbackHost(hostname)) return undefined;
  return [...LOOPBACK_HOSTS, new URL(origin).host];
}
