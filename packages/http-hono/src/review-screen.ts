import { randomBytes, timingSafeEqual } from 'node:crypto';
import { type DocSet, isKitError, type Kit, parsePageFile, type Viewer } from '@kit/core';
import {
  canReview,
  type DiffLine,
  type DraftView,
  diffLines,
  discardDraft,
  draftFile,
  listDrafts,
  normalizePrefix,
  type PageHistory,
  pageHistory,
  publishDraft,
  type ReviewCall,
  type ReviewResult,
  restorePageChange,
  selfPublishRefusal,
} from '@kit/core/internal';
import { escapeHtml } from '@kit/render';
import { type Context, Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';

/** What the review screen of one set needs from the app that mounts it. */
export interface ReviewScreenOptions {
  kit: Kit;
  set: DocSet;
  viewerOf: (c: Context) => Viewer;
  /** URL of the reader stylesheet. */
  stylesheet: () => Promise<string>;
}

const CSRF_COOKIE = 'kit_review_csrf';
/** A drafted file opened on its own runs nothing: no script, no loads, sandboxed (SVG can carry script). */
const FILE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
const CSRF_FIELD = 'csrf';
/** Largest form body read: an id, a path, a hash and the token, with room to spare. */
const MAX_FORM_BYTES = 8 * 1024;
const HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'private, no-store',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
};

/**
 * The review screen of a database set at `{prefix}/_kit/review`: the drafts waiting for a person,
 * each with its live and drafted page rendered side by side and the source diff, publish and
 * discard buttons, and a page's history with restore. Plain HTML forms that work without
 * JavaScript; each POST carries a token that must match the screen's cookie (double submit,
 * `SameSite=Strict`) and, when the browser sends one, an `Origin` of this site. Only a signed-in
 * reader the `reviewKit` gate allows sees it: anyone else (and every reader of a repository set,
 * which has no drafts) gets the reader's 404. The decisions are core's review functions, the review
 * rule included: a draft the reader wrote shows why they may not decide it instead of the buttons.
 */
export function reviewScreen(options: ReviewScreenOptions): Hono {
  const { kit, set, viewerOf } = options;
  const screen: Screen = {
    set,
    base: `${normalizePrefix(set.config.route.prefix)}/_kit/review`,
    stylesheet: options.stylesheet,
    // Core names the reader from their user (id, else e-mail), as the review rule compares them.
    callOf: (c) => ({ viewer: viewerOf(c), channel: 'web', source: 'screen', events: kit.events }),
  };
  const app = new Hono();

  // Everything under the screen is for managers only; anyone else is told nothing exists here.
  app.use('*', async (c, next) => {
    if (!(await canReview(set, { viewer: viewerOf(c), channel: 'web' }))) return c.notFound();
    await next();
  });
  app.get('/', (c) => queuePage(screen, c, null));
  // The bytes a drafted file would make live, so a reviewer sees the image before publishing it.
  app.get('/file/:id', async (c) => {
    const file = await draftFile(set, c.req.param('id'), screen.callOf(c));
    if (!file) return c.notFound();
    const name = file.name.slice(file.name.lastIndexOf('/') + 1);
    return c.body(new Uint8Array(file.bytes), 200, {
      'Content-Type': file.download ? 'application/octet-stream' : file.contentType,
      'Content-Disposition': `${file.download ? 'attachment' : 'inline'}; filename*=UTF-8''${encodeURIComponent(name)}`,
      'Content-Security-Policy': FILE_POLICY,
      'X-Content-Type-Options': 'nosniff',
      'Cross-Origin-Resource-Policy': 'same-origin',
      'Cache-Control': 'private, no-store',
    });
  });
  app.get('/history', (c) => historyPage(screen, c));
  decisionRoutes(app, screen);
  return app;
}

/** What every page of one set's review screen is made with. */
interface Screen {
  set: DocSet;
  /** The screen's URL: `{prefix}/_kit/review`. */
  base: string;
  stylesheet: () => Promise<string>;
  callOf: (c: Context) => ReviewCall;
}

type ScreenStatus = 200 | 403 | 409 | 400;

