import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SearchScope, SearchSection } from '@kit/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { SearchIndexReport } from '../drivers/scope-indexes.js';
import { createServerSearch } from '../drivers/server.js';
import { createDiskIndexCache } from './disk-index-cache.js';

const scope: SearchScope = { set: 'docs', version: '2.x', locale: 'en', audience: 'public' };
const TOPICS = ['queues', 'routing', 'caching', 'mail', 'billing', 'events', 'storage', 'testing', 'logging', 'search'];
const VERBS = ['retry', 'dispatch', 'configure', 'schedule', 'inspect', 'encrypt', 'throttle', 'deploy'];

/** 30 pages of 4 sections: enough sections (120) for the semantic model to be built and kept. */
function sections(extra = ''): SearchSection[] {
  const made: SearchSection[] = [];
  for (let page = 0; page < 30; page++) {
    const topic = TOPICS[page % TOPICS.length]!;
    const path = `${topic}-${page}`;
    for (let at = 0; at < 4; at++) {
      const verb = VERBS[(page + at) % VERBS.length]!;
      const heading = at === 0 ? '' : `${verb} ${topic}`;
      made.push({
        id: `${path}#${at}`,
        path,
        title: `${topic} guide ${page}`,
        heading,
        headingPath: heading ? [`${topic} guide ${page}`, heading] : [],
        text: `How to ${verb} ${topic} jobs and ${VERBS[(at + 3) % VERBS.length]} ${TOPICS[(page + 1) % TOPICS.length]} workers. ${extra}`,
        url: `/docs/2.x/${path}#${at}`,
        markdownUrl: `/docs/2.x/${path}.md`,
      });
    }
  }
  return made;
}

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

async function cacheFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'kit-index-cache-'));
  folders.push(folder);
  return folder;
}

/** A driver on the folder, as a freshly started server makes it, recording what it reports and warns. */
function driverOn(dir: string, code = 'code-a') {
  const reports: SearchIndexReport[] = [];
  const warnings: string[] = [];
  const cache = createDiskIndexCache({ dir, code: async () => code, onWarning: (message) => warnings.push(message) });
  const driver = createServerSearch({ cache, onIndex: (report) => reports.push(report) });
  return { driver, reports, warnings, origins: () => reports.map((report) => report.origin) };
}

async function filesIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

const query = 'retry queues workers';

describe('createDiskIndexCache with the server driver', () => {
  it('loads the index a previous run kept instead of building it, and answers the same', async () => {
    const dir = await cacheFolder();
    const first = driverOn(dir);
    await first.driver.index(scope, sections(), { key: 'content-1' });
    const answer = await first.driver.search(scope, query, { limit: 8, sections: 2 });
    expect(first.origins()).toEqual(['built']);
    expect(answer.length).toBeGreaterThan(0);

    const restarted = driverOn(dir);
    expect(await restarted.driver.restore!(scope, 'content-1')).toBe(true);
    expect(restarted.origins()).toEqual(['cache']);
    expect(await restarted.driver.search(scope, query, { limit: 8, sections: 2 })).toEqual(answer);
    expect(restarted.warnings).toEqual([]);
  });

  it('builds an index given without a key once, then loads it by its sections', async () => {
    const dir = await cacheFolder();
    await driverOn(dir).driver.index(scope, sections());
    const restarted = driverOn(dir);
    await restarted.driver.index(scope, sections());
    expect(restarted.origins()).toEqual(['cache']);
  });

  it('has nothing for changed content: the new index is built and replaces the old file', async () => {
    const dir = await cacheFolder();
    await driverOn(dir).driver.index(scope, sections(), { key: 'content-1' });
    const [before] = await filesIn(dir);

    const changed = driverOn(dir);
    expect(await changed.driver.restore!(scope, 'content-2')).toBe(false);
    await changed.driver.index(scope, sections('Horizon supervises them.'), { key: 'content-2' });
    expect(changed.origins()).toEqual(['built']);
    expect((await changed.driver.search(scope, 'horizon', { limit: 3 })).length).toBeGreaterThan(0);
    const after = await filesIn(dir);
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before);
  });

  it('ignores an index another release of the code kept, without a warning', async () => {
    const dir = await cacheFolder();
    await driverOn(dir, 'code-a').driver.index(scope, sections(), { key: 'content-1' });
    const upgraded = driverOn(dir, 'code-b');
    expect(await upgraded.driver.restore!(scope, 'content-1')).toBe(false);
    expect(upgraded.warnings).toEqual([]);
  });

  it.each([
    ['garbage', () => Buffer.from('not an index at all')],
    ['a file cut short', (bytes: Buffer) => bytes.subarray(0, bytes.length - 100)],
    [
      'an altered byte',
      (bytes: Buffer) => {
        const altered = Buffer.from(bytes);
        altered[altered.length - 10]! ^= 0xff;
        return altered;
      },
    ],
  ])('rebuilds over %s with a warning naming the file, and search still answers', async (_name, spoil) => {
    const dir = await cacheFolder();
    const first = driverOn(dir);
    await first.driver.index(scope, sections(), { key: 'content-1' });
    const answer = await first.driver.search(scope, query, { limit: 8 });
    const [file] = await filesIn(dir);
    const { readFile } = await import('node:fs/promises');
    await writeFile(file!, spoil(await readFile(file!)));

    const restarted = driverOn(dir);
    expect(await restarted.driver.restore!(scope, 'content-1')).toBe(false);
    expect(restarted.warnings).toHaveLength(1);
    expect(restarted.warnings[0]).toContain(file);
    expect(restarted.warnings[0]).toContain('building it again');
    // The docset then builds from sections: the spoiled file is not read (or warned about) twice.
    await restarted.driver.index(scope, sections(), { key: 'content-1' });
    expect(restarted.origins()).toEqual(['built']);
    expect(restarted.warnings).toHaveLength(1);
    expect(await restarted.driver.search(scope, query, { limit: 8 })).toEqual(answer);

    // What it built in its place is whole again.
    const again = driverOn(dir);
    expect(await again.driver.restore!(scope, 'content-1')).toBe(true);
  });
});
