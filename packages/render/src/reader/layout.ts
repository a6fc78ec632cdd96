import {
  DERIVED_ROOT_GROUP_LABEL,
  type InsertPoint,
  LLMS_TXT_DIRECTIVE,
  localeDirection,
  type TocEntry,
} from '@kit/core';
import { enhanceArticleHtml } from './article.js';
import { type AskStrings, CLIENT_CONFIG_ID, type ReaderClientConfig, type UiLanguage } from './client-config.js';
import { escapeHtml, isExternal, jsonForScript, nonceAttr, safeHref } from './html.js';
import { icon } from './icons.js';
import { DEFAULT_READER_STRINGS, DEFAULT_READER_STRINGS_LANG, inLanguage } from './strings.js';
import { colorModeScript, themeCss } from './theme.js';
import type {
  ReaderPageActions,
  ReaderSearchHit,
  ReaderSearchPageView,
  ReaderLink,
  ReaderNavItem,
  ReaderNotFoundView,
  ReaderPageView,
  ReaderSiteView,
  ReaderStrings,
  ReaderVersion,
} from './types.js';

const DAY_MS = 86_400_000;

/**
 * The icon when the manifest sets none. Without any `<link rel="icon">` browsers request
 * /favicon.ico on every page and log a 404; an inline SVG costs no request.
 */
const DEFAULT_FAVICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='7' fill='%230e7490'/%3E%3Cpath d='M10 8v16M10 16l10-8M13 14l8 10' stroke='white' stroke-width='3.2' stroke-linecap='round' fill='none'/%3E%3C/svg%3E";

interface Context {
  view: ReaderSiteView;
  t: ReaderStrings;
  now: number;
  /** Whether freshness dots show at all: not when most of the sidebar's pages changed recently. */
  dots: boolean;
  /** The interface strings whose language is not the page's, with that language and its direction. */
  foreign: Partial<Record<keyof ReaderStrings, UiLanguage>>;
}

function strings(view: ReaderSiteView): ReaderStrings {
  return { ...DEFAULT_READER_STRINGS, ...view.strings };
}

const primaryLanguage = (tag: string) => tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';

/**
 * Which interface strings are in another language than the page: the English defaults on a page
 * in any other language, and a site's own `strings` when `stringsLang` says they are.
 */
function foreignStrings(view: ReaderSiteView): Context['foreign'] {
  const page = primaryLanguage(view.lang);
  const foreign: Context['foreign'] = {};
  for (const key of Object.keys(DEFAULT_READER_STRINGS) as Array<keyof ReaderStrings>) {
    const lang = view.strings?.[key] !== undefined ? (view.stringsLang ?? view.lang) : DEFAULT_READER_STRINGS_LANG;
    if (primaryLanguage(lang) !== page) foreign[key] = { lang, dir: localeDirection(lang) };
  }
  return foreign;
}

/** An interface string as HTML: escaped and, when it is in another language than the page, isolated in it. */
function ui(ctx: Context, key: keyof ReaderStrings, html = escapeHtml(ctx.t[key])): string {
  const foreign = ctx.foreign[key];
  return foreign ? inLanguage(foreign.lang, html) : html;
}

/** The string key of each callout title the renderer writes. */
const CALLOUT_TITLE_KEYS: Record<string, keyof ReaderStrings> = {
  Note: 'calloutNote',
  Tip: 'calloutTip',
  Important: 'calloutImportant',
  Warning: 'calloutWarning',
  Caution: 'calloutCaution',
};

/** Whether English text is in another language than the page (then it needs a `<span lang dir>`). */
function englishIsForeign(view: ReaderSiteView): boolean {
  return primaryLanguage(view.lang) !== primaryLanguage(DEFAULT_READER_STRINGS_LANG);
}

/**
 * A sidebar group label. The group Kit derives for root pages is always the English "Overview",
 * so on a page in another language it is isolated like the English interface strings.
 */
function groupLabel(view: ReaderSiteView, label: string): string {
  const html = escapeHtml(label);
  return label === DERIVED_ROOT_GROUP_LABEL && englishIsForeign(view)
    ? inLanguage(DEFAULT_READER_STRINGS_LANG, html)
    : html;
}

function insert(view: ReaderSiteView, point: InsertPoint, className: string): string {
  const html = view.inserts?.[point];
  return html ? `<div class="kit-insert ${className}" data-insert="${point}">${html}</div>` : '';
}

/** An `<a>` with a safe target, or '' when the target is unsafe. External links open safely. */
function link(item: ReaderLink, attrs = '', inner?: string): string {
  const href = safeHref(item.href);
  if (!href) return '';
  const external = isExternal(href) ? ' rel="noopener noreferrer"' : '';
  return `<a href="${escapeHtml(href)}"${external}${attrs}>${inner ?? escapeHtml(item.label)}</a>`;
}

function resolveDevServer(view: ReaderSiteView): string | null {
  const dev = view.assets.devServer?.trim();
  if (!dev) return null;
  return safeHref(dev) && /^https?:\/\//i.test(dev) ? dev.replace(/\/+$/, '') : null;
}

