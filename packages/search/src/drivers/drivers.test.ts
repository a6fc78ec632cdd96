import type { SearchScope, SearchSection } from '@kit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareClientIndex, queryClientIndex } from '../client/index.js';
import { contractSections } from '../testing/index.js';
import { createClientSearch, SERVER_SEARCH_FORMAT } from './client.js';
import { registerSearchDriver, resolveSearchDriver, searchDriverNames } from './registry.js';
import { createServerSearch } from './server.js';

const scope: SearchScope = { set: 'docs', version: '2.x', locale: 'en', audience: 'public' };

function bulkySections(count: number): SearchSection[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `page-${i}#`,
    path: `page-${i}`,
    title: `Page ${i}`,
    heading: '',
    headingPath: [],
    text: `Unique${i.toString(36)} words ${'lorem ipsum dolor '.repeat(30)} token${(i * 7919).toString(36)}`,
    url: `/docs/2.x/page-${i}`,
    markdownUrl: `/docs/2.x/page-${i}.md`,
  }));
}

describe('client driver', () => {
  it('serves an index the browser function answers exactly like the driver', async () => {
    const driver = createClientSearch();
    await driver.index(scope, contractSections.public);
    const shipped = (await driver.clientIndex(scope))!;
    expect(shipped.contentType).toMatch(/^application\/json/);
    for (const query of ['queues retry', 'route', 'atomic locks', 'evnet']) {
      const inBrowser = queryClientIndex(shipped.body, query, 8).map(({ snippet, ...rest }) => rest);
      const onServer = (await driver.search(scope, query, { limit: 8 })).map(({ snippet, ...rest }) => rest);
      expect(inBrowser).toEqual(onServer);
    }
  });

  it('answers the same after the index was prepared ahead of the first query', async () => {
    const driver = createClientSearch();
    await driver.index(scope, contractSections.public);
    const shipped = (await driver.clientIndex(scope))!;
    const cold = queryClientIndex(`${shipped.body} `, 'queues retry', 8);
    prepareClientIndex(shipped.body);
    expect(queryClientIndex(shipped.body, 'queues retry', 8)).toEqual(cold);
  });

  it('ranks like the server driver', async () => {
    const client = createClientSearch();
    const server = createServerSearch();
    await client.index(scope, contractSections.public);
    await server.index(scope, contractSections.public);
    for (const query of ['queues retry', 'route parameters', 'cache']) {
      expect(await client.search(scope, query, { limit: 8 })).toEqual(await server.search(scope, query, { limit: 8 }));
    }
  });

  it('reports an index within budget', async () => {
    const driver = createClientSearch({ budgetKb: 300 });
    await driver.index(scope, contractSections.public);
    const report = (await driver.clientIndexReport(scope))!;
    expect(report).toMatchObject({ budgetKb: 300, overBudget: false, sections: 5, pages: 3 });
    expect(report.gzipBytes).toBeLessThan(report.bytes);
  });

  it('shortens section leads to fit the budget and reports an index that still does not fit', async () => {
    const driver = createClientSearch({ budgetKb: 4 });
    await driver.index(scope, bulkySections(300));
    const report = (await driver.clientIndexReport(scope))!;
    expect(report.overBudget).toBe(true);
    expect(report.gzipBytes).toBeGreaterThan(4 * 1024);
    expect(report.leadChars).toBe(0);
  });

  it('hands browsers a pointer to server search instead of an index over budget, and still searches it', async () => {
    const driver = createClientSearch({ budgetKb: 4 });
    await driver.index(scope, bulkySections(300));
    const report = (await driver.clientIndexReport(scope))!;
    const shipped = (await driver.clientIndex(scope))!;
    expect(shipped.contentType).toMatch(/^application\/json/);
    expect(JSON.parse(shipped.body)).toEqual({
      format: SERVER_SEARCH_FORMAT,
      search: 'server',
      reason: 'over_budget',
      gzip_bytes: report.gzipBytes,
      budget_kb: 4,
    });
    expect(shipped.body.length).toBeLessThan(200);
    const [hit] = await driver.search(scope, `unique${(42).toString(36)}`, { limit: 3 });
    expect(hit?.path).toBe('page-42');
  });

  it('hands browsers the index itself when it fits the budget', async () => {
    const driver = createClientSearch({ budgetKb: 300 });
    await driver.index(scope, bulkySections(300));
    const shipped = (await driver.clientIndex(scope))!;
    expect(JSON.parse(shipped.body).format).not.toBe(SERVER_SEARCH_FORMAT);
    expect(queryClientIndex(shipped.body, `unique${(42).toString(36)}`, 3)[0]?.path).toBe('page-42');
  });

  it('answers nothing for a scope it never indexed', async () => {
    const driver = createClientSearch();
    expect(await driver.clientIndex(scope)).toBeNull();
    expect(await driver.clientIndexReport(scope)).toBeNull();
  });

  it('refuses a budget that is not a positive number', () => {
    expect(() => createClientSearch({ budgetKb: 0 })).toThrow(/budget_kb/);
  });
});

describe('search driver registry', () => {
  let unregister: (() => void) | undefined;
  afterEach(() => unregister?.());

  it('resolves the built-in drivers by name', () => {
    expect(resolveSearchDriver('client').name).toBe('client');
    expect(resolveSearchDriver('server').name).toBe('server');
  });

  it('resolves a registered driver with the set budget', () => {
    let seenBudget = 0;
    unregister = registerSearchDriver('my-driver', (options) => {
      seenBudget = options.budgetKb;
      return createServerSearch();
    });
    expect(searchDriverNames()).toContain('my-driver');
    resolveSearchDriver('my-driver', { budgetKb: 120 });
    expect(seenBudget).toBe(120);
  });

  it('names the known drivers and the fix for an unknown one', () => {
    expect(() => resolveSearchDriver('algolia')).toThrowErrorMatchingInlineSnapshot(
      `[KitError: No search driver named "algolia". Set search.driver to one of 'client', 'server', or call registerSearchDriver('algolia', factory) before the kit starts.]`,
    );
  });

  it('refuses to replace a built-in driver or register a name twice', () => {
    expect(() => registerSearchDriver('server', () => createServerSearch())).toThrow(/built in/);
    unregister = registerSearchDriver('twice', () => createServerSearch());
    expect(() => registerSearchDriver('twice', () => createServerSearch())).toThrow(/already registered/);
  });

  it('refuses a scope without a version', async () => {
    const driver = createServerSearch();
    await expect(driver.index({ ...scope, version: '' }, [])).rejects.toMatchObject({ code: 'argument.invalid' });
  });
});