/** A page of the screen around `main`, its form token filled in. */
async function screenPage(
  { set, base, stylesheet }: Screen,
  c: Context,
  title: string,
  main: string,
  status: ScreenStatus = 200,
): Promise<Response> {
  const token = csrfToken(c, base);
  const html =
    '<!doctype html>\n<html lang="en" dir="ltr"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">' +
    `<title>${escapeHtml(title)} · ${escapeHtml(set.key)} docs</title>` +
    `<link rel="stylesheet" href="${escapeHtml(await stylesheet())}"><style>${SCREEN_CSS}</style></head>` +
    '<body class="kit-review"><a class="kit-review-skip" href="#kit-review-main">Skip to content</a>' +
    `<header class="kit-review-header"><nav aria-label="Review"><ul>` +
    `<li><a href="${escapeHtml(base)}">Drafts</a></li>` +
    `<li><a href="${escapeHtml(normalizePrefix(set.config.route.prefix) || '/')}">Back to the docs</a></li>` +
    '</ul></nav></header>' +
    `<main id="kit-review-main" class="kit-review-main" tabindex="-1">${main.replaceAll(TOKEN_SLOT, escapeHtml(token))}</main></body></html>\n`;
  return c.body(html, status, HEADERS);
}

/** The drafts waiting for review, oldest first, under the notice of the last decision. */
async function queuePage(
  screen: Screen,
  c: Context,
  notice: ReviewResult | null,
  status: ScreenStatus = 200,
): Promise<Response> {
  const { set, base } = screen;
  const call = screen.callOf(c);
  const { drafts } = await listDrafts(set, call);
  const rendered: string[] = [];
  for (const draft of drafts) {
    const refusal = selfPublishRefusal({
      draft,
      decision: 'publish',
      call,
      selfPublish: set.config.review_self_publish,
    });
    rendered.push(await draftHtml(set, base, draft, refusal));
  }
  const main =
    `<h1>Drafts waiting for review</h1>${noticeHtml(notice)}` +
    `<p>${drafts.length === 0 ? `No drafts wait for review in the "${escapeHtml(set.key)}" docs.` : `${drafts.length} draft${drafts.length === 1 ? '' : 's'} in the "${escapeHtml(set.key)}" docs, oldest first. Publishing makes a draft live for readers; discarding keeps it in the history only.`}</p>` +
    (drafts.length > 0 ? `<ol class="kit-review-drafts">${rendered.join('')}</ol>` : '') +
    historyLookup(base);
  return screenPage(screen, c, 'Review drafts', main, status);
}

/** A page's history, or the form to ask for one. */
async function historyPage(screen: Screen, c: Context): Promise<Response> {
  const { set, base } = screen;
  const path = c.req.query('path') ?? '';
  if (path.trim() === '') return screenPage(screen, c, 'Page history', `<h1>Page history</h1>${historyLookup(base)}`);
  try {
    const history = await pageHistory(
      set,
      { path, ...optional('version', c.req.query('version')), ...optional('locale', c.req.query('locale')) },
      screen.callOf(c),
    );
    return screenPage(screen, c, `History of ${history.path}`, historyHtml(base, history, null));
  } catch (error) {
    if (!isKitError(error) || error.code === 'database.unavailable') throw error;
    return screenPage(
      screen,
      c,
      'Page history',
      `<h1>Page history</h1>${noticeHtml({ outcome: 'rejected', message: error.message, draft: null, revision: null })}${historyLookup(base)}`,
      400,
    );
  }
}