function head(
  ctx: Context,
  title: string,
  extra: { description?: string; canonical?: string; markdown?: string; noindex?: boolean },
): string {
  const { view } = ctx;
  const dev = resolveDevServer(view);
  const css = dev ? `${dev}/reader.css` : view.assets.css;
  const js = dev ? `${dev}/reader.js` : view.assets.js;
  const nonce = nonceAttr(view.cspNonce);
  const description = extra.description ?? view.description;
  const parts = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    description ? `<meta name="description" content="${escapeHtml(description)}">` : '',
    extra.noindex ? '<meta name="robots" content="noindex">' : '',
    '<meta name="color-scheme" content="light dark">',
    '<meta name="generator" content="Kit">',
    `<meta property="og:title" content="${escapeHtml(title)}">`,
    `<meta property="og:site_name" content="${escapeHtml(view.name)}">`,
    description ? `<meta property="og:description" content="${escapeHtml(description)}">` : '',
    extra.canonical ? `<link rel="canonical" href="${escapeHtml(extra.canonical)}">` : '',
    extra.canonical ? `<meta property="og:url" content="${escapeHtml(extra.canonical)}">` : '',
    extra.markdown ? `<link rel="alternate" type="text/markdown" href="${escapeHtml(extra.markdown)}">` : '',
    view.llmsTxtUrl ? `<link rel="describedby" type="text/plain" href="${escapeHtml(view.llmsTxtUrl)}">` : '',
    `<link rel="icon" href="${escapeHtml((view.favicon && safeHref(view.favicon)) || DEFAULT_FAVICON)}">`,
    `<script${nonce}>${colorModeScript(view.theme.mode)}</script>`,
    `<link rel="stylesheet" href="${escapeHtml(css)}">`,
    `<style${nonce}>${themeCss(view.theme)}</style>`,
    ...(view.stylesheets ?? []).map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
    `<script type="module" src="${escapeHtml(js)}"></script>`,
    dev
      ? `<script${nonce}>new EventSource(${JSON.stringify(`${dev}/esbuild`)}).addEventListener('change',function(){location.reload()})</script>`
      : '',
    view.analytics ?? '',
  ];
  return `<head>\n${parts.filter(Boolean).join('\n')}\n</head>`;
}

function brand(view: ReaderSiteView): string {
  const logo = view.logo;
  const light = logo && safeHref(logo.light);
  const dark = logo && safeHref(logo.dark);
  const images = light
    ? `<img class="kit-logo kit-logo-light" src="${escapeHtml(light)}" alt="" height="28">` +
      `<img class="kit-logo kit-logo-dark" src="${escapeHtml(dark ?? light)}" alt="" height="28">`
    : '';
  return `<a class="kit-brand" href="${escapeHtml(safeHref(view.homeUrl) ?? '/')}">${images}<span class="kit-brand-name">${escapeHtml(view.name)}</span></a>`;
}

function statusBadge(ctx: Context, status: ReaderVersion['status']): string {
  if (status === 'deprecated' || status === 'archived') {
    return `<span class="kit-badge kit-badge-warning">${icon('warning', { size: 12 })}${ui(ctx, status)}</span>`;
  }
  return '';
}

/**
 * The hidden prefix of a switcher's `<summary>` ("Version: "). The summary takes its name from
 * its content rather than an `aria-label`, so the name always holds the visible label and badge
 * (WCAG 2.5.3: a voice-control user says what they see).
 */
function switcherPrefix(ctx: Context, key: 'version' | 'language'): string {
  return `<span class="kit-sr-only">${ui(ctx, key)}: </span>`;
}

/** A switcher built from `<details>`: its links navigate without JavaScript; the script adds closing. */
function versionSwitcher(ctx: Context, idSuffix: string): string {
  const { view } = ctx;
  if (view.versions.length < 2) return '';
  const current = view.versions.find((v) => v.id === view.currentVersion) ?? view.versions[0]!;
  const items = view.versions
    .map((version) => {
      const href = safeHref(version.url);
      if (!href) return '';
      const currentAttr = version.id === current.id ? ' aria-current="true"' : '';
      return `<li><a href="${escapeHtml(href)}"${currentAttr}><bdi>${escapeHtml(version.label)}</bdi>${statusBadge(ctx, version.status)}</a></li>`;
    })
    .join('');
  return (
    `<details class="kit-switcher kit-version-switcher" data-kit-switcher>` +
    `<summary id="kit-version-${idSuffix}">${switcherPrefix(ctx, 'version')}` +
    `<bdi class="kit-switcher-label">${escapeHtml(current.label)}</bdi>${statusBadge(ctx, current.status)}${icon('chevronDown', { size: 14 })}</summary>` +
    `<ul class="kit-switcher-menu" aria-labelledby="kit-version-${idSuffix}">${items}</ul></details>`
  );
}

function localeSwitcher(ctx: Context, idSuffix: string): string {
  const { view } = ctx;
  if (view.locales.length < 2) return '';
  const current = view.locales.find((l) => l.code === view.currentLocale) ?? view.locales[0]!;
  const items = view.locales
    .map((locale) => {
      const href = safeHref(locale.url);
      if (!href) return '';
      const currentAttr = locale.code === current.code ? ' aria-current="true"' : '';
      return `<li><a href="${escapeHtml(href)}" hreflang="${escapeHtml(locale.code)}" lang="${escapeHtml(locale.code)}" dir="${locale.dir}"${currentAttr}>${escapeHtml(locale.label)}</a></li>`;
    })
    .join('');
  return (
    `<details class="kit-switcher kit-locale-switcher" data-kit-switcher>` +
    `<summary id="kit-locale-${idSuffix}">${switcherPrefix(ctx, 'language')}` +
    `${icon('globe', { size: 16 })}<span class="kit-switcher-label">${escapeHtml(current.label)}</span>${icon('chevronDown', { size: 14 })}</summary>` +
    `<ul class="kit-switcher-menu" aria-labelledby="kit-locale-${idSuffix}">${items}</ul></details>`
  );
}

