import type { KitError } from '@kit/core';
import { escapeHtml } from '@kit/render';
import type { Context } from 'hono';

/**
 * Seconds a client is asked to wait after a `database.unavailable` answer: a restarted or failed-over
 * PostgreSQL usually takes connections again within that, and the pool reconnects on the next request.
 */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Never kept by a browser or a shared cache: the next request may well succeed. */
const UNAVAILABLE_HEADERS = {
  'Cache-Control': 'no-store',
  'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS),
  Vary: 'Accept',
};

/**
 * The 503 answer to a request that needed the docs database while it could not be reached. A person
 * in a browser gets a short page (styled by the reader stylesheet at `stylesheet`, when a set was
 * found) that reloads itself after `Retry-After`; Markdown callers get Markdown; everyone else,
 * agents and API clients, JSON `{ error: 'database.unavailable', message }`.
 */
export function databaseUnavailableResponse(
  c: Context,
  error: KitError,
  shape: 'html' | 'markdown' | 'json',
  stylesheet: string | null,
): Response {
  if (shape === 'json') {
    return c.json({ error: error.code, message: error.message }, 503, UNAVAILABLE_HEADERS);
  }
  const text =
    'The docs database cannot be reached right now, most likely for a restart. Nothing is lost: try again in a few seconds.';
  if (shape === 'markdown') {
    return c.body(`# Docs briefly unavailable\n\n${text}\n`, 503, {
      ...UNAVAILABLE_HEADERS,
      'Content-Type': 'text/markdown; charset=utf-8',
    });
  }
  const html =
    '<!doctype html>\n<html lang="en" dir="ltr"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">' +
    `<meta http-equiv="refresh" content="${DATABASE_RETRY_AFTER_SECONDS}">` +
    '<title>Docs briefly unavailable</title>' +
    (stylesheet ? `<link rel="stylesheet" href="${escapeHtml(stylesheet)}">` : '') +
    '</head><body><main class="kit-main" id="kit-content"><div class="kit-notfound" data-kit-refusal="database_unavailable">' +
    '<p class="kit-notfound-code" aria-hidden="true">503</p><h1>Docs briefly unavailable</h1>' +
    `<p class="kit-notfound-text">${text} This page reloads by itself.</p>` +
    `<p class="kit-notfound-path"><code>${escapeHtml(c.req.path)}</code></p>` +
    '</div></main></body></html>\n';
  return c.body(html, 503, { ...UNAVAILABLE_HEADERS, 'Content-Type': 'text/html; charset=utf-8' });
}
