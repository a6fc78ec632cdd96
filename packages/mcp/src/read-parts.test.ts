// read_page in parts, over the real Laravel corpus and the fixture sets, through the SDK's client.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createDocSet, createEvents, createKit, type Kit, resolveConfig } from '@kit/core';
import { createRenderer } from '@kit/render';
import { createServerSearch } from '@kit/search';
import { createFsSource, createSourceHistory } from '@kit/source-fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, fixtureKitFactory, guest, textOf, writeFixtureFolder } from './testing/fixtures.js';

const createFixtureKit = fixtureKitFactory({ createRenderer, createServerSearch, createFsSource });
const web = { kind: 'web', set: 'docs' } as const;

interface PartMeta {
  content_hash: string;
  range?: { start: number; end: number; total: number };
  next_cursor?: string;
  next_section?: string;
  stale?: { sources: string[]; total: number; commit: string; date: string };
}

const CONTINUED = '\n> **Continued:**';

/** The page text a part holds: without its continuation note and content_hash line. */
function bodyOf(text: string): string {
  const continued = text.lastIndexOf(CONTINUED);
  if (continued !== -1) return text.slice(0, continued);
  return `${text.slice(0, text.lastIndexOf('\ncontent_hash: '))}`;
}

/** Fenced code lines that open or close a fence: an even count means no fence was cut. */
function fenceLines(text: string): number {
  return text.split('\n').filter((line) => /^\s*(`{3,}|~{3,})/.test(line)).length;
}

/** Follows next_cursor from the first part to the last, as an agent would. */
async function readAllParts(
  client: Client,
  args: Record<string, unknown>,
): Promise<Array<{ text: string; meta: PartMeta }>> {
  const parts: Array<{ text: string; meta: PartMeta }> = [];
  let cursor: string | undefined;
  do {
    const result = await client.callTool({
      name: 'read_page',
      arguments: cursor ? { path: args.path, version: args.version, cursor } : args,
    });
    expect(result.isError).toBeFalsy();
    const meta = result._meta as unknown as PartMeta;
    parts.push({ text: textOf(result), meta });
    cursor = meta.next_cursor;
    expect(parts.length).toBeLessThan(200);
  } while (cursor);
  return parts;
}

describe('read_page in parts on the Laravel docs', () => {
  let kit: Kit;
  let client: Client;

  beforeAll(async () => {
    const corpora = `${process.env.KIT_SHARED_DIR}/corpora`;
    const config = resolveConfig(
      { sets: { docs: { source: { path: 'laravel' }, html_input: 'allow' } } },
      { root: corpora, env: {} },
    );
    const events = createEvents();
    kit = createKit({
      config,
      events,
      sets: [
        createDocSet({
          config: config.sets.docs!,
          source: createFsSource({ root: config.sets.docs!.source.path, setKey: 'docs', git: false }),
          renderer: createRenderer(),
          search: createServerSearch(),
          events,
        }),
      ],
    });
    client = await connectClient({ kit, scope: web, viewer: guest });
  });
  afterAll(() => kit.close());

  it('hands out queues (126k characters) in parts under the 50,000 default, every character exactly once', async () => {
    const whole = await kit.set().readPage({ path: 'queues', version: '13.x' }, guest);
    const page = whole.text.slice(0, whole.text.lastIndexOf('\ncontent_hash: '));
    expect(page.length).toBeGreaterThan(120_000);

    const parts = await readAllParts(client, { path: 'queues', version: '13.x' });
    expect(parts.length).toBeGreaterThanOrEqual(3);
    let offset = 0;
    for (const [index, part] of parts.entries()) {
      expect(part.text.length).toBeLessThanOrEqual(50_000);
      expect(part.meta.range).toEqual({ start: offset, end: expect.any(Number), total: page.length });
      expect(part.meta.content_hash).toBe(whole.meta.content_hash);
      expect(part.text).toMatch(/\n\ncontent_hash: sha256:[0-9a-f]{64}\n$/);
      const body = bodyOf(part.text);
      expect(body.length).toBe(part.meta.range!.end - part.meta.range!.start);
      expect(fenceLines(body) % 2).toBe(0);
      if (index < parts.length - 1) {
        // The last line tells a text-only client how to go on, with the same cursor as _meta.
        expect(part.text).toContain(`cursor "${part.meta.next_cursor}"`);
        expect(part.text).toContain(`GET /docs/queues.md?cursor=${part.meta.next_cursor}`);
        // Cut at a heading: the next part opens with the section _meta names.
        expect(part.meta.next_section).toBeTruthy();
        const next = bodyOf(parts[index + 1]!.text);
        expect(next.split('\n')[0]).toMatch(new RegExp(`^#{1,6} .*${escapeRegExp(part.meta.next_section!)}`));
      } else {
        expect(part.meta.next_cursor).toBeUndefined();
      }
      offset = part.meta.range!.end;
    }
    expect(parts.map((part) => bodyOf(part.text)).join('')).toBe(page);
  });

  it('takes a smaller max_chars and still reaches every character once, never inside code', async () => {
    const whole = await kit.set().readPage({ path: 'queues', version: '13.x' }, guest);
    const page = whole.text.slice(0, whole.text.lastIndexOf('\ncontent_hash: '));
    const parts = await readAllParts(client, { path: 'queues', version: '13.x', max_chars: 4000 });
    expect(parts.length).toBeGreaterThan(30);
    for (const part of parts) expect(fenceLines(bodyOf(part.text)) % 2).toBe(0);
    expect(parts.map((part) => bodyOf(part.text)).join('')).toBe(page);
  });

  it('returns a page under the budget whole, with no range or cursor', async () => {
    const result = await client.callTool({ name: 'read_page', arguments: { path: 'installation', version: '13.x' } });
    const meta = result._meta as unknown as PartMeta;
    expect(textOf(result).length).toBeLessThan(50_000);
    expect(meta.range).toBeUndefined();
    expect(meta.next_cursor).toBeUndefined();
  });

  it('splits one section longer than max_chars at its sub-headings and blocks', async () => {
    const whole = await client.callTool({
      name: 'read_page',
      arguments: { path: 'queues', version: '13.x', section: 'Job Batching', max_chars: 1_000_000 },
    });
    const section = bodyOf(textOf(whole));
    expect(section.length).toBeGreaterThan(10_000);
    const parts = await readAllParts(client, {
      path: 'queues',
      version: '13.x',
      section: 'Job Batching',
      max_chars: 5000,
    });
    expect(parts.length).toBeGreaterThan(2);
    expect(parts.map((part) => bodyOf(part.text)).join('')).toBe(section);
  });
});

