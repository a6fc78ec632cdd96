import { enhanceArticleHtml } from './article.js';
import { escapeHtml, safeHref } from './html.js';
import { icon } from './icons.js';
import {
  afterFirstH1,
  CALLOUT_TITLE_KEYS,
  feedbackWidget,
  pageMeta,
  pager,
  tocList,
  versionNotice,
} from './layout-article.js';
import { englishIsForeign, insert, layoutContext, link, ui } from './layout-context.js';
import { searchForm } from './layout-header.js';
import { pageActions } from './layout-page-actions.js';
import { shell } from './layout-shell.js';
import { findUpdatedAt } from './layout-sidebar.js';
import type { ReaderNotFoundView, ReaderPageView, ReaderSearchHit, ReaderSearchPageView } from './types.js';

/**
 * A complete, server-rendered reader page: header (logo, search, navbar, switchers, color mode,
 * repository, call to action), sidebar navigation, article with table of contents, page footer
 * (edit link, provenance, feedback, previous/next) and site footer. Works without JavaScript; the
 * client script adds search, the drawer, the color toggle, copy buttons, scroll-spy and feedback.
 *
 * Why a pure string function: HTTP adapters, static exports and tests all call the same thing.
 *
 * @example
 * const html = renderReaderPage(view);
 * return c.html(html);
 */
export function renderReaderPage(view: ReaderPageView): string {
  const ctx = layoutContext(view);
  const { t } = ctx;
  const page = view.page;
  const hasOwnH1 = /<h1[\s>]/i.test(page.html);
  const toc = tocList(page.toc);
  // Below the wide layout the table of contents folds into the article, right under the title.
  const inlineToc = toc
    ? `<details class="kit-toc-inline"><summary>${ui(ctx, 'onThisPage')}${icon('chevronDown', { size: 14 })}</summary><nav aria-label="${escapeHtml(t.onThisPage)}">${toc}</nav></details>`
    : '';
  const article = enhanceArticleHtml(page.html, t.headingAnchor, {
    englishIsForeign: englishIsForeign(view),
    calloutTitle: (english) => {
      const key = CALLOUT_TITLE_KEYS[english];
      return key ? ui(ctx, key) : undefined;
    },
  });
  // Right under the title, whether the header writes it or the page's own `# Title` does.
  const actions = pageActions(ctx, page.actions);
  const updatedAt =
    findUpdatedAt(
      view.sidebar.groups.flatMap((g) => g.items),
      page.url,
    ) ?? page.provenance?.date;
  const main =
    `<main class="kit-main" id="kit-content" tabindex="-1">` +
    `<div class="kit-content-grid${toc || view.inserts?.['toc.after'] ? '' : ' kit-no-toc'}">` +
    `<article class="kit-article">` +
    versionNotice(ctx) +
    insert(view, 'article.before', 'kit-article-before') +
    `<header class="kit-page-header">` +
    (page.group ? `<p class="kit-eyebrow">${escapeHtml(page.group)}</p>` : '') +
    (hasOwnH1 ? '' : `<h1 class="kit-page-title">${escapeHtml(page.title)}</h1>${actions}${inlineToc}`) +
    `</header>` +
    `<div class="kit-prose"${page.highlightPending ? ' data-kit-highlight-pending' : ''}>${hasOwnH1 ? afterFirstH1(article, actions + inlineToc) : article}</div>` +
    insert(view, 'article.after', 'kit-article-after') +
    `<footer class="kit-page-footer">${pageMeta(ctx, page)}${feedbackWidget(ctx)}${pager(ctx, page)}</footer>` +
    `</article>` +
    (toc || view.inserts?.['toc.after']
      ? `<aside class="kit-toc" aria-labelledby="kit-toc-title"><div class="kit-toc-inner">` +
        (toc
          ? `<h2 class="kit-toc-title" id="kit-toc-title">${ui(ctx, 'onThisPage')}</h2><nav aria-labelledby="kit-toc-title" data-kit-toc>${toc}</nav>`
          : '') +
        insert(view, 'toc.after', 'kit-toc-after') +
        `</div></aside>`
      : '') +
    `</div></main>`;
  const title = page.path === 'index' || page.title === view.name ? view.name : `${page.title} · ${view.name}`;
  return shell(ctx, {
    title,
    headExtra: { description: page.description, canonical: page.canonicalUrl, markdown: page.markdownUrl },
    activeUrl: page.url,
    main,
    page: { path: page.path, updatedAt: updatedAt ?? null },
  });
}

/**
 * The 404 page: the site's header, sidebar and footer around a message, a search box and a link
 * home, so a reader who followed a dead link can still find their way. Serve it with status 404.
 *
 * @example
 * return c.html(renderNotFoundPage({ ...siteView, requestedPath: c.req.path }), 404);
 */
