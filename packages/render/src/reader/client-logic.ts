/**
 * The browser script's decisions that need no DOM: which search backend to use, what the
 * feedback widget posts, when a freshness dot shows, how the color toggle cycles. Shared by the
 * client bundle (`packages/render/client`) and unit-tested here.
 */
import { USER_ID_PREFIX } from '../html/sanitize.js';
import type { ReaderClientConfig } from './client-config.js';

/** One result as the search result JSON names its fields (only what the dialog shows is required). */
export interface ClientSearchHit {
  title: string;
  url: string;
  heading?: string | null;
  snippet?: string | null;
  description?: string | null;
}

/**
 * A browser-side query over a serialized client index, e.g. `queryClientIndex` from
 * `@kit/search/client`. Bundled in by `buildReaderAssets({ clientSearch })`.
 */
export type ClientIndexQuery = (
  serialized: string,
  query: string,
  limit: number,
) => ClientSearchHit[] | Promise<ClientSearchHit[]>;

/** Searches; `prepare`, when there is one, starts the download and decoding before the first query. */
export type SearchBackend = ((query: string, limit: number) => Promise<ClientSearchHit[]>) & { prepare?: () => void };

/** `GET <serverSearchUrl>?q=&version=&locale=` for the current version and locale. */
export function serverSearchRequestUrl(base: string, query: string, version: string, locale: string): string {
  const url = new URL(base, globalThis.location?.href ?? 'http://localhost/');
  url.searchParams.set('q', query);
  url.searchParams.set('version', version);
  url.searchParams.set('locale', locale);
  return url.toString();
}

function serverBackend(config: ReaderClientConfig, base: string): SearchBackend {
  return async (query, limit) => {
    const response = await fetch(serverSearchRequestUrl(base, query, config.version, config.locale), {
      headers: { accept: 'application/json' },
    });
    if (!response.ok) throw new Error(`search answered ${response.status}`);
    const body = (await response.json()) as { results?: ClientSearchHit[] };
    return (body.results ?? []).slice(0, limit);
  };
}

/**
 * The `format` the search-index route answers instead of an index over `search.budget_kb`
 * (`SERVER_SEARCH_FORMAT` of @kit/search, which decides it); repeated here because this module runs
 * in the browser bundle, which loads neither @kit/search nor @kit/core before it has an index.
 */
export const SERVER_SEARCH_FORMAT = 'kit-search-server/1';

/**
 * True when what the index URL answered is the engine's pointer to server search rather than an
 * index. Only a short body is parsed: an index is never that small, and a large one is not parsed twice.
 */
export function isServerSearchPointer(body: string): boolean {
  if (body.length > 1024 || !body.includes(SERVER_SEARCH_FORMAT)) return false;
  try {
    return (JSON.parse(body) as { format?: unknown }).format === SERVER_SEARCH_FORMAT;
  } catch {
    return false;
  }
}

/**
 * Picks how the dialog searches: the client index when the driver is `client`, the bundle has a
 * query function and an index URL is known (the index downloads once, on the first query); else
 * the server URL; else null, and the dialog says search is unavailable. A client index that fails
 * to download falls back to the server URL when there is one. When the index URL answers the
 * engine's pointer to server search (the index is over the set's budget), every query from then
 * on goes to the server URL, and the client search engine is never loaded.
 */
export function chooseSearchBackend(
  config: ReaderClientConfig,
  queryClientIndex: ClientIndexQuery | undefined,
  fetchText: (url: string) => Promise<string> = defaultFetchText,
  prepareClientIndex?: (serialized: string) => void,
): SearchBackend | null {
  const search = config.search;
  if (!search) return null;
  const server = search.serverSearchUrl ? serverBackend(config, search.serverSearchUrl) : null;
  if (search.driver === 'client' && queryClientIndex && search.clientIndexUrl) {
    const indexUrl = search.clientIndexUrl;
    let index: Promise<string> | null = null;
    const backend: SearchBackend = async (query, limit) => {
      index ??= fetchText(indexUrl);
      let serialized: string;
      try {
        serialized = await index;
      } catch (error) {
        index = null;
        if (server) return server(query, limit);
        throw error;
      }
      if (isServerSearchPointer(serialized)) {
        if (server) return server(query, limit);
        throw new Error('the search index points to server search, and this page names no server search URL');
      }
      return await queryClientIndex(serialized, query, limit);
    };
    // Opening the dialog downloads and decodes the index while the reader types, so the first
    // query does not wait for the download, the parse and the ranking model.
    backend.prepare = () => {
      if (index) return;
      index = fetchText(indexUrl);
      index.then(
        (serialized) => {
          if (!isServerSearchPointer(serialized)) prepareClientIndex?.(serialized);
        },
        () => {
          index = null;
        },
      );
    };
    return backend;
  }
  return server;
}

