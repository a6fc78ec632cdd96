import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createKitApp } from './app.js';
import { fixtureKit } from './testing/fixture.js';

// A set with a page the server cannot read answers every route that needs the whole set with 500
// and logs the error naming the file: never a sitemap, index or search quietly missing the page,
// and never the set's file names in the answer.

const project = mkdtempSync(join(tmpdir(), 'kit-http-source-errors-'));
const write = (file: string, text: string) => {
  mkdirSync(dirname(join(project, file)), { recursive: true });
  writeFileSync(join(project, file), text);
};
write('docs/kit.json', JSON.stringify({ name: 'Acme Docs' }));
write('docs/index.md', '# Welcome\n\nSee [queues](queues.md).\n');
write('docs/queues.md', '# Queues\n\nQueues run jobs.\n');
write('docs/internal/plans.md', '---\nvisibility: private\n---\n# Plans\n');
// Over 2 GiB (sparse): Node.js refuses to read it, whoever runs the test.
truncateSync(join(project, 'docs/internal/plans.md'), 3 * 1024 ** 3);

describe('a set with a page the server cannot read', () => {
  const kit = fixtureKit(
    { default: 'docs', sets: { docs: { route: { prefix: 'docs' }, source: { path: 'docs' } } } },
    { root: project },
  );
  const app = createKitApp({ kit, cacheDir: null });
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
  afterEach(() => logged.mockClear());
  afterAll(async () => {
    logged.mockRestore();
    await kit.close();
    rmSync(project, { recursive: true, force: true });
  });

  const loggedText = () => logged.mock.calls.map((call) => call.map(String).join(' ')).join('\n');

  it.each([
    ['the sitemap', '/docs/sitemap.xml'],
    ['llms.txt', '/docs/llms.txt'],
    ['the browser search index', '/docs/_kit/search-index/current/en.json'],
    ['a search', '/docs/_kit/search?q=queues'],
  ])('answers %s with 500 and logs the file, telling the caller no file name', async (_what, path) => {
    const response = await app.request(`http://localhost${path}`, { headers: { Accept: 'application/json' } });
    expect(response.status).toBe(500);
    const body = await response.text();
    expect(body).not.toContain('plans');
    expect(loggedText()).toContain('internal/plans.md cannot be read (ERR_FS_FILE_TOO_LARGE');
  });

  it('still serves a page it can read', async () => {
    const response = await app.request('http://localhost/docs/queues.md');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Queues run jobs.');
  });

  it('serves the whole set again once the file can be read, with no restart', async () => {
    const html = await app.request('http://localhost/docs/queues', { headers: { Accept: 'text/html' } });
    expect(html.status).toBe(500);
    write('docs/internal/plans.md', '---\nvisibility: private\n---\n# Plans\n');
    const sitemap = await app.request('http://localhost/docs/sitemap.xml');
    expect(sitemap.status).toBe(200);
    expect(await sitemap.text()).toContain('/docs/queues');
    const search = await app.request('http://localhost/docs/_kit/search?q=queues', {
      headers: { Accept: 'application/json' },
    });
    expect(search.status).toBe(200);
    expect((await app.request('http://localhost/docs/queues', { headers: { Accept: 'text/html' } })).status).toBe(200);
  });
});
