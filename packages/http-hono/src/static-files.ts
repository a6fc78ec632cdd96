import { createHash } from 'node:crypto';
import type { DocSet, FileView, NormalizedManifest } from '@kit/core';
import { normalizePrefix } from '@kit/core/internal';
import type { Context } from 'hono';
import { matchesEtag, sendableBytes } from './http-cache.js';

/** How long a content-hashed file URL may be kept: a year, never revalidated. */
const IMMUTABLE = 'max-age=31536000, immutable';
/**
 * SVG runs script when opened as a document, and so does XML holding XHTML; an author's file is
 * served from the site's own origin: no script, no loads, no forms, sandboxed. Inline styles stay,
 * as drawings use them.
 */
const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
const HASH_LENGTH = 12;

/** The short content hash a file URL carries (`?v=` or a `/_kit/file/<hash>/` segment). */
export function fileUrlHash(contentHash: string): string {
  return contentHash.replace(/^sha256:/, '').slice(0, HASH_LENGTH);
}

/**
 * Sends a static file: its content type (a download for unknown or runnable types), a strong ETag
 * from its content hash answered with 304, and caching by URL: `immutable` for a URL carrying the
 * current content hash, revalidation otherwise; `private` when the response depends on who asks.
 * The bytes stream from the source; a 304 never opens them.
 */
export async function sendFile(
  c: Context,
  view: FileView,
  options: { isPrivate: boolean; immutable: boolean },
): Promise<Response> {
  const etag = `"${view.file.contentHash.replace(/^sha256:/, '').slice(0, 32)}"`;
  const scope = options.isPrivate ? 'private' : 'public';
  const headers: Record<string, string> = {
    ETag: etag,
    'Cache-Control': options.immutable
      ? `${scope}, ${IMMUTABLE}`
      : options.isPrivate
        ? 'private, no-cache'
        : 'public, max-age=0, must-revalidate',
    'X-Content-Type-Options': 'nosniff',
  };
  if (matchesEtag(c.req.header('If-None-Match'), etag)) return c.body(null, 304, headers);
  headers['Content-Type'] = view.contentType;
  headers['Content-Length'] = String(view.file.size);
  if (view.download) {
    const name = view.name.slice(view.name.lastIndexOf('/') + 1);
    headers['Content-Disposition'] = `attachment; filename*=UTF-8''${encodeURIComponent(name)}`;
  }
  if (/^(?:image\/svg\+xml|application\/xml)\b/.test(view.contentType)) headers['Content-Security-Policy'] = SVG_POLICY;
  const body = await view.file.open();
  return c.body(body instanceof Uint8Array ? sendableBytes(body) : body, 200, headers);
}

/** The reader's logo and favicon as served URLs (see {@link setFileUrls}). */
export interface BrandingUrls {
  logo?: { light: string; dark: string };
  favicon?: string;
}

/** The URLs of the files a set's manifest names: its stylesheets, logo and favicon. */
export interface SetFileUrls extends BrandingUrls {
  /** URLs of the set's own stylesheets (`assets.css`), content-hashed. */
  stylesheets: string[];
}

/**
 * Content-hashed URLs of the files the manifest names, recomputed when the manifest or an asset
 * changes: `assets.css` under `/_kit/css/<hash>/`, and `logo` (light and dark) and `favicon`
 * under `/_kit/file/<hash>/` when they name a file relative to the manifest. A logo or favicon
 * written as a URL (`https://...`, `/static/logo.svg`) is used as written; a missing file is left
 * out (validation reports it as `assets.missing`).
 */
export function setFileUrls(set: DocSet): () => Promise<SetFileUrls> {
  let cached: { key: string; urls: SetFileUrls } | null = null;
  const base = normalizePrefix(set.config.route.prefix);
  set.source.watch?.((change) => {
    if (change.kind === 'asset' || change.kind === 'manifest') cached = null;
  });
  const encodeName = (name: string) => name.split('/').map(encodeURIComponent).join('/');
  const hashed = async (name: string): Promise<string | null> => {
    if (isWrittenUrl(name)) return name;
    const file = await set.source.openFile(name);
    return file ? `${base}/_kit/file/${fileUrlHash(file.contentHash)}/${encodeName(name)}` : null;
  };
  return async () => {
    const manifest = await set.manifest();
    const key = JSON.stringify([manifest.assets.css, manifest.logo ?? null, manifest.favicon ?? null]);
    if (cached && cached.key === key) return cached.urls;
    const stylesheets: string[] = [];
    for (const file of manifest.assets.css) {
      const bytes = await set.source.readAsset(file);
      if (!bytes) continue; // reported by validation as assets.missing
      const hash = createHash('sha256').update(bytes).digest('hex').slice(0, HASH_LENGTH);
      stylesheets.push(`${base}/_kit/css/${hash}/${encodeName(file)}`);
    }
    const urls: SetFileUrls = { stylesheets, ...(await brandingUrls(manifest, hashed)) };
    cached = { key, urls };
    return urls;
  };
}

async function brandingUrls(
  manifest: NormalizedManifest,
  hashed: (name: string) => Promise<string | null>,
): Promise<BrandingUrls> {
  const urls: BrandingUrls = {};
  if (manifest.logo) {
    const light = await hashed(manifest.logo.light);
    const dark = manifest.logo.dark === manifest.logo.light ? light : await hashed(manifest.logo.dark);
    if (light || dark) urls.logo = { light: (light ?? dark)!, dark: (dark ?? light)! };
  }
  if (manifest.favicon) {
    const favicon = await hashed(manifest.favicon);
    if (favicon) urls.favicon = favicon;
  }
  return urls;
}

/** A logo or favicon written as a URL (a scheme, `//` or a site path) rather than a file name. */
function isWrittenUrl(value: string): boolean {
  return /^[a-z][a-z\d+.-]*:/i.test(value) || value.startsWith('/');
}
