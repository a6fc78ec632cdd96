import { type DocSet, isRequestError, type PageView, type ReadPageInput } from '@kit/core';
import { looksLikeFile, withLlmsTxtDirective } from '@kit/core/internal';
import { renderReaderPage } from '@kit/render';
import type { ReaderAssets } from '@kit/render/assets';
import type { Context } from 'hono';
import { agentLinkHeader } from '../agent-files/index.js';
import { sendCached } from '../http-cache.js';
import type { KitEnv } from '../middleware.js';
import type { KitAppOptions } from '../options.js';
import { type SetPageCache, sendCachedPage } from '../page-cache.js';
import { readerPageView } from '../reader-view.js';
import { isPrivateFor, viewerFor } from '../request/caller.js';
import { asksForMarkdownPart, PAGE_VARY, prefersMarkdown } from '../request/negotiation.js';
import { originVouchedFor, requestOrigin } from '../request/origin.js';
import { fileUrlHash, type SetFileUrls, sendFile } from '../static-files.js';
import type { AskLoader } from './ask-ai.js';
import { notFound, viewContext } from './reader-context.js';

const encoder = new TextEncoder();

/** What the page routes of a set need. */
export interface PageRouteParts {
  set: DocSet;
  options: KitAppOptions;
  assets: Promise<ReaderAssets>;
  fileUrls: () => Promise<SetFileUrls>;
  asker: AskLoader;
  pageCache: SetPageCache;
}

/** The page routes of a set: `servePage` for a page URL, `serveAny` for any path left (a file beside the pages, else a page). */
export interface PageRoutes {
  servePage(c: Context<KitEnv>): Promise<Response>;
  serveAny(c: Context<KitEnv>): Promise<Response>;
}

/**
 * A set's pages: HTML or the Markdown twin as asked, from the set's response cache when it holds
 * them, redirects, the 404 page, and the files beside the pages.
 */
export function pageRoutes(parts: PageRouteParts): PageRoutes {
  const { set, options, pageCache } = parts;

  async function servePage(c: Context<KitEnv>): Promise<Response> {
    const wantsMarkdown = prefersMarkdown(c.req.header('accept'));
    // `?section=`, `?max_chars=` and `?cursor=` ask the Markdown twin for part of the page: built
    // for each request, never cached under the page's address.
    const readQuery = markdownReadQuery(c);
    if (readQuery && (wantsMarkdown || c.req.path.endsWith('.md'))) return serveMarkdownPart(c, parts, readQuery);
    const { isPrivate, match: matched, cached, store } = await pageCache.lookUp(c, wantsMarkdown);
    if (cached) return sendCachedPage(c, cached, isPrivate);
    const send = (body: string, contentType: string, headers: Record<string, string>) => {
      if (!store) return sendCached(c, body, { contentType, isPrivate, headers });
      return sendCachedPage(c, store({ body: encoder.encode(body), contentType, headers }), isPrivate);
    };
    // Code shown plain while its grammar loads, or a page a render deadline cut short: never
    // cached, here or by a browser or proxy.
    const sendUncached = (body: string, contentType: string, headers: Record<string, string>) =>
      sendCached(c, body, { contentType, isPrivate, headers: { ...headers, 'Cache-Control': 'no-store' } });

    const viewer = viewerFor(c);
    const match = matched ?? (await set.resolveUrl(c.req.path, viewer));
    if (match.kind === 'redirect') return redirect(c, set, match.location, match.status);
    if (match.kind === 'none') return notFound(c, set, options, await parts.assets);
    const page = await set.getPage(match.ref, viewer);
    if (!page) return notFound(c, set, options, await parts.assets);
    const llmsTxt = await llmsTxtUrl(set, page);
    const headers = { Vary: PAGE_VARY, Link: agentLinkHeader({ markdownUrl: page.markdownUrl, llmsTxtUrl: llmsTxt }) };
    if (match.markdown || wantsMarkdown) {
      // The whole twin, with a note on top when the code it documents changed after it, and the
      // set's index named under its title, as the HTML page does at its top.
      const read = await set.readPage({ ...match.ref, staleness: true }, viewer);
      const markdown = llmsTxt ? withLlmsTxtDirective(read.text, `${requestOrigin(c, options)}${llmsTxt}`) : read.text;
      if (page.provisional) return sendUncached(markdown, 'text/markdown; charset=utf-8', headers);
      return send(markdown, 'text/markdown; charset=utf-8', headers);
    }
    const context = await viewContext(c, set, options, await parts.assets, await parts.fileUrls(), parts.asker);
    let html = renderReaderPage(await readerPageView(context, page));
    if (options.injectHtml) html = html.replace('</body>', `${options.injectHtml}</body>`);
    if (page.highlightPending || page.provisional) return sendUncached(html, 'text/html; charset=utf-8', headers);
    return send(html, 'text/html; charset=utf-8', headers);
  }

  return {
    servePage,
    async serveAny(c) {
      // Files beside the pages (images, PDFs, downloads) answer at the page URLs of their folder.
      if (looksLikeFile(c.req.path)) {
        const view = await set.resolveFile(c.req.path, viewerFor(c));
        if (view) {
          const version = c.req.query('v');
          const immutable = version !== undefined && version === fileUrlHash(view.file.contentHash);
          return sendFile(c, view, { isPrivate: isPrivateFor(set, c), immutable });
        }
      }
      return servePage(c);
    },
  };
}

