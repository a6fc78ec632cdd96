import { LLMS_TXT_DIRECTIVE } from '@kit/core/internal';
import { type AskStrings, CLIENT_CONFIG_ID, type ReaderClientConfig } from './client-config.js';
import { escapeHtml, jsonForScript, nonceAttr, safeHref } from './html.js';
import { englishIsForeign, insert, type LayoutContext, link, ui } from './layout-context.js';
import { header, searchDialog } from './layout-header.js';
import { sidebar } from './layout-sidebar.js';
import { DEFAULT_READER_STRINGS_LANG } from './strings.js';
import { colorModeScript, themeCss } from './theme.js';
import type { ReaderSiteView, ReaderStrings } from './types.js';

/**
 * The icon when the manifest sets none. Without any `<link rel="icon">` browsers request
 * /favicon.ico on every page and log a 404; an inline SVG costs no request.
 */
const DEFAULT_FAVICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='7' fill='%230e7490'/%3E%3Cpath d='M10 8v16M10 16l10-8M13 14l8 10' stroke='white' stroke-width='3.2' stroke-linecap='round' fill='none'/%3E%3C/svg%3E";

function resolveDevServer(view: ReaderSiteView): string | null {
  const dev = view.assets.devServer?.trim();
  if (!dev) return null;
  return safeHref(dev) && /^https?:\/\//i.test(dev) ? dev.replace(/\/+$/, '') : null;
}

function head(
  ctx: LayoutContext,
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

function footer(ctx: LayoutContext): string {
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

const CLIENT_TEXT_STRINGS = [
  'searchNoResults',
  'searchUnavailable',
  'searchLoading',
  'copied',
  'copyFailed',
  'thanks',
  'feedbackFailed',
] as const satisfies ReadonlyArray<keyof ReaderClientConfig['strings'] & keyof ReaderStrings>;

function clientConfig(ctx: LayoutContext, page: { path: string | null; updatedAt: string | null }): string {
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

function askConfig(ctx: LayoutContext, endpoint: string): NonNullable<ReaderClientConfig['ask']> {
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

/** The whole document around a page's main content: head, header, footer, sidebar, search dialog and client config. */
export function shell(
  ctx: LayoutContext,
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
