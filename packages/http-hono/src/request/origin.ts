import type { Kit } from '@kit/core';
import { isAllowedHost } from '@kit/core/internal';
import type { Context } from 'hono';
import { LOOPBACK_HOSTS } from '../loopback.js';

/** What finding and vouching for an origin reads of the app's options (`KitAppOptions`). */
export interface OriginOptions {
  kit: Kit;
  /** The configured public origin, if any. */
  origin?: string;
  /** Host names vouched for besides each set's `route.domain`. */
  allowedHosts?: string[];
}

/** The Host header, or the request URL's host when a test or proxy sends none. */
export function requestHost(c: Context): string {
  return c.req.header('host') ?? new URL(c.req.url).host;
}

/** The origin absolute URLs carry for a request: the configured `origin`, else the request's own. */
export function requestOrigin(c: Context, options: OriginOptions): string {
  return originOf(c.req.url, options);
}

/** The origin of an absolute request URL, or the configured `origin`. */
export function originOf(url: string, options: OriginOptions): string {
  if (options.origin) return options.origin.replace(/\/+$/, '');
  // A request URL is absolute and already normalized: its origin ends where its path begins.
  const pathStart = url.indexOf('/', url.indexOf('//') + 2);
  return pathStart === -1 ? url : url.slice(0, pathStart);
}

/**
 * True when the origin {@link requestOrigin} writes is vouched for by configuration, not only by the
 * Host the request sent: a configured `origin`, a Host among `allowedHosts` or equal to a set's
 * `route.domain`, or (with none of these configured) a loopback name. Only then may a response
 * carrying it be shared with other callers.
 */
export function originVouchedFor(c: Context, options: OriginOptions): boolean {
  return hostVouchedFor(requestHost(c), options);
}

/** {@link originVouchedFor} for the Host a request sent. */
export function hostVouchedFor(host: string, options: OriginOptions): boolean {
  if (options.origin) return true;
  let vouched = vouchedHosts.get(options);
  if (!vouched) {
    const domains = [...options.kit.sets.values()].flatMap((set) => set.config.route.domain ?? []);
    vouched = { hosts: options.allowedHosts ?? (domains.length > 0 ? domains : LOOPBACK_HOSTS), answers: new Map() };
    vouchedHosts.set(options, vouched);
  }
  // Remembered per Host for the few a server sees; any Host beyond them is checked every time.
  let answer = vouched.answers.get(host);
  if (answer === undefined) {
    answer = isAllowedHost(host, vouched.hosts);
    if (vouched.answers.size < 64) vouched.answers.set(host, answer);
  }
  return answer;
}

/** The hosts {@link hostVouchedFor} accepts for each app's options, and its answers so far. */
const vouchedHosts = new WeakMap<OriginOptions, { hosts: readonly string[]; answers: Map<string, boolean> }>();
