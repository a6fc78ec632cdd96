import { escapeHtml, safeHref } from './html.js';
import { icon } from './icons.js';
import { insert, type LayoutContext, link, ui } from './layout-context.js';
import type { ReaderSiteView, ReaderVersion } from './types.js';

/** The logo and site name, linking home. */
export function brand(view: ReaderSiteView): string {
  const logo = view.logo;
  const light = logo && safeHref(logo.light);
  const dark = logo && safeHref(logo.dark);
  const images = light
    ? `<img class="kit-logo kit-logo-light" src="${escapeHtml(light)}" alt="" height="28">` +
      `<img class="kit-logo kit-logo-dark" src="${escapeHtml(dark ?? light)}" alt="" height="28">`
    : '';
  return `<a class="kit-brand" href="${escapeHtml(safeHref(view.homeUrl) ?? '/')}">${images}<span class="kit-brand-name">${escapeHtml(view.name)}</span></a>`;
}

function statusBadge(ctx: LayoutContext, status: ReaderVersion['status']): string {
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
function switcherPrefix(ctx: LayoutContext, key: 'version' | 'language'): string {
  return `<span class="kit-sr-only">${ui(ctx, key)}: </span>`;
}

/** A switcher built from `<details>`: its links navigate without JavaScript; the script adds closing. */
export function versionSwitcher(ctx: LayoutContext, idSuffix: string): string {
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

/** The language menu; empty with one language. */
export function localeSwitcher(ctx: LayoutContext, idSuffix: string): string {
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

function colorModeButton(ctx: LayoutContext): string {
  const { t } = ctx;
  return (
    `<button type="button" class="kit-icon-button kit-mode-button" data-kit-color-mode data-js-only aria-label="${escapeHtml(`${t.colorMode}: ${t.colorModeSystem}`)}">` +
    `<span class="kit-mode-icon kit-mode-icon-light">${icon('sun')}</span>` +
    `<span class="kit-mode-icon kit-mode-icon-dark">${icon('moon')}</span>` +
    `<span class="kit-mode-icon kit-mode-icon-system">${icon('monitor')}</span></button>`
  );
}

/** The server-rendered search page of the current version and locale (search without the script). */
function searchPageUrl(ctx: LayoutContext, query?: string): string | null {
  const base = ctx.view.search?.serverSearchUrl;
  if (!base) return null;
  const params = new URLSearchParams();
  if (query !== undefined) params.set('q', query);
  params.set('version', ctx.view.currentVersion);
  params.set('locale', ctx.view.currentLocale);
  return `${base}?${params.toString()}`;
}

/** Without the script the dialog cannot open: the header's search is then a link to the search page. */
function searchPageLink(ctx: LayoutContext): string {
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
export function searchForm(
  ctx: LayoutContext,
  options: { id: string; className: string; query?: string; dialog: boolean },
): string {
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

/** The site header: brand, search, navbar, switchers, color mode, repository and call to action. */
export function header(ctx: LayoutContext): string {
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

/** The search dialog the client script opens. */
export function searchDialog(ctx: LayoutContext): string {
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
