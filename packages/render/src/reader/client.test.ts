import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReaderClientConfig } from './client-config.js';
import {
  activeTocIndex,
  chooseSearchBackend,
  FEEDBACK_COMMENT_MAX,
  feedbackPayload,
  highlightSnippet,
  isFreshFor,
  isServerSearchPointer,
  navListingRequestUrl,
  nextColorChoice,
  revealScrollTop,
  SERVER_SEARCH_FORMAT,
  seenKey,
  serverSearchRequestUrl,
  tocActivationLine,
  userContentFragment,
} from './client-logic.js';

const DAY = 86_400_000;

function config(overrides: Partial<ReaderClientConfig> = {}): ReaderClientConfig {
  return {
    set: 'docs',
    version: '3.x',
    locale: 'en',
    path: 'routing',
    updatedAt: null,
    freshDays: 1,
    mode: 'system',
    search: { driver: 'server', clientIndexUrl: null, serverSearchUrl: '/docs/_kit/search' },
    feedbackEndpoint: '/docs/_kit/feedback',
    strings: {
      searchNoResults: 'none',
      searchUnavailable: 'unavailable',
      searchLoading: 'loading',
      copy: 'Copy',
      copied: 'Copied',
      copyFailed: 'Copy failed',
      thanks: 'Thanks',
      feedbackFailed: 'failed',
      colorModeSystem: 'System',
      colorModeLight: 'Light',
      colorModeDark: 'Dark',
    },
    ...overrides,
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('color mode toggle', () => {
  it('cycles system, light, dark and back to system', () => {
    expect(nextColorChoice('system')).toBe('light');
    expect(nextColorChoice('light')).toBe('dark');
    expect(nextColorChoice('dark')).toBe('system');
  });
});

describe('freshness dots', () => {
  const updated = Date.parse('2026-03-01T10:00:00Z');

  it('shows a dot for a page changed within fresh_days that the reader has not opened since', () => {
    expect(isFreshFor(updated, undefined, updated + DAY / 2, 1)).toBe(true);
    expect(isFreshFor(updated, updated - 1000, updated + DAY / 2, 1)).toBe(true);
  });

  it('hides the dot once the page was opened after the change', () => {
    expect(isFreshFor(updated, updated + 1000, updated + DAY / 2, 1)).toBe(false);
  });

  it('hides the dot when the change is older than fresh_days', () => {
    expect(isFreshFor(updated, undefined, updated + DAY, 1)).toBe(false);
    expect(isFreshFor(updated, undefined, updated + 2.5 * DAY, 3)).toBe(true);
  });

  it('shows no dots when fresh_days is 0 or the date is invalid', () => {
    expect(isFreshFor(updated, undefined, updated + 1, 0)).toBe(false);
    expect(isFreshFor(Number.NaN, undefined, updated, 1)).toBe(false);
  });

  it('remembers pages per version and locale', () => {
    expect(seenKey({ version: '3.x', locale: 'ar' }, 'routing')).toBe('3.x/ar/routing');
  });
});

describe('feedback payload', () => {
  it('carries path, version, locale and the answer, and leaves out an empty comment', () => {
    expect(feedbackPayload(config(), true, '   ')).toEqual({
      path: 'routing',
      helpful: true,
      version: '3.x',
      locale: 'en',
    });
  });

  it('trims the comment and cuts it to 2000 characters', () => {
    const payload = feedbackPayload(config(), false, `  ${'x'.repeat(FEEDBACK_COMMENT_MAX + 50)}  `);
    expect(payload.comment).toHaveLength(2000);
    expect(payload.helpful).toBe(false);
  });

  it('counts an emoji as one character and never cuts one in half', () => {
    const payload = feedbackPayload(config(), false, '😀'.repeat(FEEDBACK_COMMENT_MAX + 1));
    expect([...payload.comment!]).toHaveLength(2000);
    expect(payload.comment).toBe('😀'.repeat(2000));
  });
});

describe('search snippets', () => {
  it('escapes the snippet before marking the query words', () => {
    expect(highlightSnippet('Use <Route> to route requests', 'route')).toBe(
      'Use &#60;<mark>Route</mark>&#62; to <mark>route</mark> requests',
    );
  });

  it('marks words where they begin, never the little words of a question inside others', () => {
    expect(highlightSnippet('How does routing do redirects?', 'how do I rout')).toBe(
      'How does <mark>rout</mark>ing do redirects?',
    );
    expect(highlightSnippet('Queue workers: to queue a job, call dispatch', 'qu job')).toBe(
      'Queue workers: to queue a <mark>job</mark>, call dispatch',
    );
    expect(highlightSnippet('The ID and the id_token', 'id')).toBe('The <mark>ID</mark> and the <mark>id</mark>_token');
    expect(highlightSnippet('طوابير الطوابير', 'طوابير')).toBe('<mark>طوابير</mark> الطوابير');
  });

  it('treats regular-expression characters in the query as text', () => {
    expect(highlightSnippet('a.b and axb', 'a.b')).toBe('<mark>a.b</mark> and axb');
  });
});

describe('search backend', () => {
  it('asks the server URL with q, version and locale', () => {
    expect(serverSearchRequestUrl('https://x.test/docs/_kit/search', 'eloquent scopes', '3.x', 'ar')).toBe(
      'https://x.test/docs/_kit/search?q=eloquent+scopes&version=3.x&locale=ar',
    );
  });

  it('queries the server and returns its results when the driver is server', async () => {
    const fetchMock = vi.fn(async (url: string) => {
      expect(url).toContain('q=routing');
      return new Response(
        JSON.stringify({
          set: 'docs',
          version: '3.x',
          query: 'routing',
          results: [{ title: 'Routing', url: '/docs/routing' }],
        }),
      );
    });
    vi.stubGlobal('fetch', fetchMock);
    const backend = chooseSearchBackend(config(), undefined);
    expect(await backend!('routing', 5)).toEqual([{ title: 'Routing', url: '/docs/routing' }]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('downloads the client index once, on the first query, and queries it in the browser', async () => {
    const fetchText = vi.fn(async () => 'serialized-index');
    const query = vi.fn((serialized: string, q: string, limit: number) => [
      { title: `${serialized}:${q}:${limit}`, url: '/x' },
    ]);
    const backend = chooseSearchBackend(
      config({ search: { driver: 'client', clientIndexUrl: '/docs/_kit/index.json', serverSearchUrl: null } }),
      query,
      fetchText,
    );
    expect(fetchText).not.toHaveBeenCalled();
    expect(await backend!('a', 3)).toEqual([{ title: 'serialized-index:a:3', url: '/x' }]);
    await backend!('b', 3);
    expect(fetchText).toHaveBeenCalledTimes(1);
    expect(fetchText).toHaveBeenCalledWith('/docs/_kit/index.json');
  });

  it('starts the download and prepares the index when the dialog opens, before the first query', async () => {
    const fetchText = vi.fn(async () => 'serialized-index');
    const prepare = vi.fn();
    const query = vi.fn(() => [{ title: 'Hit', url: '/x' }]);
    const backend = chooseSearchBackend(
      config({ search: { driver: 'client', clientIndexUrl: '/docs/_kit/index.json', serverSearchUrl: null } }),
      query,
      fetchText,
      prepare,
    );
    backend!.prepare!();
    backend!.prepare!();
    await vi.waitFor(() => expect(prepare).toHaveBeenCalledWith('serialized-index'));
    await backend!('a', 3);
    expect(fetchText).toHaveBeenCalledTimes(1);
    expect(prepare).toHaveBeenCalledTimes(1);
  });

  it('falls back to the server when the client index cannot be downloaded', async () => {
    vi.stubGlobal(
      'fetch',
      async () => new Response(JSON.stringify({ results: [{ title: 'From server', url: '/s' }] })),
    );
    const backend = chooseSearchBackend(
      config({ search: { driver: 'client', clientIndexUrl: '/idx', serverSearchUrl: '/search' } }),
      () => [],
      async () => {
        throw new Error('offline');
      },
    );
    expect(await backend!('x', 3)).toEqual([{ title: 'From server', url: '/s' }]);
  });

  it('sends every query to the server once the index URL answers the pointer to server search', async () => {
    const pointer = JSON.stringify({ format: SERVER_SEARCH_FORMAT, search: 'server', reason: 'over_budget' });
    const fetchText = vi.fn(async () => pointer);
    const requested: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      requested.push(url);
      const q = new URL(url).searchParams.get('q');
      return new Response(JSON.stringify({ results: [{ title: `Server: ${q}`, url: '/docs/queues' }] }));
    });
    const prepare = vi.fn();
    const query = vi.fn(() => [{ title: 'From the index', url: '/x' }]);
    const backend = chooseSearchBackend(
      config({
        search: { driver: 'client', clientIndexUrl: '/docs/_kit/index.json', serverSearchUrl: '/docs/_kit/search' },
      }),
      query,
      fetchText,
      prepare,
    );
    backend!.prepare!();
    expect(await backend!('queued jobs', 10)).toEqual([{ title: 'Server: queued jobs', url: '/docs/queues' }]);
    expect(await backend!('retry', 10)).toEqual([{ title: 'Server: retry', url: '/docs/queues' }]);
    // The pointer came once; the client engine was neither asked nor prepared.
    expect(fetchText).toHaveBeenCalledTimes(1);
    expect(query).not.toHaveBeenCalled();
    expect(prepare).not.toHaveBeenCalled();
    expect(requested.map((url) => new URL(url).pathname)).toEqual(['/docs/_kit/search', '/docs/_kit/search']);
    expect(new URL(requested[0]!).searchParams.get('version')).toBe('3.x');
    expect(new URL(requested[0]!).searchParams.get('locale')).toBe('en');
  });

  it('tells the pointer to server search from an index', () => {
    expect(isServerSearchPointer(`{"format":"${SERVER_SEARCH_FORMAT}","search":"server"}`)).toBe(true);
    expect(isServerSearchPointer('{"format":"kit-search/1","terms":[]}')).toBe(false);
    expect(isServerSearchPointer(`{"format":"kit-search/1","text":"${SERVER_SEARCH_FORMAT}"}`)).toBe(false);
    expect(isServerSearchPointer('not json kit-search-server/1')).toBe(false);
  });

  it('uses the server when the bundle has no client query function', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ results: [] })));
    const backend = chooseSearchBackend(
      config({ search: { driver: 'client', clientIndexUrl: '/idx', serverSearchUrl: '/search' } }),
      undefined,
    );
    expect(backend).not.toBeNull();
    expect(await backend!('x', 3)).toEqual([]);
  });

  it('has no backend when neither a usable client index nor a server URL exists', () => {
    expect(chooseSearchBackend(config({ search: null }), undefined)).toBeNull();
    expect(
      chooseSearchBackend(
        config({ search: { driver: 'client', clientIndexUrl: '/idx', serverSearchUrl: null } }),
        undefined,
      ),
    ).toBeNull();
  });
});