/** Publish, discard and restore: POSTed forms, each checked for its token and origin first. */
function decisionRoutes(app: Hono, screen: Screen): void {
  const { set, base } = screen;
  const decide =
    (work: (c: Context, form: Record<string, string>, call: ReviewCall) => Promise<Response>) => async (c: Context) => {
      const form = await readForm(c);
      if (!form || !csrfMatches(c, form[CSRF_FIELD]) || !sameOrigin(c)) {
        return screenPage(
          screen,
          c,
          'Form expired',
          '<h1>The form expired</h1><p role="alert">This action was not carried out: the form did not come from this review screen, or it is too old. Open the review screen again and repeat the action.</p>' +
            `<p><a href="${escapeHtml(base)}">Back to the drafts</a></p>`,
          403,
        );
      }
      return work(c, form, screen.callOf(c));
    };

  app.post(
    '/publish',
    decide(async (c, form, call) => {
      const result = await publishDraft(set, form.id ?? '', call);
      return queuePage(screen, c, result, statusOf(result));
    }),
  );
  app.post(
    '/discard',
    decide(async (c, form, call) => {
      const result = await discardDraft(set, form.id ?? '', call);
      return queuePage(screen, c, result, statusOf(result));
    }),
  );
  app.post(
    '/restore',
    decide(async (c, form, call) => {
      const input = {
        path: form.path ?? '',
        ...optional('version', form.version),
        ...optional('locale', form.locale),
        ...optional('revision', form.revision),
        ...optional('based_on', form.based_on),
      };
      const result = await restorePageChange(set, input, call).catch((error: unknown): ReviewResult => {
        if (!isKitError(error) || error.code === 'database.unavailable') throw error;
        return { outcome: 'rejected', message: error.message, draft: null, revision: null };
      });
      const history = await pageHistory(set, input, call).catch(() => null);
      const status = statusOf(result);
      if (!history)
        return screenPage(
          screen,
          c,
          'Page history',
          `<h1>Page history</h1>${noticeHtml(result)}${historyLookup(base)}`,
          status,
        );
      return screenPage(screen, c, `History of ${history.path}`, historyHtml(base, history, result), status);
    }),
  );
}

/** A refusal by the review rule is 403: understood, and not this reader's to decide. */
function statusOf(result: ReviewResult): 200 | 403 | 409 | 400 {
  if (result.rule) return 403;
  return result.outcome === 'conflicted' ? 409 : result.outcome === 'rejected' ? 400 : 200;
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value !== undefined && value.trim() !== '' ? ({ [key]: value.trim() } as Record<K, string>) : {};
}

/** Placeholder for the form token, filled in once per response. */
const TOKEN_SLOT = '\u0000csrf\u0000';

function tokenField(): string {
  return `<input type="hidden" name="${CSRF_FIELD}" value="${TOKEN_SLOT}">`;
}

/** The screen's form token: the one in the browser's cookie, else a new one set now. */
function csrfToken(c: Context, base: string): string {
  const existing = getCookie(c, CSRF_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{32}$/.test(existing)) return existing;
  const token = randomBytes(24).toString('base64url');
  setCookie(c, CSRF_COOKIE, token, {
    path: base,
    httpOnly: true,
    sameSite: 'Strict',
    secure: new URL(c.req.url).protocol === 'https:',
  });
  return token;
}

function csrfMatches(c: Context, sent: string | undefined): boolean {
  const cookie = getCookie(c, CSRF_COOKIE);
  if (!cookie || !sent || cookie.length !== sent.length) return false;
  return timingSafeEqual(Buffer.from(cookie), Buffer.from(sent));
}

/** A browser names the page a form was sent from; another site's page is refused. */
function sameOrigin(c: Context): boolean {
  const origin = c.req.header('origin');
  if (origin === undefined || origin === 'null') return origin === undefined;
  return origin === new URL(c.req.url).origin;
}

async function readForm(c: Context): Promise<Record<string, string> | null> {
  const type = c.req.header('content-type') ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded')) return null;
  const length = Number(c.req.header('content-length') ?? '0');
  if (length > MAX_FORM_BYTES) return null;
  const text = await c.req.text();
  if (text.length > MAX_FORM_BYTES) return null;
  const form: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(text)) form[key] = value;
  return form;
}

function noticeHtml(result: ReviewResult | null): string {
  if (!result) return '<div role="status" class="kit-review-notice" hidden></div>';
  const role = result.outcome === 'conflicted' || result.outcome === 'rejected' ? 'alert' : 'status';
  const rule = result.rule ? ` data-rule="${escapeHtml(result.rule)}"` : '';
  return `<div role="${role}" class="kit-review-notice kit-review-${result.outcome}" data-outcome="${result.outcome}"${rule}><strong>${escapeHtml(result.outcome[0]!.toUpperCase() + result.outcome.slice(1))}.</strong> ${escapeHtml(result.message)}</div>`;
}