async function defaultFetchText(url: string): Promise<string> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`search index answered ${response.status}`);
  return response.text();
}

/** Escapes text for the search results markup the dialog builds. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

// Words a question is made of rather than what it asks about: marking them marks half the snippet.
const UNMARKED_WORDS = new Set(
  'a an and are as at be by can do does for from how i in is it of on or the to what when where which who why with you your'.split(
    ' ',
  ),
);

/**
 * Escapes a snippet and marks the query's words in it, where a word of the snippet begins: a
 * query word of three letters or more also marks the words it starts (`rout` marks "routing"), a
 * shorter one only itself, and the little words of a question ("how do I") none, so "do" never
 * lights up inside "does".
 */
export function highlightSnippet(snippet: string, query: string): string {
  const words = [
    ...new Set(
      query
        .toLowerCase()
        .split(/\s+/u)
        // Punctuation around a word ("jobs?") is not part of it; inside one ("a.b") it is.
        .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
        .filter((word) => word.length > 1 && !UNMARKED_WORDS.has(word)),
    ),
  ]
    .sort((a, b) => b.length - a.length)
    .map((word) => {
      const text = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      return word.length >= 3 ? text : `${text}(?![\\p{L}\\p{N}])`;
    });
  if (!words.length) return escapeHtml(snippet);
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.join('|')})`, 'giu');
  let out = '';
  let from = 0;
  for (const match of snippet.matchAll(pattern)) {
    out += `${escapeHtml(snippet.slice(from, match.index))}<mark>${escapeHtml(match[0])}</mark>`;
    from = match.index + match[0].length;
  }
  return out + escapeHtml(snippet.slice(from));
}

/** Result links may be paths or http(s) URLs, never `javascript:` and the like. */
export function isSafeUrl(url: string): boolean {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url.trim());
  return !scheme || /^https?$/i.test(scheme[1]!);
}

const DAY_MS = 86_400_000;

/** When each page was last opened, keyed `version/locale/path`, in ms since the epoch. */
export type SeenPages = Record<string, number>;

export function seenKey(config: Pick<ReaderClientConfig, 'version' | 'locale'>, path: string): string {
  return `${config.version}/${config.locale}/${path}`;
}

/**
 * A page shows a dot while it changed within `freshDays` and the reader has not opened it since
 * that change.
 */
export function isFreshFor(updatedAt: number, seenAt: number | undefined, now: number, freshDays: number): boolean {
  if (!(freshDays > 0) || !Number.isFinite(updatedAt)) return false;
  if (now - updatedAt >= freshDays * DAY_MS) return false;
  return seenAt === undefined || seenAt < updatedAt;
}

/** The JSON the widget posts to the feedback endpoint. */
export interface FeedbackPayload {
  path: string;
  helpful: boolean;
  comment?: string;
  version: string;
  locale: string;
}

/**
 * The comment limit of `submit_feedback` and the widget endpoint, in characters (code points), as
 * `FEEDBACK_COMMENT_LIMIT` of @kit/core sets it; repeated here because this module runs in the
 * browser bundle, which does not load @kit/core.
 */
export const FEEDBACK_COMMENT_MAX = 2000;

/** Builds the payload; an empty comment is left out and a long one is cut to the limit. */
export function feedbackPayload(config: ReaderClientConfig, helpful: boolean, comment: string): FeedbackPayload {
  // Cut by characters, not UTF-16 units, so an emoji is never split and the endpoint's count agrees.
  const trimmed = [...comment.trim()].slice(0, FEEDBACK_COMMENT_MAX).join('');
  return {
    path: config.path ?? '',
    helpful,
    ...(trimmed ? { comment: trimmed } : {}),
    version: config.version,
    locale: config.locale,
  };
}

export type ColorChoice = 'system' | 'light' | 'dark';

const ORDER: ColorChoice[] = ['system', 'light', 'dark'];

/** The choice after `current` when the toggle is pressed: system → light → dark → system. */
export function nextColorChoice(current: ColorChoice): ColorChoice {
  return ORDER[(ORDER.indexOf(current) + 1) % ORDER.length]!;
}

/**
 * Where a URL fragment should land when the page has no target for it. Sanitized (database) pages
 * prefix every id with `user-content-`, so `#setup` in a link from another page, a search result
 * or a bookmark means `#user-content-setup`, as on GitHub. Null when the fragment is empty, already
 * has a target, or has no prefixed target either.
 *
 * @example
 * userContentFragment('#setup', (id) => id === 'user-content-setup'); // 'user-content-setup'
 */
