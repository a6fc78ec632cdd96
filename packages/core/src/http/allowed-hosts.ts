/**
 * True when a request's `Host` is one of `allowedHosts`: an entry with a port (`localhost:3000`)
 * matches that host and port, one without (`localhost`) the name on any port; case is ignored.
 * What the MCP endpoint answers for, and which request hosts may be written into absolute URLs.
 *
 * @example
 * isAllowedHost('localhost:4000', ['localhost', '127.0.0.1']); // true
 * isAllowedHost('evil.example:4000', ['localhost']);          // false
 */
export function isAllowedHost(host: string, allowedHosts: readonly string[]): boolean {
  const asked = host.toLowerCase();
  const name = asked.replace(/:\d+$/, '');
  return allowedHosts.some((entry) => {
    const allowed = entry.toLowerCase();
    return allowed === asked || (!/:\d+$/.test(allowed) && allowed === name);
  });
}