function colorModeButton(ctx: Context): string {
  const { t } = ctx;
  return (
    `<button type="button" class="kit-icon-button kit-mode-button" data-kit-color-mode data-js-only aria-label="${escapeHtml(`${t.colorMode}: ${t.colorModeSystem}`)}">` +
    `<span class="kit-mode-icon kit-mode-icon-light">${icon('sun')}</span>` +
    `<span class="kit-mode-icon kit-mode-icon-dark">${icon('moon')}</span>` +
    `<span class="kit-mode-icon kit-mode-icon-system">${icon('monitor')}</span></button>`
  );
}

/** The server-rendered search page of the current version and locale (search without the script). */
function searchPageUrl(ctx: Context, query?: string): string | null {
  const base = ctx.view.search?.serverSearchUrl;
  if (!base) return null;
  const params = new URLSearchParams();
  if (query !== undefined) params.set('q', query);
  params.set('version', ctx.view.currentVersion);
  params.set('locale', ctx.view.currentLocale);
  return `${base}?${params.toString()}`;
}

/** Without the script the dialog cannot open: the header's search is then a link to the search page. */
function searchPageLink(ctx: Context): string {
  const href = searchPageUrl(ctx);
  if (!href) return '';
  return (
    `<a class="kit-search-button kit-search-page-link" href="${escapeHtml(href)}" data-no-js-only>` +
    `${icon('search', { size: 16 })}<span class="kit-search-label">${ui(ctx, 'search')}</span></a>`
  );
}

/**
 * A search form that works without the script: a GET to the search page, in the reader's version
 * and locale. With the script, a `data-kit-search-form` form opens the dialog instead.
 */
function searchForm(ctx: Context, options: { id: string; className: string; query?: string; dialog: boolean }): string {
  const { view, t } = ctx;
  const action = view.search?.serverSearchUrl;
  if (!action) return '';
  return (
    `<form class="${options.className}" role="search" method="get" action="${escapeHtml(action)}"${options.dialog ? ' data-kit-search-form' : ''}>` +
    `<label for="${options.id}" class="kit-sr-only">${ui(ctx, 'search')}</label>` +
    `${icon('search')}<input id="${options.id}" name="q" type="search" placeholder="${escapeHtml(t.searchPlaceholder)}" autocomplete="off"${options.query ? ` value="${escapeHtml(options.query)}"` : ''}>` +
    `<input type="hidden" name="version" value="${escapeHtml(view.currentVersion)}">` +
    `<input type="hidden" name="locale" value="${escapeHtml(view.currentLocale)}">` +
    `<button type="submit" class="kit-button kit-button-primary">${ui(ctx, 'search')}</button></form>`
  );
}

function header(ctx: Context): string {
  const { view, t } = ctx;
  const repository = safeHref(view.repositoryUrl);
  const navLinks = view.navbar.links
    .filter((item) => !repository || item.href !== view.repositoryUrl)
    .map((item) => link(item))
    .filter(Boolean)
    .map((a) => `<li>${a}</li>`)
    .join('');
  const cta = view.navbar.cta ? link(view.navbar.cta, ' class="kit-cta"') : '';
  const searchButton = view.search
    ? `<button type="button" class="kit-search-button" data-kit-search-open data-js-only aria-haspopup="dialog" aria-keyshortcuts="/ Control+K Meta+K" aria-label="${escapeHtml(ctx.t.search)}">` +
      `${icon('search', { size: 16 })}<span class="kit-search-label">${ui(ctx, 'search')}</span><kbd class="kit-kbd">/</kbd></button>` +
      searchPageLink(ctx)
    : '';
  return (
    `<header class="kit-header">` +
    `<div class="kit-header-start">` +
    `<button type="button" class="kit-icon-button kit-menu-button" data-kit-menu aria-controls="kit-sidebar" aria-expanded="false" aria-label="${escapeHtml(t.menu)}">${icon('menu')}</button>` +
    `${brand(view)}</div>` +
    `<div class="kit-header-search">${searchButton}</div>` +
    `<div class="kit-header-end">` +
    (navLinks ? `<nav class="kit-navbar" aria-label="${escapeHtml(view.name)}"><ul>${navLinks}</ul></nav>` : '') +
    insert(view, 'header.actions', 'kit-header-actions') +
    `<div class="kit-header-switchers">${versionSwitcher(ctx, 'header')}${localeSwitcher(ctx, 'header')}</div>` +
    colorModeButton(ctx) +
    (repository
      ? `<a class="kit-icon-button kit-repo-link" href="${escapeHtml(repository)}" rel="noopener noreferrer" aria-label="${escapeHtml(t.repository)}">${icon('github')}</a>`
      : '') +
    (cta ? `<span class="kit-cta-wrap">${cta}</span>` : '') +
    `</div></header>`
  );
}