/** Part of a page's Markdown twin, as `read_page` would answer the same request. */
async function serveMarkdownPart(
  c: Context<KitEnv>,
  { set, options, assets }: PageRouteParts,
  query: MarkdownReadQuery,
): Promise<Response> {
  const viewer = viewerFor(c);
  const match = await set.resolveUrl(c.req.path, viewer);
  if (match.kind === 'redirect') return redirect(c, set, match.location, match.status);
  if (match.kind === 'none') return notFound(c, set, options, await assets);
  const isPrivate = isPrivateFor(set, c) || !originVouchedFor(c, options);
  try {
    const read = await set.readPage({ ...match.ref, ...query, staleness: true }, viewer);
    return sendCached(c, read.text, {
      contentType: 'text/markdown; charset=utf-8',
      isPrivate,
      headers: { Vary: PAGE_VARY },
    });
  } catch (error) {
    if (!isRequestError(error)) throw error;
    const status = error.code.endsWith('not_found') ? 404 : error.code === 'content.conflict' ? 409 : 400;
    return c.body(`# ${error.code}\n\n${error.message}\n`, status, {
      'Content-Type': 'text/markdown; charset=utf-8',
      'Cache-Control': isPrivate ? 'private, no-cache' : 'no-cache',
    });
  }
}

/** What a Markdown twin's query asks for, in `readPage`'s terms. */
type MarkdownReadQuery = Pick<ReadPageInput, 'section' | 'subsections' | 'maxChars' | 'cursor'>;

/**
 * The read a Markdown twin's query asks for, or null when it names none of `section` (repeat it
 * for several), `subsections`, `max_chars` and `cursor`: the whole twin. Any of them makes the
 * read budgeted, `max_chars` defaulting to the set's `agents.markdown_budget`, as for `read_page`.
 * Values are checked where `read_page`'s are, in core.
 */
function markdownReadQuery(c: Context): MarkdownReadQuery | null {
  if (!asksForMarkdownPart(c.req.url)) return null;
  const sections = c.req.queries('section') ?? [];
  const subsections = c.req.query('subsections');
  const maxChars = c.req.query('max_chars');
  const cursor = c.req.query('cursor');
  const flag = subsections?.trim().toLowerCase();
  return {
    ...(sections.length > 0 ? { section: sections } : {}),
    ...(flag === undefined ? {} : { subsections: !(flag === 'false' || flag === '0' || flag === 'no') }),
    maxChars:
      maxChars === undefined ? 'budget' : /^\d+$/.test(maxChars.trim()) ? Number(maxChars) : (maxChars as never),
    ...(cursor !== undefined ? { cursor } : {}),
  };
}

/**
 * A redirect of the page routes. The request's query string goes on to the new address (before
 * any `#fragment` of the target). Where the target depends on who asks (a signed-in reader, a
 * non-public set) the redirect is private, so a shared cache never hands staff's redirect into a
 * private version to a guest; a guest's is public but revalidated, as pages are.
 */
function redirect(c: Context, set: DocSet, location: string, status: 301 | 302 | 307 | 308): Response {
  c.header('Cache-Control', isPrivateFor(set, c) ? 'private, no-cache' : 'public, max-age=0, must-revalidate');
  return c.redirect(withQuery(location, new URL(c.req.url).search), status);
}

/**
 * `location` with a request's query string (`?tab=1`) added: after a query the target already has
 * (joined by `&`) and before its `#fragment`.
 *
 * @example
 * withQuery('/docs/queues#retries', '?tab=1'); // '/docs/queues?tab=1#retries'
 */
export function withQuery(location: string, search: string): string {
  const query = search.replace(/^\?/, '');
  if (query === '') return location;
  const hash = location.indexOf('#');
  const target = hash === -1 ? location : location.slice(0, hash);
  const fragment = hash === -1 ? '' : location.slice(hash);
  const joiner = !target.includes('?') ? '?' : target.endsWith('?') || target.endsWith('&') ? '' : '&';
  return `${target}${joiner}${query}${fragment}`;
}

async function llmsTxtUrl(set: DocSet, page: PageView): Promise<string | undefined> {
  if (!set.config.agents.llms_txt) return undefined;
  const manifest = await set.manifest();
  const home = await set.pageUrl({ version: page.ref.version, locale: page.ref.locale, path: manifest.landing });
  return `${home === '/' ? '' : home}/llms.txt`;
}