export function userContentFragment(hash: string, hasTarget: (id: string) => boolean): string | null {
  const written = hash.startsWith('#') ? hash.slice(1) : hash;
  if (written === '') return null;
  let id = written;
  try {
    id = decodeURIComponent(written);
  } catch {
    // A malformed escape is matched as written.
  }
  if (hasTarget(id) || id.startsWith(USER_ID_PREFIX)) return null;
  const prefixed = `${USER_ID_PREFIX}${id}`;
  return hasTarget(prefixed) ? prefixed : null;
}

/**
 * How far below the viewport top a heading counts as reached: the page's scroll padding (where a
 * jump to `#heading` puts it) plus a few pixels, so a heading just jumped to is the active entry
 * despite subpixel rounding. Falls back to the header height when no scroll padding is set.
 */
export function tocActivationLine(scrollPadding: number, headerHeight: number): number {
  const offset = Number.isFinite(scrollPadding) && scrollPadding > 0 ? scrollPadding : headerHeight;
  return offset + 4;
}

/**
 * The index of the table-of-contents entry for the section being read: the last heading whose top
 * is at or above `line`, the first one before any is reached, and the last one at the very bottom
 * of the page, where the last sections can never reach the line.
 */
export function activeTocIndex(headingTops: readonly number[], line: number, atBottom: boolean): number {
  if (atBottom) return Math.max(0, headingTops.length - 1);
  let current = 0;
  for (let i = 0; i < headingTops.length; i++) {
    if (headingTops[i]! <= line) current = i;
    else break;
  }
  return current;
}

/**
 * The scroll position that brings an entry fully into view inside a scrolling box, with `margin`
 * to spare, or null when it is already visible. Positions are relative to the box's content.
 */
export function revealScrollTop(
  entry: { top: number; bottom: number },
  box: { scrollTop: number; height: number },
  margin = 24,
): number | null {
  if (entry.top - margin < box.scrollTop) return Math.max(0, entry.top - margin);
  if (entry.bottom + margin > box.scrollTop + box.height) return entry.bottom + margin - box.height;
  return null;
}

/** Entries the script asks for at once when it loads a group of a bounded sidebar (the route's page size). */
export const NAV_LOAD_PAGE = 100;

/**
 * `GET <navUrl>.json?group=&offset=&limit=`: the next entries of a group of a bounded sidebar,
 * from `offset`, no further than `end` (where the entries the sidebar already shows begin).
 *
 * @example
 * navListingRequestUrl('/docs/_kit/nav/3.x/en', '2.1', 0, 250) // …/en.json?group=2.1&offset=0&limit=100
 */
export function navListingRequestUrl(navUrl: string, group: string, offset: number, end: number): string {
  const url = new URL(`${navUrl}.json`, globalThis.location?.href ?? 'http://localhost/');
  url.searchParams.set('group', group);
  url.searchParams.set('offset', String(offset));
  url.searchParams.set('limit', String(Math.max(1, Math.min(NAV_LOAD_PAGE, end - offset))));
  return url.toString();
}
