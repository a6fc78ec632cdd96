import type { AnalyticsConfig } from '@kit/core';
import { escapeHtml, nonceAttr } from './html.js';

/** Analytics settings as written: the manifest's `integrations.analytics` or the configuration's. */
export type AnalyticsInput = AnalyticsConfig | Record<string, Record<string, unknown> | undefined>;

export interface AnalyticsOptions {
  /**
   * True for values read from a manifest (`kit.json`): a script source or host must then be the
   * provider's own. Values from configuration may point at any https URL (self-hosted providers).
   */
  fromManifest: boolean;
  /** Nonce for the inline parts (GA4 and PostHog bootstraps) under a Content-Security-Policy. */
  nonce?: string;
}

const GA4_ID = /^G-[A-Z0-9]{4,20}$/;
const FATHOM_SITE_ID = /^[A-Z0-9]{4,16}$/;
const POSTHOG_KEY = /^phc_[A-Za-z0-9]{16,80}$/;
// Plausible takes one site domain or a comma-separated list of them.
const DOMAIN_LIST =
  /^(?=.{1,500}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+(?:,[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+)*$/i;
const DATA_ATTRIBUTE = /^data-[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

const PLAUSIBLE_DEFAULT_SRC = 'https://plausible.io/js/script.js';
const PLAUSIBLE_HOSTS = ['plausible.io'];
const FATHOM_DEFAULT_SRC = 'https://cdn.usefathom.com/script.js';
const FATHOM_HOSTS = ['cdn.usefathom.com'];
const POSTHOG_DEFAULT_HOST = 'https://us.i.posthog.com';
const POSTHOG_HOSTS = ['us.i.posthog.com', 'eu.i.posthog.com', 'app.posthog.com', 'eu.posthog.com', 'us.posthog.com'];

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** An https URL without credentials; null for anything else. */
function httpsUrl(value: unknown): URL | null {
  const raw = text(value);
  if (!raw) return null;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'https:' || url.username || url.password) return null;
    return url;
  } catch {
    return null;
  }
}

/** A script source: any https URL from configuration, only the provider's hosts from a manifest. */
function providerSrc(value: unknown, hosts: string[], fromManifest: boolean): string | null {
  const url = httpsUrl(value);
  if (!url) return null;
  if (fromManifest && !hosts.includes(url.hostname)) return null;
  return url.href;
}

function ga4(values: Record<string, unknown>, nonce: string): string | null {
  const id = text(values.measurementId);
  if (!id || !GA4_ID.test(id)) return null;
  return (
    `<script async src="https://www.googletagmanager.com/gtag/js?id=${id}"></script>` +
    `<script${nonce}>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());gtag('config','${id}');</script>`
  );
}

function plausible(values: Record<string, unknown>, fromManifest: boolean): string | null {
  const domain = text(values.domain);
  if (!domain || !DOMAIN_LIST.test(domain)) return null;
  const src = providerSrc(values.src, PLAUSIBLE_HOSTS, fromManifest) ?? PLAUSIBLE_DEFAULT_SRC;
  return `<script defer data-domain="${escapeHtml(domain)}" src="${escapeHtml(src)}"></script>`;
}

function fathom(values: Record<string, unknown>, fromManifest: boolean): string | null {
  const siteId = text(values.siteId);
  if (!siteId || !FATHOM_SITE_ID.test(siteId)) return null;
  const src = providerSrc(values.src, FATHOM_HOSTS, fromManifest) ?? FATHOM_DEFAULT_SRC;
  return `<script defer data-site="${siteId}" src="${escapeHtml(src)}"></script>`;
}

function posthog(values: Record<string, unknown>, fromManifest: boolean, nonce: string): string | null {
  const apiKey = text(values.apiKey);
  if (!apiKey || !POSTHOG_KEY.test(apiKey)) return null;
  const host = providerSrc(values.host, POSTHOG_HOSTS, fromManifest)?.replace(/\/+$/, '') ?? POSTHOG_DEFAULT_HOST;
  // PostHog's cloud serves its library from a `-assets` sibling host; a self-hosted instance serves it itself.
  const library = `${host.replace('.i.posthog.com', '-assets.i.posthog.com')}/static/array.js`;
  const settings = JSON.stringify({ api_host: host }).replace(/</g, '\\u003c');
  return (
    `<script async crossorigin="anonymous" src="${escapeHtml(library)}"></script>` +
    `<script${nonce}>!function(w){var p=w.posthog=w.posthog||[];if(p.__SV)return;p._i=[];` +
    `p.init=function(k,c,n){p._i.push([k,c,n])};` +
    `"capture identify register reset alias group set_config opt_in_capturing opt_out_capturing".split(" ").forEach(function(m){p[m]=function(){p.push([m].concat([].slice.call(arguments)))}});` +
    `p.__SV=1}(window);posthog.init(${JSON.stringify(apiKey)},${settings});</script>`
  );
}

function custom(values: Record<string, unknown>): string | null {
  const url = httpsUrl(values.src);
  if (!url) return null;
  const parts = [`src="${escapeHtml(url.href)}"`];
  if (values.defer !== false) parts.push('defer');
  if (values.async === true) parts.push('async');
  const attributes = values.attributes;
  if (attributes && typeof attributes === 'object' && !Array.isArray(attributes)) {
    for (const [name, value] of Object.entries(attributes)) {
      const lower = name.toLowerCase();
      if (!DATA_ATTRIBUTE.test(lower)) continue;
      if (typeof value === 'string') parts.push(`${lower}="${escapeHtml(value)}"`);
      else if (typeof value === 'number' || typeof value === 'boolean') parts.push(`${lower}="${String(value)}"`);
    }
  }
  return `<script ${parts.join(' ')}></script>`;
}

const TOOLS = ['ga4', 'plausible', 'fathom', 'posthog', 'custom'] as const;

/**
 * Script tags for the analytics tools whose values match the shape their provider uses; a tool
 * with a non-matching required value is left out, and a non-matching optional value falls back to
 * the provider's default (or, for `custom` attributes, is dropped). Unknown tool keys are ignored.
 *
 * Why the `fromManifest` switch: a manifest is content anyone with docs access can edit, so it may
 * only name the providers' own script hosts; configuration is code and may name self-hosted ones.
 *
 * @example
 * analyticsScripts({ ga4: { measurementId: 'G-ABC123' } }, { fromManifest: true });
 * // '<script async src="https://www.googletagmanager.com/gtag/js?id=G-ABC123"></script><script>…</script>'
 */
export function analyticsScripts(config: AnalyticsInput | null | undefined, options: AnalyticsOptions): string {
  if (!config || typeof config !== 'object') return '';
  const nonce = nonceAttr(options.nonce);
  const tags: string[] = [];
  for (const tool of TOOLS) {
    const values = (config as Record<string, unknown>)[tool];
    if (!values || typeof values !== 'object' || Array.isArray(values)) continue;
    const record = values as Record<string, unknown>;
    const tag =
      tool === 'ga4'
        ? ga4(record, nonce)
        : tool === 'plausible'
          ? plausible(record, options.fromManifest)
          : tool === 'fathom'
            ? fathom(record, options.fromManifest)
            : tool === 'posthog'
              ? posthog(record, options.fromManifest, nonce)
              : custom(record);
    if (tag) tags.push(tag);
  }
  return tags.join('\n');
}

/**
 * The analytics scripts of one set: the configuration's `sets.{key}.integrations.analytics` wins
 * per tool over the manifest's, and only a repository set reads the manifest at all (a database
 * set's manifest is editable through author tools, so its integrations are ignored).
 *
 * @example
 * analyticsForSet({ source: 'repository', manifest: m.integrations.analytics, config: set.integrations.analytics });
 */
export function analyticsForSet(input: {
  source: 'repository' | 'database';
  manifest?: Record<string, Record<string, unknown>> | null;
  config?: AnalyticsInput | null;
  nonce?: string;
}): string {
  const fromConfig = (input.config ?? {}) as Record<string, unknown>;
  const fromManifest: Record<string, unknown> = {};
  if (input.source === 'repository' && input.manifest) {
    for (const tool of TOOLS) {
      if (fromConfig[tool] === undefined && input.manifest[tool] !== undefined)
        fromManifest[tool] = input.manifest[tool];
    }
  }
  return [
    analyticsScripts(fromConfig as AnalyticsInput, { fromManifest: false, nonce: input.nonce }),
    analyticsScripts(fromManifest as AnalyticsInput, { fromManifest: true, nonce: input.nonce }),
  ]
    .filter(Boolean)
    .join('\n');
}
