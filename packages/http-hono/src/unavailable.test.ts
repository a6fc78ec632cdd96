import { type DocSet, KitError } from '@kit/core';
import { describe, expect, it } from 'vitest';
import { createKitApp } from './app.js';
import { fixtureKit } from './testing/fixture.js';

// The one HTTP error handler and the routes that answer KitErrors themselves: a set whose database
// cannot be reached answers 503 with Retry-After, in the shape its caller reads, never 400 or 500.

const unavailable = async (): Promise<never> => {
  throw new KitError(
    'database.unavailable',
    'The docs database cannot be reached right now. Try again in a few seconds.',
  );
};

function appWithoutDatabase() {
  const kit = fixtureKit();
  const set = kit.sets.get('docs')! as DocSet & Record<string, unknown>;
  for (const method of ['resolveUrl', 'getPage', 'search', 'canView', 'submitFeedback', 'clientSearchIndex'] as const) {
    set[method] = unavailable;
  }
  return createKitApp({ kit, cacheDir: null });
}

describe('a set whose database cannot be reached', () => {
  const app = appWithoutDatabase();

  it('shows a browser a styled page that reloads itself, with 503 and Retry-After', async () => {
    const response = await app.request('http://localhost/docs/queues', { headers: { Accept: 'text/html' } });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const html = await response.text();
    expect(html).toContain('<h1>Docs briefly unavailable</h1>');
    expect(html).toMatch(/<link rel="stylesheet" href="\/docs\/_kit\/[^"]+\.css">/);
    expect(html).toContain('<meta http-equiv="refresh" content="5">');
  });

  it('answers JSON to agents and API callers, and Markdown to a .md request', async () => {
    const json = await app.request('http://localhost/docs/queues', { headers: { Accept: 'application/json' } });
    expect(json.status).toBe(503);
    expect(await json.json()).toEqual({
      error: 'database.unavailable',
      message: 'The docs database cannot be reached right now. Try again in a few seconds.',
    });
    const markdown = await app.request('http://localhost/docs/queues.md');
    expect(markdown.status).toBe(503);
    expect(markdown.headers.get('content-type')).toContain('text/markdown');
  });

  it('answers the search, search index and feedback routes with 503, not 400 or 404', async () => {
    const search = await app.request('http://localhost/docs/_kit/search?q=queue');
    expect(search.status).toBe(503);
    expect(search.headers.get('retry-after')).toBe('5');
    const index = await app.request('http://localhost/docs/_kit/search-index/current/en.json');
    expect(index.status).toBe(503);
    const feedback = await app.request('http://localhost/docs/_kit/feedback', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ path: 'queues', helpful: true }),
    });
    expect(feedback.status).toBe(503);
  });

  it('answers an MCP request it cannot start with a JSON-RPC error, 503 and Retry-After', async () => {
    const response = await app.request('http://localhost/docs/mcp', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/^database\.unavailable: .*Try again/);
  });
});