function historyLookup(base: string): string {
  return (
    `<section class="kit-review-lookup" aria-labelledby="kit-review-lookup-title"><h2 id="kit-review-lookup-title">Page history</h2>` +
    `<form method="get" action="${escapeHtml(base)}/history">` +
    '<p><label for="kit-review-path">Page path</label> <input id="kit-review-path" name="path" required placeholder="guides/installation" autocomplete="off"></p>' +
    '<p><label for="kit-review-version">Version</label> <input id="kit-review-version" name="version" placeholder="default" autocomplete="off"> ' +
    '<label for="kit-review-locale">Locale</label> <input id="kit-review-locale" name="locale" placeholder="default" autocomplete="off"></p>' +
    '<p><button type="submit">Show history</button></p></form></section>'
  );
}

function describeDraft(draft: DraftView): string {
  if (draft.kind === 'manifest') return 'Change to the manifest (kit.json)';
  if (draft.kind === 'navigation') return `Change to the navigation of ${draft.version}/${draft.locale}`;
  if (draft.kind === 'asset')
    return `${draft.action === 'delete' ? 'Deletion of' : 'Change to'} the file “${draft.path}”`;
  if (draft.action === 'move' && draft.from) return `Move of page “${draft.from.path}” to “${draft.path}”`;
  const verb = draft.action === 'delete' ? 'Deletion of' : draft.action === 'restore' ? 'Restore of' : 'Change to';
  return `${verb} page “${draft.path}”`;
}

/** The drafted file itself: the image, or a link to open it (a download for types a browser would run). */
function draftFileSide(base: string, draft: DraftView): string {
  if (draft.after === null) return '<p class="kit-review-empty">No file: the draft deletes it.</p>';
  const url = escapeHtml(`${base}/file/${encodeURIComponent(draft.id)}`);
  const shown = /\.(?:png|jpe?g|gif|webp|avif|svg|ico|bmp)$/i.test(draft.path ?? '')
    ? `<p><img src="${url}" alt="The drafted file ${escapeHtml(draft.path ?? '')}" class="kit-review-image"></p>`
    : '';
  return `${shown}<pre><code>${escapeHtml(draft.after)}</code></pre><p><a href="${url}">Open the drafted file</a></p>`;
}

async function renderedSide(set: DocSet, draft: DraftView, text: string | null): Promise<string> {
  if (text === null) return `<p class="kit-review-empty">No ${draft.kind === 'asset' ? 'file' : 'page'}.</p>`;
  if (draft.kind !== 'page' || !set.renderForAgents) return `<pre><code>${escapeHtml(text)}</code></pre>`;
  const parsed = parsePageFile(text);
  try {
    const rendered = await set.renderForAgents({
      path: draft.path ?? 'index',
      version: draft.version ?? '',
      locale: draft.locale ?? '',
      frontmatter: parsed.frontmatter,
      body: parsed.body,
      title: parsed.title ?? draft.path ?? 'index',
      ...(parsed.description === undefined ? {} : { description: parsed.description }),
      contentHash: parsed.contentHash,
      bodyLine: parsed.bodyLine,
      visibility: parsed.visibility,
      problems: parsed.problems,
    });
    return `<div class="kit-prose">${rendered.html}</div>`;
  } catch {
    return `<pre><code>${escapeHtml(text)}</code></pre>`;
  }
}

function diffHtml(lines: DiffLine[]): string {
  const rows = lines.map((line) => {
    const text = escapeHtml(line.text) || ' ';
    if (line.op === '+') return `<ins><span class="kit-review-sr">Added: </span>+${text}</ins>`;
    if (line.op === '-') return `<del><span class="kit-review-sr">Removed: </span>-${text}</del>`;
    return `<span> ${text}</span>`;
  });
  return `<pre class="kit-review-diff"><code>${rows.join('\n')}</code></pre>`;
}

/**
 * One draft of the queue. `refusal` is why the review rule keeps this reader from deciding it (they
 * wrote it): it stands where the buttons would.
 */
