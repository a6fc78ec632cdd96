import type { SearchDriver, SearchScope, SearchSection } from '@kit/core';
import { describe, expect, it } from 'vitest';

/** Seeded pseudo-random numbers, for test sets that must come out the same on every run. */
export { seededRandom } from '../engine/random.js';

/** What `runSearchDriverContract` needs: a name for the test titles and a way to make a fresh driver. */
export interface SearchDriverContractOptions {
  name: string;
  create: () => SearchDriver | Promise<SearchDriver>;
}

const publicScope: SearchScope = { set: 'docs', version: '2.x', locale: 'en', audience: 'public' };
const privateScope: SearchScope = { ...publicScope, audience: 'private' };

function section(path: string, title: string, heading: string, text: string, anchor?: string): SearchSection {
  const url = `/docs/2.x/${path}`;
  const result: SearchSection = {
    id: `${path}#${anchor ?? ''}`,
    path,
    title,
    heading,
    headingPath: heading ? [title, heading] : [],
    text,
    url: anchor ? `${url}#${anchor}` : url,
    markdownUrl: `${url}.md`,
    description: `${title} in Acme.`,
  };
  if (anchor) result.anchor = anchor;
  return result;
}

/** Hand-made sections: a small doc set with a page only viewKit-allowed readers may see. */
export const contractSections = {
  public: [
    section('routing', 'Routing', '', 'Routes map URLs to Acme handlers. Every route has a method and a path.'),
    section(
      'routing',
      'Routing',
      'Route parameters',
      'Capture segments of the URL with route parameters such as {id}.',
      'route-parameters',
    ),
    section('queues', 'Queues', '', 'Queues run slow work such as sending email in the background.'),
    section(
      'queues',
      'Queues',
      'Retrying failed jobs',
      'A failed job can be retried with the retry command.',
      'retrying',
    ),
    section('cache', 'Cache', '', 'The Acme cache stores computed values. Atomic locks stop two workers racing.'),
  ],
  private: [section('billing-internals', 'Billing internals', '', 'Zanzibar ledger reconciliation happens nightly.')],
};

/**
 * The behaviour every search driver must show, as a vitest suite: the specification's result
 * shape, scoping by set, version, locale and audience, private exclusion, limit bounds and bad
 * queries answered cleanly. Call it from a `*.test.ts` file of the driver.
 *
 * @example
 * runSearchDriverContract({ name: 'my-driver', create: () => createMyDriver() });
 */