describe('userContentFragment', () => {
  const ids = new Set(['user-content-deep-section', 'plain', 'user-content-café']);
  const has = (id: string) => ids.has(id);

  it('sends a fragment with no target to its user-content- twin', () => {
    expect(userContentFragment('#deep-section', has)).toBe('user-content-deep-section');
    expect(userContentFragment('#caf%C3%A9', has)).toBe('user-content-café');
  });

  it('leaves fragments that already land, are empty, or have no twin', () => {
    expect(userContentFragment('#plain', has)).toBeNull();
    expect(userContentFragment('#user-content-deep-section', has)).toBeNull();
    expect(userContentFragment('', has)).toBeNull();
    expect(userContentFragment('#', has)).toBeNull();
    expect(userContentFragment('#nowhere', has)).toBeNull();
    expect(userContentFragment('#%E0%A4%A', has)).toBeNull();
  });
});

describe('table of contents scroll-spy', () => {
  it('counts a heading as reached on the line a #heading jump puts it, not a different offset', () => {
    // html scroll-padding of 80px: a jumped-to heading sits at 80 (or 79.5 after rounding).
    const line = tocActivationLine(80, 60);
    expect(line).toBeGreaterThanOrEqual(80);
    expect(line).toBeLessThan(90);
    expect(activeTocIndex([-400, 79.5, 700], line, false)).toBe(1);
    expect(activeTocIndex([-400, 80.4, 700], line, false)).toBe(1);
    expect(tocActivationLine(Number.NaN, 60)).toBe(64);
  });

  it('marks the first entry before any heading is reached and the last at the bottom of the page', () => {
    expect(activeTocIndex([300, 700], 84, false)).toBe(0);
    expect(activeTocIndex([-900, -20, 300], 84, true)).toBe(2);
    expect(activeTocIndex([], 84, true)).toBe(0);
  });

  it('scrolls a tall table of contents just enough to show the active entry', () => {
    expect(revealScrollTop({ top: 100, bottom: 120 }, { scrollTop: 0, height: 400 })).toBeNull();
    expect(revealScrollTop({ top: 900, bottom: 920 }, { scrollTop: 0, height: 400 })).toBe(544);
    expect(revealScrollTop({ top: 10, bottom: 30 }, { scrollTop: 500, height: 400 })).toBe(0);
  });
});

describe('loading a group of a bounded sidebar', () => {
  it('asks the navigation JSON for the next page of entries, no further than the entries already shown', () => {
    expect(navListingRequestUrl('/docs/_kit/nav/3.x/en', '2.1', 0, 250)).toBe(
      'http://localhost/docs/_kit/nav/3.x/en.json?group=2.1&offset=0&limit=100',
    );
    expect(navListingRequestUrl('/docs/_kit/nav/3.x/en', '4', 180, 200)).toBe(
      'http://localhost/docs/_kit/nav/3.x/en.json?group=4&offset=180&limit=20',
    );
  });
});
