import type { DocSet } from '@kit/core';
import type { ReaderAssets } from '@kit/render/assets';
import type { Hono } from 'hono';
import { sendCached } from '../http-cache.js';
import type { KitEnv } from '../middleware.js';
import { isPrivateFor, viewerFor } from '../request/caller.js';
import { fileUrlHash, sendFile } from '../static-files.js';
import type { SetGuards } from './guards.js';

const IMMUTABLE = { 'Cache-Control': 'public, max-age=31536000, immutable' };

/**
 * The files a set's reader pages load under `/_kit/`: the reader's script, stylesheet, chunks and
 * fonts, the manifest's stylesheets, and its logo and favicon, each at a content-hashed URL.
 */
export function assetRoutes(
  app: Hono<KitEnv>,
  { set, assets, guards }: { set: DocSet; assets: Promise<ReaderAssets>; guards: SetGuards },
): void {
  app.get('/_kit/:file', async (c) => {
    const built = await assets;
    const file = c.req.param('file')!;
    const asset = [built.js, built.css, ...built.chunks, ...built.fonts].find((candidate) => candidate.name === file);
    if (!asset) return c.notFound();
    return sendCached(c, asset.body, { contentType: asset.contentType, isPrivate: false, headers: IMMUTABLE });
  });

  app.get('/_kit/css/:hash/:file{.+}', guards.page, async (c) => {
    const file = c.req.param('file')!;
    const manifest = await set.manifest();
    if (!manifest.assets.css.includes(file)) return c.notFound();
    const bytes = await set.source.readAsset(file);
    if (!bytes) return c.notFound();
    return sendCached(c, bytes, { contentType: 'text/css; charset=utf-8', isPrivate: false, headers: IMMUTABLE });
  });

  // The logo and favicon the manifest names, at content-hashed URLs the reader pages write.
  app.get('/_kit/file/:hash/:name{.+}', guards.page, async (c) => {
    const view = await set.manifestFile(c.req.param('name')!, viewerFor(c));
    if (!view) return c.notFound();
    const immutable = fileUrlHash(view.file.contentHash) === c.req.param('hash');
    return sendFile(c, view, { isPrivate: isPrivateFor(set, c), immutable });
  });
}
