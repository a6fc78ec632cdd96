import type { InsertPoint } from '@kit/core';
import { DERIVED_ROOT_GROUP_LABEL, localeDirection } from '@kit/core/internal';
import type { UiLanguage } from './client-config.js';
import { escapeHtml, isExternal, safeHref } from './html.js';
import { DEFAULT_READER_STRINGS, DEFAULT_READER_STRINGS_LANG, inLanguage } from './strings.js';
import type { ReaderLink, ReaderNavItem, ReaderSiteView, ReaderStrings } from './types.js';

const DAY_MS = 86_400_000;

/** What every part of a reader page is written from: the view, its strings and the time. */
export interface LayoutContext {
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
function foreignStrings(view: ReaderSiteView): LayoutContext['foreign'] {
  const page = primaryLanguage(view.lang);
  const foreign: LayoutContext['foreign'] = {};
  for (const key of Object.keys(DEFAULT_READER_STRINGS) as Array<keyof ReaderStrings>) {
    const lang = view.strings?.[key] !== undefined ? (view.stringsLang ?? view.lang) : DEFAULT_READER_STRINGS_LANG;
    if (primaryLanguage(lang) !== page) foreign[key] = { lang, dir: localeDirection(lang) };
  }
  return foreign;
}

/** An interface string as HTML: escaped and, when it is in another language than the page, isolated in it. */
export function ui(ctx: LayoutContext, key: keyof ReaderStrings, html = escapeHtml(ctx.t[key])): string {
  const foreign = ctx.foreign[key];
  return foreign ? inLanguage(foreign.lang, html) : html;
}

/** Whether English text is in another language than the page (then it needs a `<span lang dir>`). */
export function englishIsForeign(view: ReaderSiteView): boolean {
  return primaryLanguage(view.lang) !== primaryLanguage(DEFAULT_READER_STRINGS_LANG);
}

/**
 * A sidebar group label. The group Kit derives for root pages is always the English "Overview",
 * so on a page in another language it is isolated like the English interface strings.
 */
export function groupLabel(view: ReaderSiteView, label: string): string {
  const html = escapeHtml(label);
  return label === DERIVED_ROOT_GROUP_LABEL && englishIsForeign(view)
    ? inLanguage(DEFAULT_READER_STRINGS_LANG, html)
    : html;
}

/** The HTML the manifest places at an insert point, wrapped; empty when there is none. */
export function insert(view: ReaderSiteView, point: InsertPoint, className: string): string {
  const html = view.inserts?.[point];
  return html ? `<div class="kit-insert ${className}" data-insert="${point}">${html}</div>` : '';
}

/** An `<a>` with a safe target, or '' when the target is unsafe. External links open safely. */
export function link(item: ReaderLink, attrs = '', inner?: string): string {
  const href = safeHref(item.href);
  if (!href) return '';
  const external = isExternal(href) ? ' rel="noopener noreferrer"' : '';
  return `<a href="${escapeHtml(href)}"${external}${attrs}>${inner ?? escapeHtml(item.label)}</a>`;
}

function changedWithin(view: ReaderSiteView, now: number, updatedAt: string | undefined): boolean {
  if (!updatedAt || !(view.freshDays > 0)) return false;
  const time = Date.parse(updatedAt);
  return Number.isFinite(time) && now - time < view.freshDays * DAY_MS && time <= now + DAY_MS;
}

/** Whether a page shows the freshness dot in the sidebar. */
export function isFresh(ctx: LayoutContext, updatedAt: string | undefined): boolean {
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

/** The layout context of a view; `view.now` fixes the time (tests, static exports). */
export function layoutContext(view: ReaderSiteView): LayoutContext {
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