function changedWithin(view: ReaderSiteView, now: number, updatedAt: string | undefined): boolean {
  if (!updatedAt || !(view.freshDays > 0)) return false;
  const time = Date.parse(updatedAt);
  return Number.isFinite(time) && now - time < view.freshDays * DAY_MS && time <= now + DAY_MS;
}

function isFresh(ctx: Context, updatedAt: string | undefined): boolean {
  return ctx.dots && changedWithin(ctx.view, ctx.now, updatedAt);
}

/**
 * A dot marks a page that changed more recently than the rest. When more than half of the dated
 * pages in the sidebar changed within `fresh_days` (a fresh clone, a bulk edit, a new set), dots
 * would cover the sidebar and say nothing, so none show.
 */
function dotsShown(view: ReaderSiteView, now: number): boolean {
  if (!(view.freshDays > 0)) return false;
  let dated = 0;
  let fresh = 0;
  const walk = (items: ReaderNavItem[]) => {
    for (const item of items) {
      if (item.kind === 'group') walk(item.items);
      else if (item.kind === 'page' && item.updatedAt) {
        dated += 1;
        if (changedWithin(view, now, item.updatedAt)) fresh += 1;
      }
    }
  };
  for (const group of view.sidebar.groups) walk(group.items);
  return fresh * 2 <= dated;
}

function containsActive(items: ReaderNavItem[], activeUrl: string | null): boolean {
  return items.some((item) =>
    item.kind === 'page'
      ? item.url === activeUrl
      : item.kind === 'group'
        ? containsActive(item.items, activeUrl)
        : false,
  );
}

function navItems(ctx: Context, items: ReaderNavItem[], activeUrl: string | null): string {
  return items
    .map((item) => {
      if (item.kind === 'link') {
        const href = safeHref(item.href);
        if (!href) return '';
        return `<li><a class="kit-nav-link kit-nav-external" href="${escapeHtml(href)}" rel="noopener noreferrer">${escapeHtml(item.label)}${icon('external', { size: 12 })}</a></li>`;
      }
      if (item.kind === 'group') {
        const open = containsActive(item.items, activeUrl) ? ' open' : '';
        return (
          `<li><details class="kit-nav-group"${open}><summary>${icon('chevron', { size: 14, flip: true })}<span>${escapeHtml(item.label)}</span></summary>` +
          `<ul>${navItems(ctx, item.items, activeUrl)}</ul></details></li>`
        );
      }
      const href = safeHref(item.url);
      if (!href) return '';
      const active = item.url === activeUrl ? ' aria-current="page"' : '';
      const updated = item.updatedAt && ctx.dots ? ` data-updated="${escapeHtml(item.updatedAt)}"` : '';
      const fresh = isFresh(ctx, item.updatedAt)
        ? `<span class="kit-fresh-dot" data-kit-fresh title="${escapeHtml(ctx.t.newPage)}"><span class="kit-sr-only">${ui(ctx, 'newPage', escapeHtml(`(${ctx.t.newPage})`))}</span></span>`
        : '';
      return `<li><a class="kit-nav-link" href="${escapeHtml(href)}" data-path="${escapeHtml(item.path)}"${updated}${active}><span>${escapeHtml(item.title)}</span>${fresh}</a></li>`;
    })
    .join('');
}

function sidebar(ctx: Context, activeUrl: string | null): string {
  const { view, t } = ctx;
  const tabs = view.sidebar.tabs?.length
    ? `<ul class="kit-nav-tabs">${view.sidebar.tabs
        .map((tab) => {
          const current = tab.active ? ' aria-current="true"' : '';
          return `<li>${link({ label: tab.label, href: tab.url }, current)}</li>`;
        })
        .join('')}</ul>`
    : '';
  const groups = view.sidebar.groups
    .map(
      (group, index) =>
        `<section class="kit-nav-section" aria-labelledby="kit-nav-${index}"><h2 class="kit-nav-title" id="kit-nav-${index}">${groupLabel(view, group.label)}</h2>` +
        `<ul>${navItems(ctx, group.items, activeUrl)}</ul></section>`,
    )
    .join('');
  const switchers = versionSwitcher(ctx, 'drawer') + localeSwitcher(ctx, 'drawer');
  // Phones have no room for the call to action in the header: it leads the drawer instead.
  const cta = view.navbar.cta ? link(view.navbar.cta, ' class="kit-cta kit-drawer-cta"') : '';
  const navbarLinks = view.navbar.links
    .filter((item) => item.href !== view.repositoryUrl)
    .map((item) => link(item))
    .filter(Boolean)
    .map((a) => `<li>${a}</li>`)
    .join('');
  return (
    `<div class="kit-backdrop" data-kit-backdrop hidden></div>` +
    `<aside class="kit-sidebar" id="kit-sidebar" aria-label="${escapeHtml(t.navigation)}">` +
    `<div class="kit-drawer-head">${brand(view)}<button type="button" class="kit-icon-button" data-kit-menu-close aria-label="${escapeHtml(t.close)}">${icon('close')}</button></div>` +
    `<div class="kit-sidebar-inner">` +
    (switchers || navbarLinks || cta
      ? `<div class="kit-drawer-extra">${cta}${switchers ? `<div class="kit-drawer-switchers">${switchers}</div>` : ''}${navbarLinks ? `<ul class="kit-drawer-links">${navbarLinks}</ul>` : ''}</div>`
      : '') +
    insert(view, 'sidebar.before', 'kit-sidebar-before') +
    `<nav class="kit-nav" aria-label="${escapeHtml(t.navigation)}">${tabs}${groups}</nav>` +
    insert(view, 'sidebar.after', 'kit-sidebar-after') +
    `</div></aside>`
  );
}