describe('read_page sections', () => {
  it('reads several sections at once, in page order, each once', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    const result = await client.callTool({
      name: 'read_page',
      arguments: { path: 'queues', section: ['priorities', 'Retrying Jobs', 'Priorities'] },
    });
    expect(textOf(result)).toMatch(
      /^## Retrying Jobs\n\nFailed jobs retry three times with exponential backoff\.\n\n## Priorities\n\nHigh jobs run first\.\n\ncontent_hash: sha256:/,
    );
    expect(textOf(result)).not.toContain('Queues run jobs.');
  });

  it("leaves a section's subsections out with subsections: false", async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    const own = await client.callTool({
      name: 'read_page',
      arguments: { path: 'installation', section: 'Installation', subsections: false },
    });
    expect(textOf(own)).toMatch(/^# Installation\n\nRun `npm install acme`\.\n\ncontent_hash: /);
    const all = await client.callTool({
      name: 'read_page',
      arguments: { path: 'installation', section: 'Installation' },
    });
    expect(textOf(all)).toContain('## Requirements\n\nNode 20 or later.');
  });

  it('names every missing section and every section the page has', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    const result = await client.callTool({
      name: 'read_page',
      arguments: { path: 'queues', section: ['Priorities', 'Deadlines', 'Backoff'] },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'section.not_found: Page "queues" has no section "Deadlines", "Backoff". Its 3 sections: Queues; Retrying Jobs; Priorities. Pass a heading text or anchor id, or omit section to read the whole page.',
    );
  });

  it('refuses a max_chars under the minimum and a forged cursor', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: web, viewer: guest });
    const small = await client.callTool({ name: 'read_page', arguments: { path: 'queues', max_chars: 100 } });
    expect(textOf(small)).toMatch(/^argument\.invalid: .*`max_chars` must be a whole number of at least 2000/);
    const forged = await client.callTool({ name: 'read_page', arguments: { path: 'queues', cursor: 'not a cursor' } });
    expect(textOf(forged)).toMatch(/^argument\.invalid: `cursor` is not one this server handed out/);
  });

  it('refuses a cursor given with another selection, and one into text that changed since', async () => {
    const root = writeFixtureFolder();
    const kit = createFixtureKit({ root });
    const client = await connectClient({ kit, scope: web, viewer: guest });
    const long = Array.from({ length: 40 }, (_, index) => `## Step ${index}\n\n${'Work. '.repeat(40)}\n`).join('\n');
    const file = join(root, 'docs/3.x/queues.md');
    writeFileSync(file, `---\ntitle: Queues\n---\n# Queues\n\n${long}`);
    const first = await client.callTool({ name: 'read_page', arguments: { path: 'queues', max_chars: 2000 } });
    const cursor = (first._meta as unknown as PartMeta).next_cursor!;
    expect(cursor).toBeTruthy();
    const second = await client.callTool({ name: 'read_page', arguments: { path: 'queues', cursor } });
    expect(second.isError).toBeFalsy();
    expect(bodyOf(textOf(second)).startsWith('## Step')).toBe(true);
    const mixed = await client.callTool({
      name: 'read_page',
      arguments: { path: 'queues', cursor, section: 'Step 3' },
    });
    expect(textOf(mixed)).toMatch(/^argument\.invalid: This `cursor` continues another section selection/);
    writeFileSync(file, `---\ntitle: Queues\n---\n# Queues\n\nRewritten.\n\n${long}`);
    const after = await client.callTool({ name: 'read_page', arguments: { path: 'queues', cursor } });
    expect(textOf(after)).toMatch(/^content\.conflict: Page "queues" changed since this cursor was handed out/);
  });
});

