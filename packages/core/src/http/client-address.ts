/**
 * Which hops in front of the server are trusted to say who the caller is (`http.trusted_proxies`),
 * in the convention of Express and Fastify's `trustProxy`: `false` trusts none (the peer's own
 * address counts), `true` trusts every hop (the first `X-Forwarded-For` address counts), a number
 * trusts that many hops counted from the server, and a list trusts the addresses and CIDR ranges
 * it names (`loopback`, `linklocal` and `uniquelocal` name the private ranges).
 */
export type TrustedProxies = boolean | number | string[];

/** Named ranges a `http.trusted_proxies` list may use, as Express's `trust proxy` names them. */
export const NAMED_PROXY_RANGES: Readonly<Record<string, readonly string[]>> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** The caller's address when nothing tells it: every such caller shares one rate-limit bucket. */
export const UNKNOWN_ADDRESS = 'unknown';

interface ParsedAddress {
  family: 4 | 6;
  value: bigint;
}

interface Range {
  family: 4 | 6;
  base: bigint;
  bits: number;
}

/** Decides, hop by hop from the server outwards, whether an address may speak for the next. */
export type ProxyTrust = (address: string, hop: number) => boolean;

function parseIpv4(text: string): bigint | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return null;
    value = (value << 8n) | BigInt(Number(part));
  }
  return value;
}

function parseIpv6(text: string): bigint | null {
  let head = text;
  let tail: bigint[] = [];
  // An IPv4 tail (`::ffff:192.0.2.1`) stands for the last two groups.
  const lastColon = head.lastIndexOf(':');
  if (head.includes('.') && lastColon !== -1) {
    const v4 = parseIpv4(head.slice(lastColon + 1));
    if (v4 === null) return null;
    head = `${head.slice(0, lastColon + 1)}0:0`;
    tail = [v4 >> 16n, v4 & 0xffffn];
  }
  const halves = head.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':'));
  const left = groupsOf(halves[0]!);
  const right = halves.length === 2 ? groupsOf(halves[1]!) : [];
  const missing = 8 - left.length - right.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...left, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...right];
  let value = 0n;
  for (const group of groups) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
    value = (value << 16n) | BigInt(Number.parseInt(group, 16));
  }
  if (tail.length === 2) value = (value & ~0xffffffffn) | (tail[0]! << 16n) | tail[1]!;
  return value;
}

/**
 * An address as written by a socket or a proxy: IPv4, IPv6 (a zone `%eth0` and brackets dropped),
 * and an IPv4-mapped IPv6 address read as the IPv4 address it carries.
 */
function parseAddress(text: string): ParsedAddress | null {
  const trimmed = text
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/%.*$/, '');
  const v4 = parseIpv4(trimmed);
  if (v4 !== null) return { family: 4, value: v4 };
  const v6 = trimmed.includes(':') ? parseIpv6(trimmed) : null;
  if (v6 === null) return null;
  if (v6 >> 32n === 0xffffn) return { family: 4, value: v6 & 0xffffffffn };
  return { family: 6, value: v6 };
}

function parseRange(entry: string): Range | null {
  const [address, prefix, ...rest] = entry.trim().split('/');
  if (rest.length > 0 || address === undefined) return null;
  const parsed = parseAddress(address);
  if (!parsed) return null;
  const width = parsed.family === 4 ? 32 : 128;
  // A mapped address (`::ffff:10.0.0.0/104`) counts its prefix over the IPv6 width.
  const mappedOffset = parsed.family === 4 && address.includes(':') ? 96 : 0;
  const bits = prefix === undefined ? width : /^\d{1,3}$/.test(prefix) ? Number(prefix) - mappedOffset : Number.NaN;
  if (!Number.isInteger(bits) || bits < 0 || bits > width) return null;
  const shift = BigInt(width - bits);
  return { family: parsed.family, base: (parsed.value >> shift) << shift, bits };
}

function inRange(address: ParsedAddress, range: Range): boolean {
  if (address.family !== range.family) return false;
  const shift = BigInt((range.family === 4 ? 32 : 128) - range.bits);
  return (address.value >> shift) << shift === range.base;
}

/**
 * The entries of a `http.trusted_proxies` list that are neither an address, a CIDR range nor a
 * named range; config validation names them.
 *
 * @example
 * invalidProxyEntries(['10.0.0.0/8', 'loopback', '10.0.0.300']); // ['10.0.0.300']
 */
export function invalidProxyEntries(entries: readonly string[]): string[] {
  return entries.filter((entry) => !(entry in NAMED_PROXY_RANGES) && parseRange(entry) === null);
}

/**
 * Turns a `http.trusted_proxies` setting into the test {@link clientAddress} applies to each hop.
 * Throws a RangeError naming an entry that is not an address, a CIDR range or a named range.
 *
 * @example
 * const trust = compileProxyTrust(['loopback', '10.0.0.0/8']);
 * trust('10.1.2.3', 0); // true
 */
export function compileProxyTrust(setting: TrustedProxies): ProxyTrust {
  if (setting === true) return () => true;
  if (setting === false) return () => false;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  const bad = invalidProxyEntries(setting);
  if (bad.length > 0) {
    throw new RangeError(
      `http.trusted_proxies has ${bad.map((entry) => `"${entry}"`).join(', ')}, which is not an IP address, a CIDR range (10.0.0.0/8) or one of ${Object.keys(NAMED_PROXY_RANGES).join(', ')}.`,
    );
  }
  const ranges = setting.flatMap((entry) => NAMED_PROXY_RANGES[entry] ?? [entry]).map((entry) => parseRange(entry)!);
  return (address) => {
    const parsed = parseAddress(address);
    return parsed !== null && ranges.some((range) => inRange(parsed, range));
  };
}

/** What {@link clientAddress} reads from one request. */
export interface ClientAddressInput {
  /** The address of the connection's other end, when the runtime tells it (Node, Bun, Deno). */
  peer?: string | undefined;
  /** The `X-Forwarded-For` header, as received. */
  forwardedFor?: string | null | undefined;
}

/**
 * The caller's address: walking from the server outwards (the peer, then the `X-Forwarded-For`
 * entries from last to first), the first hop that is not trusted, or the farthest one when every
 * hop is trusted. With nothing trusted it is the peer, so a caller cannot pick its own address by
 * sending the header. A request with no peer (the app called in-process, or a runtime that does
 * not say) counts as coming from {@link UNKNOWN_ADDRESS} unless `true` or a hop count trusts it.
 *
 * @example
 * const trust = compileProxyTrust(1);
 * clientAddress({ peer: '10.0.0.2', forwardedFor: '203.0.113.9, 198.51.100.7' }, trust); // '198.51.100.7'
 */
export function clientAddress(input: ClientAddressInput, trust: ProxyTrust): string {
  const peer = input.peer?.trim() || UNKNOWN_ADDRESS;
  const forwarded = (input.forwardedFor ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const hops = [peer, ...forwarded.reverse()];
  for (let hop = 0; hop < hops.length - 1; hop++) {
    if (!trust(hops[hop]!, hop)) return hops[hop]!;
  }
  return hops.at(-1)!;
}