function tocList(toc: TocEntry[]): string {
  const entries = toc.filter((entry) => entry.depth >= 2 && entry.depth <= 3);
  if (!entries.length) return '';
  return `<ul>${entries
    .map(
      (entry) =>
        `<li class="kit-toc-depth-${entry.depth}"><a href="#${escapeHtml(encodeURIComponent(entry.id).replace(/%2F/gi, '/'))}" data-kit-toc-link>${escapeHtml(entry.text)}</a></li>`,
    )
    .join('')}</ul>`;
}

function formatDate(iso: string, lang: string): string {
  const time = Date.parse(iso);
  if (!Number.isFinite(time)) return iso;
  try {
    return new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' }).format(time);
  } catch {
    return new Date(time).toISOString().slice(0, 10);
  }
}

function pageMeta(ctx: Context, page: ReaderPageView['page']): string {
  const { view } = ctx;
  const parts: string[] = [];
  const edit = safeHref(page.editUrl);
  if (edit) {
    parts.push(
      `<a class="kit-edit-link" href="${escapeHtml(edit)}" rel="noopener noreferrer">${icon('edit', { size: 15 })}${ui(ctx, 'editPage')}</a>`,
    );
  }
  const provenance = page.provenance;
  if (provenance && (provenance.date || provenance.author || provenance.commit)) {
    const bits: string[] = [];
    if (provenance.date) {
      bits.push(
        `${ui(ctx, 'lastUpdated')} <time datetime="${escapeHtml(provenance.date)}">${escapeHtml(formatDate(provenance.date, view.lang))}</time>`,
      );
    }
    if (provenance.author)
      bits.push(`${ui(ctx, 'by')} <span class="kit-author">${escapeHtml(provenance.author)}</span>`);
    if (provenance.commit) {
      const short = escapeHtml(provenance.commit.slice(0, 7));
      const commitUrl = safeHref(provenance.commitUrl);
      bits.push(
        commitUrl
          ? `<a class="kit-commit" href="${escapeHtml(commitUrl)}" rel="noopener noreferrer"><code>${short}</code></a>`
          : `<code class="kit-commit">${short}</code>`,
      );
    }
    parts.push(`<p class="kit-provenance">${bits.join(' ')}</p>`);
  }
  return parts.length ? `<div class="kit-page-meta">${parts.join('')}</div>` : '';
}

function feedbackWidget(ctx: Context): string {
  const { view } = ctx;
  if (!view.feedback.enabled) return '';
  return (
    `<section class="kit-feedback" data-kit-feedback data-js-only aria-labelledby="kit-feedback-title">` +
    `<h2 class="kit-feedback-title" id="kit-feedback-title">${ui(ctx, 'helpfulQuestion')}</h2>` +
    `<div class="kit-feedback-choices">` +
    `<button type="button" class="kit-button" data-helpful="true" aria-pressed="false">${icon('thumbUp', { size: 16 })}${ui(ctx, 'yes')}</button>` +
    `<button type="button" class="kit-button" data-helpful="false" aria-pressed="false">${icon('thumbDown', { size: 16 })}${ui(ctx, 'no')}</button>` +
    `</div>` +
    `<form class="kit-feedback-form" hidden>` +
    `<label for="kit-feedback-comment">${ui(ctx, 'commentLabel')}</label>` +
    `<textarea id="kit-feedback-comment" name="comment" rows="3" maxlength="2000"></textarea>` +
    `<button type="submit" class="kit-button kit-button-primary">${ui(ctx, 'send')}</button>` +
    `</form>` +
    `<p class="kit-feedback-status" role="status" aria-live="polite" tabindex="-1"></p>` +
    `</section>`
  );
}

function pager(ctx: Context, page: ReaderPageView['page']): string {
  const { t } = ctx;
  const prev = page.prev && safeHref(page.prev.href);
  const next = page.next && safeHref(page.next.href);
  if (!prev && !next) return '';
  return (
    `<nav class="kit-pager" aria-label="${escapeHtml(`${t.previous} / ${t.next}`)}">` +
    (prev
      ? `<a class="kit-pager-prev" href="${escapeHtml(prev)}" rel="prev"><span class="kit-pager-dir">${icon('arrowLeft', { size: 14, flip: true })}${ui(ctx, 'previous')}</span><span class="kit-pager-title">${escapeHtml(page.prev!.label)}</span></a>`
      : '<span></span>') +
    (next
      ? `<a class="kit-pager-next" href="${escapeHtml(next)}" rel="next"><span class="kit-pager-dir">${ui(ctx, 'next')}${icon('arrowRight', { size: 14, flip: true })}</span><span class="kit-pager-title">${escapeHtml(page.next!.label)}</span></a>`
      : '') +
    `</nav>`
  );
}

