import type { DocSet } from '@kit/core';
import { isSignedIn, normalizePrefix } from '@kit/core/internal';
import { renderNotFoundPage } from '@kit/render';
import { type ReaderAssets, readerAssets } from '@kit/render/assets';
import type { Context } from 'hono';
import { currentUser } from '../middleware.js';
import type { KitAppOptions } from '../options.js';
import { readerNotFoundView, type ViewContext } from '../reader-view.js';
import { isPrivateFor, viewerFor } from '../request/caller.js';
import { prefersMarkdown } from '../request/negotiation.js';
import { requestOrigin } from '../request/origin.js';
import { signInMarkdown, signInPage } from '../sign-in.js';
import { type SetFileUrls, setFileUrls } from '../static-files.js';
import type { AskLoader } from './ask-ai.js';

/** Builds the reader's script and stylesheet (kept in `cacheDir` between runs when given). */
export function loadAssets(cacheDir: string | null): Promise<ReaderAssets> {
  return readerAssets({
    clientSearch: { module: '@kit/search/client', resolveDir: new URL('..', import.meta.url).pathname },
    ...(cacheDir ? { cacheDir } : {}),
  });
}

/** The URL of the reader stylesheet under the set's prefix. */
export function readerStylesheet(set: DocSet, assets: ReaderAssets): string {
  return `${normalizePrefix(set.config.route.prefix)}/_kit/${assets.css.name}`;
}

/** What every reader page of a set is laid out with, for this request. */
export async function viewContext(
  c: Context,
  set: DocSet,
  options: KitAppOptions,
  assets: ReaderAssets,
  files: SetFileUrls,
  asker?: AskLoader,
): Promise<ViewContext> {
  const base = normalizePrefix(set.config.route.prefix);
  const askAvailable = set.config.ai.ask.enabled && asker ? (await asker.get()).ok : false;
  return {
    askAvailable,
    kit: options.kit,
    set,
    viewer: viewerFor(c),
    base,
    origin: requestOrigin(c, options),
    assets: { js: `${base}/_kit/${assets.js.name}`, css: readerStylesheet(set, assets) },
    stylesheets: files.stylesheets,
    branding: { ...(files.logo ? { logo: files.logo } : {}), ...(files.favicon ? { favicon: files.favicon } : {}) },
  };
}

/**
 * Not found, in HTML or Markdown as asked. A guest of an `auth` set is asked to sign in instead
 * (401): the set exists but needs a signed-in reader. Whatever lists the viewer's navigation is
 * private to them.
 */
export async function notFound(
  c: Context,
  set: DocSet,
  options: KitAppOptions,
  assets: ReaderAssets,
): Promise<Response> {
  const cacheControl = isPrivateFor(set, c) ? 'private, no-cache' : 'no-cache';
  const markdown = c.req.path.endsWith('.md') || prefersMarkdown(c.req.header('accept'));
  if (set.config.access.mode === 'auth' && !isSignedIn(currentUser(c))) {
    return markdown ? signInMarkdown(c) : signInPage(c, readerStylesheet(set, assets));
  }
  if (markdown) {
    return c.body(
      '# Not found\n\nNo page lives at this address. Search the docs or read llms.txt for the page list.\n',
      404,
      {
        'Content-Type': 'text/markdown; charset=utf-8',
        'Cache-Control': cacheControl,
      },
    );
  }
  const context = await viewContext(c, set, options, assets, await setFileUrls(set)());
  const html = renderNotFoundPage(await readerNotFoundView(context, c.req.path));
  return c.body(html, 404, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': cacheControl });
}