describe('read_page staleness', () => {
  let repo: string;
  let kit: Kit;
  let sourceCommit: string;

  const git = (date: string, ...args: string[]) =>
    execFileSync('git', args, {
      cwd: repo,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_CONFIG_NOSYSTEM: '1',
        HOME: repo,
        GIT_AUTHOR_NAME: 'Kit Test',
        GIT_AUTHOR_EMAIL: 'kit@example.com',
        GIT_COMMITTER_NAME: 'Kit Test',
        GIT_COMMITTER_EMAIL: 'kit@example.com',
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_DATE: date,
      },
    }).trim();
  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(repo, file)), { recursive: true });
    writeFileSync(join(repo, file), text);
  };

  beforeAll(() => {
    repo = mkdtempSync(join(tmpdir(), 'kit-mcp-stale-'));
    git('2026-01-01T09:00:00Z', 'init', '--quiet', '--initial-branch=main');
    write('docs/kit.json', '{ "name": "Stale" }\n');
    write('docs/queues.md', '---\ntitle: Queues\nsources: src/queue/**\n---\n# Queues\n\nJobs run.\n');
    write('docs/routing.md', '---\ntitle: Routing\nsources: [src/router.ts]\n---\n# Routing\n\nRoutes match.\n');
    write('src/queue/worker.ts', 'export const worker = 1;\n');
    write('src/router.ts', 'export const router = 1;\n');
    git('2026-01-01T09:00:00Z', 'add', '-A');
    git('2026-01-01T09:00:00Z', 'commit', '--quiet', '-m', 'first');
    write('src/queue/worker.ts', 'export const worker = 2;\n');
    git('2026-02-03T09:00:00Z', 'add', '-A');
    git('2026-02-03T09:00:00Z', 'commit', '--quiet', '-m', 'worker changes');
    sourceCommit = git('2026-02-03T09:00:00Z', 'rev-parse', 'HEAD');
    const config = resolveConfig({ sets: { docs: { source: { path: 'docs' } } } }, { root: repo, env: {} });
    const events = createEvents();
    kit = createKit({
      config,
      events,
      sets: [
        createDocSet({
          config: config.sets.docs!,
          source: createFsSource({ root: config.sets.docs!.source.path, setKey: 'docs' }),
          renderer: createRenderer(),
          search: createServerSearch(),
          events,
          sourceHistory: createSourceHistory({ root: repo, setFolder: config.sets.docs!.source.path }),
        }),
      ],
    });
  });
  afterAll(async () => {
    await kit.close();
    rmSync(repo, { recursive: true, force: true });
  });

  it('flags a page whose sources changed after it, in _meta and on top of the text', async () => {
    const client = await connectClient({ kit, scope: web, viewer: guest });
    const result = await client.callTool({ name: 'read_page', arguments: { path: 'queues' } });
    expect((result._meta as unknown as PartMeta).stale).toEqual({
      sources: ['src/queue/worker.ts'],
      total: 1,
      commit: sourceCommit,
      date: '2026-02-03T09:00:00+00:00',
    });
    expect(textOf(result)).toMatch(
      new RegExp(
        `^> \\*\\*Possibly out of date:\\*\\* code this page documents changed after the page did: \`src/queue/worker\\.ts\` \\(newest: commit ${sourceCommit.slice(0, 12)}, 2026-02-03\\)\\. Check the code before relying on it\\.\\n\\n# Queues\\n`,
      ),
    );
  });

  it('leaves a page alone whose sources are older than it', async () => {
    const client = await connectClient({ kit, scope: web, viewer: guest });
    const result = await client.callTool({ name: 'read_page', arguments: { path: 'routing' } });
    expect((result._meta as unknown as PartMeta).stale).toBeUndefined();
    expect(textOf(result).startsWith('# Routing\n')).toBe(true);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