function versionNotice(ctx: Context): string {
  const { view, t } = ctx;
  const current = view.versions.find((v) => v.id === view.currentVersion);
  if (!current || (current.status !== 'deprecated' && current.status !== 'archived')) return '';
  const latest =
    view.versions.find((v) => v.default && v.id !== current.id) ?? view.versions.find((v) => v.id !== current.id);
  const message = escapeHtml(t.oldVersionNotice)
    .replace('{version}', `<strong><bdi>${escapeHtml(current.label)}</bdi></strong>`)
    .replace('{status}', escapeHtml(t[current.status].toLowerCase()));
  const latestLink = latest ? link({ label: t.latestVersion, href: latest.url }, '', ui(ctx, 'latestVersion')) : '';
  return `<div class="kit-version-notice" role="note">${icon('warning', { size: 16 })}<p>${ui(ctx, 'oldVersionNotice', message)} ${latestLink}</p></div>`;
}

function footer(ctx: Context): string {
  const { view } = ctx;
  const links = view.footer.links
    .map((item) => link(item))
    .filter(Boolean)
    .map((a) => `<li>${a}</li>`)
    .join('');
  const credit = view.footer.credit
    ? `<p class="kit-credit">${ui(ctx, 'credit')} <a href="https://kit.dev" rel="noopener">Kit</a></p>`
    : '';
  return (
    `<footer class="kit-footer">` +
    insert(view, 'footer', 'kit-footer-insert') +
    `<div class="kit-footer-row">` +
    (view.footer.text ? `<p class="kit-footer-text">${escapeHtml(view.footer.text)}</p>` : '') +
    (links ? `<nav aria-label="Footer"><ul class="kit-footer-links">${links}</ul></nav>` : '') +
    credit +
    `</div></footer>`
  );
}

function searchDialog(ctx: Context): string {
  const { view, t } = ctx;
  if (!view.search) return '';
  return (
    `<dialog class="kit-search-dialog" id="kit-search" aria-labelledby="kit-search-label">` +
    `<div class="kit-search-panel">` +
    `<form class="kit-search-form" role="search" method="dialog">` +
    `<label id="kit-search-label" for="kit-search-input" class="kit-sr-only">${ui(ctx, 'search')}</label>` +
    `${icon('search')}` +
    `<input id="kit-search-input" type="search" autocomplete="off" spellcheck="false" placeholder="${escapeHtml(t.searchPlaceholder)}" role="combobox" aria-expanded="false" aria-controls="kit-search-results" aria-autocomplete="list">` +
    // Named by its content ("Close Esc") so the name holds the visible "Esc" key.
    `<button type="button" class="kit-search-close" data-kit-search-close><span class="kit-sr-only">${ui(ctx, 'close')} </span><kbd class="kit-kbd">Esc</kbd></button>` +
    `</form>` +
    (view.ask
      ? // Opens the chat panel, a chunk of the reader script loaded on this first use.
        `<button type="button" class="kit-ask-open" data-kit-ask-open>${icon('sparkle', { size: 16 })}<span>${ui(ctx, 'askAi')}</span></button>`
      : '') +
    `<ul class="kit-search-results" id="kit-search-results" role="listbox" aria-label="${escapeHtml(t.search)}"></ul>` +
    `<p class="kit-search-status" role="status" aria-live="polite"></p>` +
    `<footer class="kit-search-footer" aria-hidden="true">` +
    `<span><kbd class="kit-kbd">↑</kbd><kbd class="kit-kbd">↓</kbd> ${ui(ctx, 'searchKeyMove')}</span>` +
    `<span><kbd class="kit-kbd">↵</kbd> ${ui(ctx, 'searchKeyOpen')}</span>` +
    `<span><kbd class="kit-kbd">Esc</kbd> ${ui(ctx, 'searchKeyClose')}</span></footer>` +
    `</div></dialog>`
  );
}

const CLIENT_TEXT_STRINGS = [
  'searchNoResults',
  'searchUnavailable',
  'searchLoading',
  'copied',
  'copyFailed',
  'thanks',
  'feedbackFailed',
] as const satisfies ReadonlyArray<keyof ReaderClientConfig['strings'] & keyof ReaderStrings>;

function clientConfig(ctx: Context, page: { path: string | null; updatedAt: string | null }): string {
  const { view, t } = ctx;
  const config: ReaderClientConfig = {
    set: view.set,
    version: view.currentVersion,
    locale: view.currentLocale,
    path: page.path,
    updatedAt: page.updatedAt,
    freshDays: view.freshDays,
    mode: view.theme.mode,
    search: view.search
      ? {
          driver: view.search.driver,
          clientIndexUrl: view.search.clientIndexUrl ?? null,
          serverSearchUrl: view.search.serverSearchUrl ?? null,
        }
      : null,
    feedbackEndpoint: view.feedback.enabled ? view.feedback.endpoint : null,
    ask: view.ask && view.search ? askConfig(ctx, view.ask.endpoint) : null,
    strings: {
      searchNoResults: t.searchNoResults,
      searchUnavailable: t.searchUnavailable,
      searchLoading: t.searchLoading,
      copy: t.copy,
      copied: t.copied,
      copyFailed: t.copyFailed,
      thanks: t.thanks,
      feedbackFailed: t.feedbackFailed,
      colorModeSystem: `${t.colorMode}: ${t.colorModeSystem}`,
      colorModeLight: `${t.colorMode}: ${t.colorModeLight}`,
      colorModeDark: `${t.colorMode}: ${t.colorModeDark}`,
    },
  };
  // The strings the script writes as text (the rest go into aria-label attributes).
  const foreign: NonNullable<ReaderClientConfig['stringLanguages']> = {};
  for (const key of CLIENT_TEXT_STRINGS) {
    const language = ctx.foreign[key];
    if (language) foreign[key] = language;
  }
  if (Object.keys(foreign).length > 0) config.stringLanguages = foreign;
  return `<script type="application/json" id="${CLIENT_CONFIG_ID}">${jsonForScript(config)}</script>`;
}