export function runSearchDriverContract({ name, create }: SearchDriverContractOptions): void {
  const ready = async () => {
    const driver = await create();
    await driver.index(publicScope, contractSections.public);
    await driver.index(privateScope, [...contractSections.public, ...contractSections.private]);
    return driver;
  };

  describe(`search driver contract: ${name}`, () => {
    it('returns hits in the shape of the specification search result table', async () => {
      const driver = await ready();
      const hits = await driver.search(publicScope, 'route parameters', { limit: 8 });
      expect(hits.length).toBeGreaterThan(0);
      for (const hit of hits) {
        expect(Object.keys(hit).sort()).toEqual(
          ['description', 'heading', 'markdown_url', 'path', 'score', 'snippet', 'title', 'url'].sort(),
        );
        expect(typeof hit.title).toBe('string');
        expect(typeof hit.snippet).toBe('string');
        expect(hit.snippet.length).toBeLessThanOrEqual(160);
        expect(typeof hit.score).toBe('number');
        expect(hit.heading === null || typeof hit.heading === 'string').toBe(true);
        expect(hit.description === null || typeof hit.description === 'string').toBe(true);
      }
      expect(hits[0]).toMatchObject({ path: 'routing', title: 'Routing', markdown_url: '/docs/2.x/routing.md' });
      expect(hits[0]!.url.startsWith('/docs/2.x/routing')).toBe(true);
    });

    it('orders hits by score, best first', async () => {
      const driver = await ready();
      const hits = await driver.search(publicScope, 'failed job retry queue', { limit: 8 });
      expect(hits[0]!.path).toBe('queues');
      const scores = hits.map((hit) => hit.score);
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    });

    it('shows the matched words in the snippet', async () => {
      const driver = await ready();
      const [hit] = await driver.search(publicScope, 'atomic locks', { limit: 1 });
      expect(hit!.snippet.toLowerCase()).toContain('atomic locks');
    });

    it('never returns a private page from a public scope', async () => {
      const driver = await ready();
      expect(await driver.search(publicScope, 'zanzibar ledger reconciliation', { limit: 20 })).toEqual([]);
      const privateHits = await driver.search(privateScope, 'zanzibar ledger reconciliation', { limit: 20 });
      expect(privateHits.map((hit) => hit.path)).toContain('billing-internals');
      const shipped = await driver.clientIndex?.(publicScope);
      if (shipped) expect(shipped.body.toLowerCase()).not.toContain('zanzibar');
    });

    it('keeps sets, versions and locales apart', async () => {
      const driver = await ready();
      const other = { ...publicScope, version: '1.x' };
      await driver.index(other, [section('legacy', 'Legacy', '', 'Old routing with the legacy router.')]);
      const arabic = { ...publicScope, locale: 'ar' };
      await driver.index(arabic, [section('intro', 'مقدمة', '', 'التوجيه يربط العناوين بالمعالجات.')]);
      expect((await driver.search(publicScope, 'legacy router', { limit: 8 })).map((h) => h.path)).not.toContain(
        'legacy',
      );
      expect((await driver.search(other, 'legacy router', { limit: 8 })).map((h) => h.path)).toEqual(['legacy']);
      expect(await driver.search({ ...publicScope, set: 'elsewhere' }, 'routing', { limit: 8 })).toEqual([]);
      expect((await driver.search(arabic, 'التوجيه', { limit: 8 })).map((h) => h.path)).toEqual(['intro']);
      expect(await driver.search(arabic, 'queues', { limit: 8 })).toEqual([]);
    });

    it('replaces the sections of a scope when it is indexed again', async () => {
      const driver = await ready();
      await driver.index(publicScope, [section('cache', 'Cache', '', 'Only the cache remains.')]);
      expect(await driver.search(publicScope, 'queues background', { limit: 8 })).toEqual([]);
      expect((await driver.search(publicScope, 'cache', { limit: 8 })).map((h) => h.path)).toEqual(['cache']);
    });

    it('answers every query with nothing for a scope indexed with no sections', async () => {
      const driver = await ready();
      await driver.index(publicScope, []);
      expect(await driver.search(publicScope, 'queues', { limit: 8 })).toEqual([]);
      expect(await driver.search(publicScope, '', { limit: 8 })).toEqual([]);
    });

    it('returns at most limit hits for limits 1 to 20', async () => {
      const driver = await ready();
      // Acme is named on every page (in its description, and in the text of two): each matches the query in full.
      expect((await driver.search(publicScope, 'acme', { limit: 1 })).length).toBe(1);
      expect((await driver.search(publicScope, 'acme', { limit: 2 })).length).toBe(2);
      expect((await driver.search(publicScope, 'acme', { limit: 20 })).length).toBeLessThanOrEqual(20);
    });

    it('refuses limits outside 1 to 20 with argument.invalid', async () => {
      const driver = await ready();
      for (const limit of [0, 21, 2.5, -1]) {
        await expect(driver.search(publicScope, 'queues', { limit })).rejects.toMatchObject({
          code: 'argument.invalid',
        });
      }
    });

    it('answers empty, huge, syntax-laden and foreign-script queries cleanly', async () => {
      const driver = await ready();
      expect(await driver.search(publicScope, '', { limit: 8 })).toEqual([]);
      expect(await driver.search(publicScope, '   \n\t', { limit: 8 })).toEqual([]);
      const huge = await driver.search(publicScope, 'queues '.repeat(1500), { limit: 8 });
      expect(huge.length).toBeLessThanOrEqual(8);
      const syntax = await driver.search(publicScope, '+queues -~* retry^2 "failed":', { limit: 8 });
      expect(syntax.map((hit) => hit.path)).toContain('queues');
      expect(await driver.search(publicScope, 'title:foo^2 +-~*:', { limit: 8 })).toEqual(expect.any(Array));
      expect(await driver.search(publicScope, 'كيف أعيد المحاولة', { limit: 8 })).toEqual([]);
    });
  });
}