export function renderNotFoundPage(view: ReaderNotFoundView): string {
  const ctx = layoutContext(view);
  const { t } = ctx;
  const search = searchForm(ctx, { id: 'kit-notfound-q', className: 'kit-notfound-search', dialog: true });
  const suggestions = (view.suggestions ?? [])
    .map((item) => link(item))
    .filter(Boolean)
    .map((a) => `<li>${a}</li>`)
    .join('');
  const main =
    `<main class="kit-main" id="kit-content" tabindex="-1"><div class="kit-notfound">` +
    `<p class="kit-notfound-code" aria-hidden="true">404</p>` +
    `<h1>${ui(ctx, 'notFoundTitle')}</h1>` +
    `<p class="kit-notfound-text">${ui(ctx, 'notFoundText')}</p>` +
    (view.requestedPath ? `<p class="kit-notfound-path"><code>${escapeHtml(view.requestedPath)}</code></p>` : '') +
    (suggestions
      ? `<nav class="kit-notfound-suggestions" aria-labelledby="kit-notfound-suggestions"><h2 id="kit-notfound-suggestions">${ui(ctx, 'notFoundSuggestions')}</h2><ul>${suggestions}</ul></nav>`
      : '') +
    search +
    `<p><a class="kit-button" href="${escapeHtml(safeHref(view.homeUrl) ?? '/')}">${icon('arrowLeft', { size: 16, flip: true })}${ui(ctx, 'backHome')}</a></p>` +
    `</div></main>`;
  return shell(ctx, {
    title: `${t.notFoundTitle} · ${view.name}`,
    headExtra: { noindex: true },
    activeUrl: null,
    main,
    page: { path: null, updatedAt: null },
  });
}

/** Hits of one page, in the order the page first ranked. */
function hitsByPage(results: ReaderSearchHit[]): Array<{ url: string; title: string; hits: ReaderSearchHit[] }> {
  const pages = new Map<string, { url: string; title: string; hits: ReaderSearchHit[] }>();
  for (const hit of results) {
    const url = hit.url.replace(/#.*$/, '');
    const page = pages.get(url) ?? { url, title: hit.title, hits: [] };
    page.hits.push(hit);
    pages.set(url, page);
  }
  return [...pages.values()];
}

/**
 * The search page, rendered on the server: what a reader without the script gets from the header's
 * search link and the 404 page's form, and a plain URL (`/docs/_kit/search?q=queues`) anyone can
 * share. Hits are grouped by page, each page once with its matching sections under it.
 *
 * @example
 * const html = renderSearchPage({ ...site, query: 'queues', results, searchAction: '/docs/_kit/search' });
 */
export function renderSearchPage(view: ReaderSearchPageView): string {
  const ctx = layoutContext(view);
  const { t } = ctx;
  const query = view.query.trim();
  const groups = hitsByPage(view.results)
    .map((page) => {
      const href = safeHref(page.url);
      if (!href) return '';
      const sections = page.hits
        .map((hit) => {
          const target = safeHref(hit.url);
          const heading = hit.heading ? `<a href="${escapeHtml(target ?? href)}">${escapeHtml(hit.heading)}</a>` : '';
          const snippet = hit.snippet ? `<p>${escapeHtml(hit.snippet)}</p>` : '';
          return heading || snippet ? `<li>${heading}${snippet}</li>` : '';
        })
        .join('');
      return `<li><h2><a href="${escapeHtml(href)}">${escapeHtml(page.title)}</a></h2>${sections ? `<ul>${sections}</ul>` : ''}</li>`;
    })
    .join('');
  const summary = query
    ? `<p class="kit-search-page-summary" role="status">${escapeHtml(t.searchResultsFor.replace('{query}', query))}</p>`
    : '';
  const main =
    `<main class="kit-main" id="kit-content" tabindex="-1"><div class="kit-search-page">` +
    `<h1>${ui(ctx, 'searchResultsTitle')}</h1>` +
    searchForm(ctx, {
      id: 'kit-search-page-q',
      className: 'kit-notfound-search kit-search-page-form',
      query,
      dialog: false,
    }) +
    summary +
    (query
      ? groups
        ? `<ol class="kit-search-page-results">${groups}</ol>`
        : `<p>${ui(ctx, 'searchNoResults')}</p>`
      : '') +
    `</div></main>`;
  return shell(ctx, {
    title: query
      ? `${t.searchResultsFor.replace('{query}', query)} · ${view.name}`
      : `${t.searchResultsTitle} · ${view.name}`,
    headExtra: { noindex: true },
    activeUrl: null,
    main,
    page: { path: null, updatedAt: null },
  });
}