const ASK_STRINGS = [
  'askAi',
  'askPlaceholder',
  'askSend',
  'askStop',
  'askNew',
  'askCopy',
  'askBack',
  'askSources',
  'askWorking',
  'askDone',
  'askUnsupported',
  'askFailed',
  'askNotice',
  'copied',
] as const satisfies ReadonlyArray<keyof AskStrings & keyof ReaderStrings>;

function askConfig(ctx: Context, endpoint: string): NonNullable<ReaderClientConfig['ask']> {
  const strings = Object.fromEntries(ASK_STRINGS.map((key) => [key, ctx.t[key]])) as unknown as AskStrings;
  // The panel is written in one language: the page's, or the strings' own when they are foreign.
  const language = ctx.foreign.askAi;
  return { endpoint, strings, ...(language ? { language } : {}) };
}

function htmlOpen(view: ReaderSiteView): string {
  // A fixed theme mode is set on the element itself, so it holds even before the head script runs.
  const mode = view.theme.mode === 'system' ? '' : ` data-mode="${view.theme.mode}"`;
  const dir = view.dir === 'rtl' ? 'rtl' : 'ltr';
  return `<!doctype html>\n<html lang="${escapeHtml(view.lang)}" dir="${dir}"${mode}>`;
}

/**
 * The llms.txt directive near the top of every page (`LLMS_TXT_DIRECTIVE` of `@kit/core`, the same
 * words as in the Markdown twin): visually hidden and hidden from assistive technology, since it
 * speaks to agents that read the HTML, and its link kept out of the tab order.
 */
function agentDirective(view: ReaderSiteView): string {
  const url = view.llmsTxtUrl && safeHref(view.llmsTxtUrl);
  if (!url) return '';
  const text =
    `${escapeHtml(LLMS_TXT_DIRECTIVE.before)}<a href="${escapeHtml(url)}" tabindex="-1">${escapeHtml(url)}</a>` +
    escapeHtml(LLMS_TXT_DIRECTIVE.after);
  const lang = englishIsForeign(view) ? ` lang="${DEFAULT_READER_STRINGS_LANG}" dir="ltr"` : '';
  return `<p class="kit-sr-only kit-agent-directive" aria-hidden="true"${lang}>${text}</p>\n`;
}

function shell(
  ctx: Context,
  input: {
    title: string;
    headExtra: Parameters<typeof head>[2];
    activeUrl: string | null;
    main: string;
    page: { path: string | null; updatedAt: string | null };
  },
): string {
  const { view } = ctx;
  // The page's own content comes before the sidebar in the document, and the stylesheet's grid puts
  // the sidebar first on screen: a reader of the text alone (an agent converting the HTML, a screen
  // reader reading on) meets the article before a hundred navigation links. Keyboard users still
  // meet the skip link first.
  return (
    `${htmlOpen(view)}\n${head(ctx, input.title, input.headExtra)}\n<body>\n` +
    `<a class="kit-skip-link" href="#kit-content">${ui(ctx, 'skipToContent')}</a>\n` +
    `${agentDirective(view)}${header(ctx)}\n<div class="kit-layout">\n` +
    `<div class="kit-body">\n${input.main}\n${footer(ctx)}\n</div>\n${sidebar(ctx, input.activeUrl)}\n</div>\n` +
    `${searchDialog(ctx)}\n${clientConfig(ctx, input.page)}\n</body>\n</html>\n`
  );
}

function context(view: ReaderSiteView): Context {
  const parsed = view.now ? Date.parse(view.now) : Number.NaN;
  const now = Number.isFinite(parsed) ? parsed : Date.now();
  return {
    view,
    t: strings(view),
    now,
    dots: dotsShown(view, now),
    foreign: foreignStrings(view),
  };
}

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
const ASSISTANTS = {
  chatgpt: {
    label: 'ChatGPT',
    url: (prompt: string) => `https://chatgpt.com/?hints=search&q=${encodeURIComponent(prompt)}`,
  },
  claude: { label: 'Claude', url: (prompt: string) => `https://claude.ai/new?q=${encodeURIComponent(prompt)}` },
} as const;

/** Cursor's install link: the server's mcp.json entry, base64 JSON (cursor.com/docs/mcp/install-links). */
function cursorInstallUrl(mcp: { name: string; url: string }): string {
  const bytes = new TextEncoder().encode(JSON.stringify({ url: mcp.url }));
  const config = btoa(String.fromCharCode(...bytes));
  return `cursor://anysphere.cursor-deeplink/mcp/install?name=${encodeURIComponent(mcp.name)}&config=${encodeURIComponent(config)}`;
}