async function draftHtml(set: DocSet, base: string, draft: DraftView, refusal: string | null): Promise<string> {
  const id = escapeHtml(draft.id);
  const titleId = `kit-draft-${id}`;
  const when = new Date(draft.created_at);
  const historyLink =
    draft.kind === 'page' && draft.path
      ? ` <a href="${escapeHtml(base)}/history?${new URLSearchParams({ path: draft.from?.path ?? draft.path, version: draft.version ?? '', locale: draft.locale ?? '' }).toString()}">History of “${escapeHtml(draft.from?.path ?? draft.path)}”</a>`
      : '';
  return (
    `<li><article class="kit-review-draft" aria-labelledby="${titleId}" data-draft="${id}">` +
    `<h2 id="${titleId}">Draft ${id}: ${escapeHtml(describeDraft(draft))}</h2>` +
    `<p class="kit-review-meta">By ${escapeHtml(draft.author ?? 'unknown')}, <time datetime="${escapeHtml(draft.created_at)}">${escapeHtml(when.toUTCString())}</time>${draft.version && draft.kind !== 'manifest' ? `, in ${escapeHtml(`${draft.version}/${draft.locale}`)}` : ''}.</p>` +
    (draft.summary ? `<p class="kit-review-summary">${escapeHtml(draft.summary)}</p>` : '') +
    (draft.stale
      ? '<p class="kit-review-stale" role="note"><strong>Stale:</strong> the live content changed since this draft was written. Publishing it will be refused as conflicted; discard it and ask for the change again.</p>'
      : '') +
    '<div class="kit-review-sides">' +
    `<section aria-label="Live, draft ${id}"><h3>Live</h3>${await renderedSide(set, draft, draft.before)}</section>` +
    `<section aria-label="Draft ${id}"><h3>Draft</h3>${draft.kind === 'asset' ? draftFileSide(base, draft) : await renderedSide(set, draft, draft.after)}</section>` +
    '</div>' +
    `<details><summary>Source changes (inline diff)</summary>${diffHtml(diffLines(draft.before, draft.after))}</details>` +
    '<div class="kit-review-actions">' +
    (refusal
      ? `<p class="kit-review-own" role="note">${escapeHtml(refusal.replace(/^Draft \S+ was not published: /, 'You may not publish or discard this draft: '))}</p>`
      : `<form method="post" action="${escapeHtml(base)}/publish">${tokenField()}<input type="hidden" name="id" value="${id}"><button type="submit" aria-describedby="${titleId}">Publish</button></form>` +
        `<form method="post" action="${escapeHtml(base)}/discard">${tokenField()}<input type="hidden" name="id" value="${id}"><button type="submit" class="kit-review-secondary" aria-describedby="${titleId}">Discard</button></form>`) +
    historyLink +
    '</div></article></li>'
  );
}

function historyHtml(base: string, history: PageHistory, notice: ReviewResult | null): string {
  const scope = { path: history.path, version: history.version, locale: history.locale };
  const hidden = Object.entries(scope)
    .map(([key, value]) => `<input type="hidden" name="${key}" value="${escapeHtml(value)}">`)
    .join('');
  const basedOn = history.current_hash
    ? `<input type="hidden" name="based_on" value="${escapeHtml(history.current_hash)}">`
    : '';
  const rows = history.revisions.map((revision) => {
    const restorable = revision.status === 'published' && revision.content_hash !== history.current_hash;
    const label = `Restore revision ${escapeHtml(revision.id)}`;
    return (
      `<tr><th scope="row">${escapeHtml(revision.id)}</th><td>${escapeHtml(revision.action)}</td><td>${escapeHtml(revision.status)}</td>` +
      `<td>${escapeHtml(revision.author ?? 'unknown')}</td><td><time datetime="${escapeHtml(revision.created_at)}">${escapeHtml(new Date(revision.created_at).toUTCString())}</time></td>` +
      `<td>${escapeHtml(revision.summary ?? '')}</td><td>${
        restorable
          ? `<form method="post" action="${escapeHtml(base)}/restore">${tokenField()}${hidden}${basedOn}<input type="hidden" name="revision" value="${escapeHtml(revision.id)}"><button type="submit">${label}</button></form>`
          : ''
      }</td></tr>`
    );
  });
  const live = history.current_hash
    ? `<p>The page is live (content hash <code>${escapeHtml(history.current_hash)}</code>).</p>`
    : `<p>The page is not live: it was deleted, or never written.</p>${
        history.revisions.some((revision) => revision.status === 'published')
          ? `<form method="post" action="${escapeHtml(base)}/restore">${tokenField()}${hidden}<button type="submit">Restore the page as it was last published</button></form>`
          : ''
      }`;
  return (
    `<h1>History of “${escapeHtml(history.path)}”</h1>${noticeHtml(notice)}` +
    `<p>Version ${escapeHtml(history.version)}, locale ${escapeHtml(history.locale)}.</p>${live}` +
    (rows.length === 0
      ? '<p>No revisions recorded.</p>'
      : `<div class="kit-review-table"><table><caption>Revisions, newest first</caption><thead><tr><th scope="col">Revision</th><th scope="col">Action</th><th scope="col">Status</th><th scope="col">Author</th><th scope="col">When</th><th scope="col">Summary</th><th scope="col"><span class="kit-review-sr">Restore</span></th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`) +
    historyLookup(base)
  );
}

