import { describe, expect, it } from 'vitest';
import { createKitApp } from './app.js';
import { fixtureKit } from './testing/fixture.js';

const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

describe('the search page (search without the script)', () => {
  const app = createKitApp({ kit: fixtureKit() });

  it('answers a browser with the results page and a script or agent with JSON at the same URL', async () => {
    const page = await app.request('/docs/_kit/search?q=retry%20jobs&version=3.x&locale=en', { headers: HTML });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('vary')).toContain('Accept');
    const html = await page.text();
    expect(html).toContain('<ol class="kit-search-page-results">');
    expect(html).toContain('<a href="/docs/queues">Queues</a>');
    expect(html).toContain('Retrying Jobs');
    expect(html).toContain('value="retry jobs"');
    expect(html).toContain('<meta name="robots" content="noindex">');

    const json = await app.request('/docs/_kit/search?q=retry%20jobs', { headers: { accept: 'application/json' } });
    expect(json.headers.get('content-type')).toContain('application/json');
    expect(json.headers.get('vary')).toContain('Accept');
    expect((await json.json()).results.length).toBeGreaterThan(0);
  });

  it('shows the form alone for an empty query, and says so when nothing matches', async () => {
    const empty = await (await app.request('/docs/_kit/search', { headers: HTML })).text();
    expect(empty).toContain(
      '<form class="kit-notfound-search kit-search-page-form" role="search" method="get" action="/docs/_kit/search">',
    );
    expect(empty).not.toContain('kit-search-page-results');
    const none = await (await app.request('/docs/_kit/search?q=zzqxv', { headers: HTML })).text();
    expect(none).toContain('No results for this search.');
  });

  it('never shows a guest private pages, and shows them to a reader viewKit admits', async () => {
    const guest = await (await app.request('/docs/_kit/search?q=zeppelin%20roadmap', { headers: HTML })).text();
    // The query itself is shown back; the private page and its text are not.
    expect(guest).not.toContain('Secret plans');
    expect(guest).not.toContain('internal/roadmap');
    const staff = await app.request('/docs/_kit/search?q=zeppelin%20roadmap', {
      headers: { ...HTML, Authorization: 'Bearer staff' },
    });
    expect(await staff.text()).toContain('/docs/internal/roadmap');
    expect(staff.headers.get('cache-control')).toContain('private');
  });

  it('escapes the query wherever it is shown', async () => {
    const html = await (
      await app.request(`/docs/_kit/search?q=${encodeURIComponent('<script>alert(1)</script>')}`, { headers: HTML })
    ).text();
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});

describe('the 404 page', () => {
  const app = createKitApp({ kit: fixtureKit() });

  it('suggests the nearest pages the reader may see, and offers a search form that needs no script', async () => {
    const response = await app.request('/docs/queuez', { headers: HTML });
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toMatch(/<nav class="kit-notfound-suggestions"[^>]*>.*<a href="\/docs\/queues">Queues<\/a>/);
    expect(html).toContain(
      '<form class="kit-notfound-search" role="search" method="get" action="/docs/_kit/search" data-kit-search-form>',
    );
    expect(html).toContain('<input type="hidden" name="version" value="3.x">');
  });

  it('never suggests a private page to a guest', async () => {
    const guest = await (await app.request('/docs/internal/roadmapp', { headers: HTML })).text();
    expect(guest).not.toContain('roadmap"');
    expect(guest).not.toContain('Roadmap</a>');
    const staff = await (
      await app.request('/docs/internal/roadmapp', { headers: { ...HTML, Authorization: 'Bearer staff' } })
    ).text();
    expect(staff).toContain('<a href="/docs/internal/roadmap">Roadmap</a>');
  });
});
