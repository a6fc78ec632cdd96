import type { DocSet } from '@kit/core';
import { normalizePrefix } from '@kit/core/internal';
import { navListingHref, renderNavPage } from '@kit/render';
import type { ReaderAssets } from '@kit/render/assets';
import type { Context, Hono } from 'hono';
import { sendCached } from '../http-cache.js';
import type { KitEnv } from '../middleware.js';
import { type ListingRequest, NAV_LISTING_PAGE, navigationUrl, navListing } from '../nav-listing.js';
import type { KitAppOptions } from '../options.js';
import { readerNavPageView } from '../reader-view.js';
import { isPrivateFor, viewerFor } from '../request/caller.js';
import type { SetFileUrls } from '../static-files.js';
import type { SetGuards } from './guards.js';
import { viewContext } from './reader-context.js';

/** What the navigation routes of a set need. */
export interface NavRouteParts {
  set: DocSet;
  options: KitAppOptions;
  assets: Promise<ReaderAssets>;
  fileUrls: () => Promise<SetFileUrls>;
  guards: SetGuards;
}

function listingRequest(c: Context, version: string, locale: string): ListingRequest {
  const number = (name: string) => {
    const value = Number(c.req.query(name));
    return Number.isFinite(value) ? value : undefined;
  };
  const group = c.req.query('group');
  const offset = number('offset');
  const limit = number('limit');
  return {
    version,
    locale,
    ...(group !== undefined && group !== '' ? { group } : {}),
    ...(offset !== undefined ? { offset } : {}),
    ...(limit !== undefined ? { limit } : {}),
  };
}

/**
 * `GET /_kit/nav/<version>/<locale>.json?group=<id>&offset=<n>&limit=<n>`: one page of a
 * navigation group's entries, which a bounded sidebar loads on demand; and
 * `GET /_kit/nav/<version>/<locale>?group=<id>&offset=<n>`, the same as a page in the site's frame
 * for a reader without the script. Both answer only what the viewer may see (`set.navigation`),
 * behind the same guards as the pages; an unknown group is `navigation.group_not_found` (404).
 */
export function navRoutes(app: Hono<KitEnv>, parts: NavRouteParts): void {
  const { set, guards } = parts;
  app.get('/_kit/nav/:version/:file', guards.page, guards.signIn, async (c) => {
    const file = c.req.param('file')!;
    const json = file.endsWith('.json');
    const request = listingRequest(c, c.req.param('version')!, json ? file.slice(0, -'.json'.length) : file);
    const listing = await navListing(set, viewerFor(c), normalizePrefix(set.config.route.prefix), request);
    if (json) {
      return sendCached(c, JSON.stringify(listing), {
        contentType: 'application/json; charset=utf-8',
        isPrivate: isPrivateFor(set, c),
      });
    }
    const context = await viewContext(c, set, parts.options, await parts.assets, await parts.fileUrls());
    const navUrl = navigationUrl(context.base, request);
    const group = listing.group?.id ?? null;
    const view = await readerNavPageView(context, request, listing, {
      ...(listing.offset > 0
        ? { previousUrl: navListingHref(navUrl, group, Math.max(0, listing.offset - NAV_LISTING_PAGE)) }
        : {}),
      ...(listing.next !== null ? { nextUrl: navListingHref(navUrl, group, listing.next) } : {}),
    });
    return c.body(renderNavPage(view), 200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': isPrivateFor(set, c) ? 'private, no-cache' : 'no-cache',
    });
  });
}