/** VS Code's install link: the server definition as URL-encoded JSON. */
function vscodeInstallUrl(mcp: { name: string; url: string }): string {
  return `vscode:mcp/install?${encodeURIComponent(JSON.stringify({ name: mcp.name, type: 'http', url: mcp.url }))}`;
}

function actionItem(href: string, label: string, hint: string, external: boolean): string {
  const target = external ? ' target="_blank" rel="noopener noreferrer"' : '';
  return (
    `<li><a href="${escapeHtml(href)}"${target}><span class="kit-action-label">${label}${external ? icon('external', { size: 12 }) : ''}</span>` +
    `<span class="kit-action-hint">${hint}</span></a></li>`
  );
}

/**
 * The page actions beside the title: "Copy page" (a button the script shows and wires; it copies
 * the Markdown twin) and a `<details>` menu of links, so everything but copying works without
 * JavaScript: the Markdown twin, chat assistants given a prompt that points at it, and install
 * links for editors to the set's MCP endpoint.
 */
function pageActions(ctx: Context, actions: ReaderPageActions | undefined): string {
  if (!actions) return '';
  const { t } = ctx;
  const items: string[] = [];
  if (actions.markdown)
    items.push(actionItem(actions.markdownUrl, ui(ctx, 'viewMarkdown'), ui(ctx, 'viewMarkdownHint'), false));
  for (const name of actions.assistants) {
    const assistant = ASSISTANTS[name];
    const prompt = t.assistantPrompt.replace('{url}', actions.markdownUrl);
    items.push(
      actionItem(
        assistant.url(prompt),
        escapeHtml(t.openIn.replace('{assistant}', assistant.label)),
        ui(ctx, 'openInHint'),
        true,
      ),
    );
  }
  if (actions.mcp) {
    const command = `claude mcp add --transport http ${actions.mcp.name} ${actions.mcp.url}`;
    items.push(
      `<li class="kit-action-group" role="presentation"><span class="kit-action-heading">${ui(ctx, 'connectEditor')}</span></li>` +
        actionItem(
          cursorInstallUrl(actions.mcp),
          escapeHtml(t.installIn.replace('{editor}', 'Cursor')),
          escapeHtml(actions.mcp.url),
          false,
        ) +
        actionItem(
          vscodeInstallUrl(actions.mcp),
          escapeHtml(t.installIn.replace('{editor}', 'VS Code')),
          escapeHtml(actions.mcp.url),
          false,
        ) +
        `<li><button type="button" class="kit-action-copy" data-kit-copy-text="${escapeHtml(command)}" hidden><span class="kit-action-label">${ui(ctx, 'copyMcpCommand')}</span><code class="kit-action-hint" dir="ltr">${escapeHtml(command)}</code></button>` +
        `<noscript><code class="kit-action-hint" dir="ltr">${escapeHtml(command)}</code></noscript></li>`,
    );
  }
  const copy = actions.copy
    ? `<button type="button" class="kit-page-copy" data-kit-copy-page="${escapeHtml(actions.markdownUrl)}" title="${escapeHtml(t.copyPageHint)}" hidden>${icon('file', { size: 14 })}<span>${ui(ctx, 'copyPage')}</span></button>`
    : '';
  if (!copy && items.length === 0) return '';
  const menu = items.length
    ? `<details class="kit-switcher kit-page-actions-menu" data-kit-switcher>` +
      `<summary id="kit-page-actions"><span class="kit-page-actions-label">${ui(ctx, 'pageActions')}</span>${icon('chevronDown', { size: 14 })}</summary>` +
      `<ul class="kit-switcher-menu" aria-labelledby="kit-page-actions">${items.join('')}</ul></details>`
    : '';
  const status = `<span class="kit-sr-only" role="status" data-kit-actions-status></span>`;
  // A labelled nav: a set of links to this page in other forms and places, not part of its text
  // (converters that compare the page with its Markdown leave navigation out).
  return `<nav class="kit-page-actions${copy ? ' kit-has-copy' : ''}" aria-label="${escapeHtml(ctx.t.pageActions)}" data-kit-page-actions>${copy}${menu}${status}</nav>`;
}

export function renderReaderPage(view: ReaderPageView): string {
  const ctx = context(view);
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

function afterFirstH1(html: string, extra: string): string {
  if (!extra) return html;
  const end = html.search(/<\/h1\s*>/i);
  if (end < 0) return extra + html;
  const close = html.indexOf('>', end) + 1;
  return html.slice(0, close) + extra + html.slice(close);
}

function findUpdatedAt(items: ReaderNavItem[], url: string): string | undefined {
  for (const item of items) {
    if (item.kind === 'page' && item.url === url) return item.updatedAt;
    if (item.kind === 'group') {
      const found = findUpdatedAt(item.items, url);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * The 404 page: the site's header, sidebar and footer around a message, a search box and a link
 * home, so a reader who followed a dead link can still find their way. Serve it with status 404.
 *
 * @example
 * return c.html(renderNotFoundPage({ ...siteView, requestedPath: c.req.path }), 404);
 */
export function renderNotFoundPage(view: ReaderNotFoundView): string {
  const ctx = context(view);
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
  const ctx = context(view);
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
