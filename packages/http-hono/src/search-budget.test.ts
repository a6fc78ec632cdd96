import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_SEARCH_FORMAT } from '@kit/search';
import { afterAll, describe, expect, it } from 'vitest';
import { createKitApp } from './app.js';
import { fixtureKit } from './testing/fixture.js';

const JSON_ACCEPT = { accept: 'application/json' };

/**
 * A set whose client index is a few kilobytes gzipped (over a 1 KB budget, under the default):
 * forty pages of distinct words, the queues page, and a private roadmap page.
 */
function writeSet(): string {
  const root = mkdtempSync(join(tmpdir(), 'kit-http-budget-'));
  const docs = join(root, 'docs');
  mkdirSync(join(docs, 'internal'), { recursive: true });
  writeFileSync(join(docs, 'kit.json'), JSON.stringify({ name: 'Budget Docs' }));
  const filler = Array.from({ length: 40 }, (_, i) => `topic-${i}`);
  for (const [i, name] of filler.entries()) {
    const words = Array.from({ length: 60 }, (_, j) => `w${((i * 7919 + j * 104729) % 100000).toString(36)}`);
    writeFileSync(join(docs, `${name}.md`), `# Topic ${i}\n\n${words.join(' ')}.\n`);
  }
  writeFileSync(
    join(docs, 'queues.md'),
    '# Queues\n\nQueues run jobs.\n\n## Retrying Jobs\n\nFailed jobs retry three times with exponential backoff.\n',
  );
  writeFileSync(
    join(docs, 'internal/roadmap.md'),
    '---\ntitle: Roadmap\nvisibility: private\n---\n# Roadmap\n\nSecret plans: a zeppelin backoff.\n',
  );
  writeFileSync(
    join(docs, 'navigation.json'),
    JSON.stringify({ groups: [{ label: 'Docs', pages: ['queues', ...filler, 'internal/roadmap'] }] }),
  );
  return root;
}

const root = writeSet();
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The set with the client driver and the given `search.budget_kb` (default when undefined). */
function appWithBudget(budgetKb: number | undefined) {
  const search = budgetKb === undefined ? {} : { search: { budget_kb: budgetKb } };
  return createKitApp({
    kit: fixtureKit({ sets: { docs: { route: { prefix: 'docs' }, source: { path: 'docs' }, ...search } } }, { root }),
  });
}

/** The index URL the reader's page names in its script config. */
async function clientIndexUrlOf(app: ReturnType<typeof createKitApp>): Promise<string> {
  const html = await (await app.request('/docs/queues')).text();
  return /"clientIndexUrl":"([^"]+)"/.exec(html)![1]!;
}

describe('the browser search index over search.budget_kb', () => {
  it('answers a pointer to server search instead of an index over budget, and server search answers the queries', async () => {
    const app = appWithBudget(1);
    const indexUrl = await clientIndexUrlOf(app);
    expect(indexUrl).toBe('/docs/_kit/search-index/current/en.json');
    const response = await app.request(indexUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    const pointer = await response.json();
    expect(pointer).toMatchObject({
      format: SERVER_SEARCH_FORMAT,
      search: 'server',
      reason: 'over_budget',
      budget_kb: 1,
    });
    expect(pointer.gzip_bytes).toBeGreaterThan(1024);

    const search = await app.request('/docs/_kit/search?q=retry%20jobs&locale=en', { headers: JSON_ACCEPT });
    expect((await search.json()).results[0]).toMatchObject({ path: 'queues', heading: 'Retrying Jobs' });
  });

  it('serves the index itself under budget, as before', async () => {
    const app = appWithBudget(undefined);
    const index = await (await app.request(await clientIndexUrlOf(app))).json();
    expect(index.format).toBe('kit-search/1');
    expect(JSON.stringify(index)).toContain('queues');
  });

  it('never returns a private page to a guest searching through the server, and does to staff', async () => {
    const app = appWithBudget(1);
    const query = '/docs/_kit/search?q=zeppelin%20roadmap&locale=en';
    const guestPointer = await (await app.request('/docs/_kit/search-index/current/en.json')).json();
    expect(guestPointer.format).toBe(SERVER_SEARCH_FORMAT);
    const guest = await (await app.request(query, { headers: JSON_ACCEPT })).json();
    expect(guest.results.map((hit: { path: string }) => hit.path)).not.toContain('internal/roadmap');
    const staff = await (
      await app.request(query, { headers: { ...JSON_ACCEPT, Authorization: 'Bearer staff' } })
    ).json();
    expect(staff.results.map((hit: { path: string }) => hit.path)).toContain('internal/roadmap');
  });
});