const SCREEN_CSS = `
.kit-review{margin:0;font-family:var(--kit-font-sans,system-ui,sans-serif);color:var(--kit-text,#111);background:var(--kit-bg,#fff)}
.kit-review-skip{position:absolute;left:-999px}.kit-review-skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem;z-index:2}
.kit-review-header nav ul{display:flex;gap:1.5rem;list-style:none;margin:0;padding:1rem 2rem;border-bottom:1px solid #ddd}
.kit-review-main{max-width:80rem;margin:0 auto;padding:1rem 2rem 4rem}
.kit-review-drafts{list-style:none;padding:0}
.kit-review-draft{border:1px solid #ccc;border-radius:.5rem;padding:1rem 1.5rem;margin:1.5rem 0}
.kit-review-sides{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
.kit-review-sides>section{border:1px solid #e2e2e2;border-radius:.375rem;padding:.5rem 1rem;overflow:auto;max-height:36rem}
@media (max-width:50rem){.kit-review-sides{grid-template-columns:1fr}}
.kit-review-diff{overflow:auto;padding:.5rem;background:#f6f6f6;border-radius:.375rem}
.kit-review-diff ins{display:block;text-decoration:none;background:#dafbe1;color:#0a3d1b}
.kit-review-diff del{display:block;text-decoration:none;background:#ffebe9;color:#6b0f0a}
.kit-review-diff span{display:block}
.kit-review-actions{display:flex;gap:1rem;align-items:center;margin-top:1rem;flex-wrap:wrap}
.kit-review-actions form{margin:0}
.kit-review button{font:inherit;padding:.45rem 1rem;border-radius:.375rem;border:1px solid #1f4fbf;background:#1f4fbf;color:#fff;cursor:pointer}
.kit-review button.kit-review-secondary{background:#fff;color:#8a1c12;border-color:#8a1c12}
.kit-review button:focus-visible,.kit-review a:focus-visible,.kit-review input:focus-visible,.kit-review summary:focus-visible{outline:3px solid #f5a623;outline-offset:2px}
.kit-review-notice{padding:.75rem 1rem;border-radius:.375rem;margin:1rem 0;border:1px solid #9bc59d;background:#eef8ee}
.kit-review-conflicted,.kit-review-rejected{border-color:#d9a09a;background:#fdf0ee}
.kit-review-stale,.kit-review-own{color:#7a4b00}
.kit-review-table{overflow:auto}.kit-review table{border-collapse:collapse;width:100%}
.kit-review th,.kit-review td{text-align:left;padding:.4rem .6rem;border-bottom:1px solid #e2e2e2;vertical-align:top}
.kit-review caption{text-align:left;font-weight:600;padding:.5rem 0}
.kit-review-sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.kit-review input{font:inherit;padding:.3rem .5rem}
.kit-review-image{max-width:100%;max-height:24rem;background:repeating-conic-gradient(#eee 0 25%,#fff 0 50%) 0 0/1rem 1rem}
`;
