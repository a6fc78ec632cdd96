import { escapeHtml } from '@kit/render';
import type { Context } from 'hono';

const SIGN_IN_TEXT = 'These docs are for signed-in readers.';

/**
 * Headers of every sign-in answer: never kept by a shared cache, the bearer challenge for agents,
 * and Vary because the same address answers HTML, Markdown or JSON as the caller asks.
 */
const SIGN_IN_HEADERS = {
  'Cache-Control': 'private, no-cache',
  'WWW-Authenticate': 'Bearer realm="kit"',
  Vary: 'Accept',
};

/**
 * The 401 page a person gets when a set needs a signed-in reader (the `auth` access mode, or the
 * built-in `auth` route middleware): no site name, navigation or other content of the set, only
 * the request to sign in and the address asked for. Styled by the reader stylesheet at `stylesheet`.
 */
export function signInPage(c: Context, stylesheet: string): Response {
  const html =
    '<!doctype html>\n<html lang="en" dir="ltr"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">' +
    `<title>Sign in required</title><link rel="stylesheet" href="${escapeHtml(stylesheet)}"></head>` +
    '<body><main class="kit-main" id="kit-content"><div class="kit-notfound" data-kit-refusal="sign_in_required">' +
    '<p class="kit-notfound-code" aria-hidden="true">401</p><h1>Sign in required</h1>' +
    `<p class="kit-notfound-text">${SIGN_IN_TEXT} Sign in, then open this page again.</p>` +
    `<p class="kit-notfound-path"><code>${escapeHtml(c.req.path)}</code></p>` +
    '</div></main></body></html>\n';
  return c.body(html, 401, { ...SIGN_IN_HEADERS, 'Content-Type': 'text/html; charset=utf-8' });
}

/** The Markdown form of {@link signInPage}, for a `.md` twin or an agent that asks for Markdown. */
export function signInMarkdown(c: Context): Response {
  return c.body(`# Sign in required\n\n${SIGN_IN_TEXT} Sign in, or send a valid bearer token, and ask again.\n`, 401, {
    ...SIGN_IN_HEADERS,
    'Content-Type': 'text/markdown; charset=utf-8',
  });
}

/** The JSON form of {@link signInPage}, for the search and feedback APIs and machine-read files. */
export function signInJson(c: Context): Response {
  return c.json({ error: 'unauthenticated', message: `${SIGN_IN_TEXT} Sign in or send a valid bearer token.` }, 401, {
    ...SIGN_IN_HEADERS,
  });
}
