import type { TocEntry } from '@kit/core';
import { escapeHtml, safeHref } from './html.js';
import { icon } from './icons.js';
import { type LayoutContext, link, ui } from './layout-context.js';
import type { ReaderPageView, ReaderStrings } from './types.js';

/** The string key of each callout title the renderer writes. */
export const CALLOUT_TITLE_KEYS: Record<string, keyof ReaderStrings> = {
  Note: 'calloutNote',
  Tip: 'calloutTip',
  Important: 'calloutImportant',
  Warning: 'calloutWarning',
  Caution: 'calloutCaution',
};

/** The table of contents as nested lists; empty when the page has no entries. */
export function tocList(toc: TocEntry[]): string {
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

/** The page footer's edit link and provenance (date, author, commit). */
export function pageMeta(ctx: LayoutContext, page: ReaderPageView['page']): string {
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

/** The "Was this page helpful?" form, when the site takes feedback. */
export function feedbackWidget(ctx: LayoutContext): string {
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

/** Links to the previous and next pages. */
export function pager(ctx: LayoutContext, page: ReaderPageView['page']): string {
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

/** The notice on a page of a deprecated or archived version, with a link to the latest. */
export function versionNotice(ctx: LayoutContext): string {
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

/** Puts `extra` right after the article's first `</h1>`, or before the article when it has none. */
export function afterFirstH1(html: string, extra: string): string {
  if (!extra) return html;
  const end = html.search(/<\/h1\s*>/i);
  if (end < 0) return extra + html;
  const close = html.indexOf('>', end) + 1;
  return html.slice(0, close) + extra + html.slice(close);
}
