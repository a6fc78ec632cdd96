import { describe, expect, it } from 'vitest';
import { contentHash } from '../hash/content-hash.js';
import type { ContentChange, ContentSource } from '../ports/content-source.js';
import type { ContentWriter, WriteReceipt } from '../ports/content-writer.js';
import { contractFixture, type SourceFixture, sourceOpener, unversionedFixture } from './source-contract.js';
import { change, en2, expectIsoDate, hashOf, rejectsWith, snapshot, writerOf } from './writer-checks.js';

/** Options of {@link runWriterContract}. */
export interface WriterContractOptions {
  /** Names the suite, e.g. `'repository writer'`. */
  name: string;
  /** Builds a source holding exactly the fixture's content, with its `writer` set. Called once per test. */
  create(fixture: SourceFixture): ContentSource | Promise<ContentSource>;
  /** Runs after the whole suite, to remove what `create` made (temporary folders, databases). */
  cleanup?(): void | Promise<void>;
  /**
   * Whether the writer keeps drafts. When false, a draft must be refused with `argument.invalid`
   * and nothing written; when true, a draft leaves the live content as it was.
   * @default false
   */
  drafts?: boolean;
}

/** Builds a source over a fixture (the contract fixture when none is given), closed after the test. */
type OpenWriterSource = (fixture?: SourceFixture) => Promise<ContentSource>;

/**
 * The contract every {@link ContentWriter} keeps, as a vitest suite, checked through the reads of
 * the source it belongs to: compare-and-swap on the content hash (`content.conflict`, nothing
 * changed), pages written, replaced, moved across versions and locales and deleted, navigation
 * and manifest files written, receipts, change notices to `watch` listeners before a call returns,
 * and drafts. It uses the fixtures of {@link runSourceContract}.
 *
 * @example
 * // packages/source-fs/src/writer.test.ts
 * runWriterContract({ name: 'repository writer', create: (fixture) => createFsSource({ root: writeFixture(fixture), setKey: 'docs' }) });
 */
export function runWriterContract(options: WriterContractOptions): void {
  describe(`${options.name} keeps the content-writer contract`, () => {
    const openFixture = sourceOpener(options);
    const open = (fixture: SourceFixture = contractFixture) => openFixture(fixture);

    pageWriteTests(open);
    pageWriteRefusalTests(open);
    pageMoveTests(open);
    pageDeleteTests(open);
    navigationWriteTests(open);
    manifestWriteTests(open);
    watchTests(open);
    draftTests(open, options.drafts ?? false);
  });
}

/** Pages written and replaced, and the receipts of those writes. */
function pageWriteTests(open: OpenWriterSource): void {
  it('writes a new page that the next read returns with the hash the receipt carries', async () => {
    const source = await open();
    const text = '---\ntitle: Fresh\n---\n\n# Fresh page\n\nNew.\n';
    const page = { version: '2.x', locale: 'en', path: 'guides/fresh' };
    const receipt = await writerOf(source).writePage(page, text, null, change('write_page'));
    expect(receipt.outcome).toBe('published');
    expect(receipt.revision.content_hash).toBe(contentHash(text));
    const read = await source.getPage('2.x', 'en', 'guides/fresh');
    expect(read?.title).toBe('Fresh');
    expect(read?.body).toContain('New.');
    expect(read?.contentHash).toBe(receipt.revision.content_hash);
    expect((await source.listPages('2.x', 'en')).map((listed) => listed.path)).toContain('guides/fresh');
    expect(await source.getPage('2.x', 'ar', 'guides/fresh')).toBeNull();
  });

  it('describes the change in the receipt: kind, version, locale, path, summary and time', async () => {
    const source = await open();
    const text = '# Arabic page\n';
    const before = Date.now();
    const receipt = await writerOf(source).writePage(
      { version: '2.x', locale: 'ar', path: 'guides/new' },
      text,
      null,
      change('write_page', { summary: 'Adds a page' }),
    );
    expect(receipt.revision).toMatchObject({
      content_hash: contentHash(text),
      kind: 'page',
      version: '2.x',
      locale: 'ar',
      path: 'guides/new',
      summary: 'Adds a page',
    });
    if (receipt.revision.created_at !== undefined) {
      expectIsoDate(receipt.revision.created_at);
      expect(Date.parse(receipt.revision.created_at)).toBeGreaterThanOrEqual(before - 1000);
    }
    expect(receipt.docs_migration === null || typeof receipt.docs_migration?.file === 'string').toBe(true);
  });

  it('hashes a written page like a read one, whatever its line endings', async () => {
    const source = await open();
    const text = '---\r\ntitle: Windows\r\n---\r\n# Windows\r\n';
    const receipt = await writerOf(source).writePage(
      { version: '2.x', locale: 'en', path: 'crlf' },
      text,
      null,
      change('write_page'),
    );
    expect(receipt.revision.content_hash).toBe(contentHash(text.replace(/\r\n/g, '\n')));
    expect(await hashOf(source, { version: '2.x', locale: 'en', path: 'crlf' })).toBe(receipt.revision.content_hash);
  });

  it('writes a page into an unversioned set', async () => {
    const source = await open(unversionedFixture);
    const page = { version: 'current', locale: 'en', path: 'team/people' };
    await writerOf(source).writePage(page, '# People\n', null, change('write_page'));
    expect((await source.getPage('current', 'en', 'team/people'))?.title).toBe('People');
    expect((await source.listPages('current', 'en')).map((listed) => listed.path)).toEqual([
      'about',
      'index',
      'team/people',
    ]);
  });

  it('replaces a page when expected is its current hash', async () => {
    const source = await open();
    const expected = await hashOf(source, en2);
    const text = '# Setting up, again\n\nInstall it twice.\n';
    const receipt = await writerOf(source).writePage(en2, text, expected, change('write_page'));
    const read = await source.getPage('2.x', 'en', 'guides/setup');
    expect(read?.title).toBe('Setting up, again');
    expect(read?.contentHash).toBe(contentHash(text));
    expect(receipt.revision.content_hash).toBe(contentHash(text));
    // The other pages of the folder stay where they were.
    expect((await source.getPage('2.x', 'en', 'guides/index'))?.body).toBe(
      'A folder landing page without a heading.\n',
    );
    expect((await source.getPage('2.x', 'ar', 'guides/setup'))?.title).toBe('الإعداد');
  });

  it('replaces a folder landing page in place', async () => {
    const source = await open();
    const page = { version: '2.x', locale: 'en', path: 'guides/index' };
    await writerOf(source).writePage(page, '# Guides\n', await hashOf(source, page), change('write_page'));
    expect((await source.getPage('2.x', 'en', 'guides/index'))?.title).toBe('Guides');
    expect(await source.getPage('2.x', 'en', 'guides')).toBeNull();
  });
}

/** Page writes refused: stale hashes, pages that exist or do not, and bad paths. */
function pageWriteRefusalTests(open: OpenWriterSource): void {
  it('refuses a write whose expected hash is stale, leaving the content as it was', async () => {
    const source = await open();
    const before = await snapshot(source);
    const stale = contentHash('# An older version of the page\n');
    await rejectsWith(
      writerOf(source).writePage(en2, '# Overwritten\n', stale, change('write_page')),
      'content.conflict',
    );
    expect(await snapshot(source)).toEqual(before);
  });

  it('refuses to create a page that already exists, leaving it as it was', async () => {
    const source = await open();
    const before = await snapshot(source);
    await rejectsWith(
      writerOf(source).writePage(en2, '# Overwritten\n', null, change('write_page')),
      'content.conflict',
    );
    expect(await snapshot(source)).toEqual(before);
  });

  it('refuses to replace a page that does not exist, writing nothing', async () => {
    const source = await open();
    const before = await snapshot(source);
    const page = { version: '2.x', locale: 'en', path: 'gone' };
    await rejectsWith(
      writerOf(source).writePage(page, '# Gone\n', contentHash('# Gone\n'), change('write_page')),
      'content.conflict',
    );
    expect(await snapshot(source)).toEqual(before);
  });

  it('refuses page paths that climb out or are empty, writing nothing', async () => {
    const source = await open();
    const before = await snapshot(source);
    for (const path of ['../1.x/escaped', 'guides/../../escaped', '', 'a//b', '/etc/escaped', 'a\\b', 'a\0b']) {
      await rejectsWith(
        writerOf(source).writePage({ version: '2.x', locale: 'en', path }, '# Escaped\n', null, change('write_page')),
        ['page.invalid_path', 'argument.invalid'],
      );
    }
    expect(await snapshot(source)).toEqual(before);
  });

  it('refuses page paths the page-path rule forbids, for writes and move targets, writing nothing', async () => {
    const source = await open();
    const writer = writerOf(source);
    const before = await snapshot(source);
    const routing = await hashOf(source, { version: '2.x', locale: 'en', path: 'routing' });
    for (const path of [
      'guides/a\nb',
      'guides/invoice\u202Efdp',
      'set\u200Bup',
      '.git/config',
      'guides/.env',
      'node_modules/pkg/readme',
      'guides /setup',
      `guides/${'a'.repeat(201)}`,
    ]) {
      const page = { version: '2.x', locale: 'en', path };
      await rejectsWith(writer.writePage(page, '# Refused\n', null, change('write_page')), 'page.invalid_path');
      await rejectsWith(
        writer.movePage({ version: '2.x', locale: 'en', path: 'routing' }, page, routing, change('move_page')),
        'page.invalid_path',
      );
    }
    expect(await snapshot(source)).toEqual(before);
  });
}

/** Pages moved, within a version and across versions and locales, and moves refused. */
function pageMoveTests(open: OpenWriterSource): void {
  it('moves a page: the old path is gone and the new one has the same text', async () => {
    const source = await open();
    const from = { version: '2.x', locale: 'en', path: 'routing' };
    const to = { version: '2.x', locale: 'en', path: 'guides/routing' };
    const original = await source.getPage('2.x', 'en', 'routing');
    const receipt = await writerOf(source).movePage(from, to, original!.contentHash, change('move_page'));
    expect(await source.getPage('2.x', 'en', 'routing')).toBeNull();
    const moved = await source.getPage('2.x', 'en', 'guides/routing');
    expect(moved?.contentHash).toBe(original!.contentHash);
    expect(moved?.frontmatter).toEqual(original!.frontmatter);
    expect(moved?.body).toBe(original!.body);
    expect(receipt.outcome).toBe('published');
    expect(receipt.revision).toMatchObject({
      content_hash: original!.contentHash,
      kind: 'page',
      version: '2.x',
      locale: 'en',
      path: 'guides/routing',
    });
    const paths = (await source.listPages('2.x', 'en')).map((page) => page.path);
    expect(paths).toContain('guides/routing');
    expect(paths).not.toContain('routing');
  });

  it('moves a page across versions and locales', async () => {
    const source = await open();
    const writer = writerOf(source);
    const setup = await hashOf(source, en2);
    await writer.movePage(en2, { version: '1.x', locale: 'en', path: 'setup' }, setup, change('move_page'));
    expect(await source.getPage('2.x', 'en', 'guides/setup')).toBeNull();
    expect(await hashOf(source, { version: '1.x', locale: 'en', path: 'setup' })).toBe(setup);

    const arabic = { version: '2.x', locale: 'ar', path: 'guides/setup' };
    const arabicHash = await hashOf(source, arabic);
    await writer.movePage(arabic, { version: '1.x', locale: 'ar', path: 'setup' }, arabicHash, change('move_page'));
    expect(await source.getPage('2.x', 'ar', 'guides/setup')).toBeNull();
    expect(await hashOf(source, { version: '1.x', locale: 'ar', path: 'setup' })).toBe(arabicHash);
    expect(await source.getPage('1.x', 'en', 'setup')).not.toBeNull();

    const legacy = { version: '1.x', locale: 'en', path: 'legacy' };
    const legacyHash = await hashOf(source, legacy);
    await writer.movePage(legacy, { version: '2.x', locale: 'ar', path: 'legacy' }, legacyHash, change('move_page'));
    expect(await hashOf(source, { version: '2.x', locale: 'ar', path: 'legacy' })).toBe(legacyHash);
    expect((await source.listPages('1.x', 'en')).map((page) => page.path)).toEqual(['index', 'setup']);
  });

  it('refuses to move a page onto one that exists, changing neither', async () => {
    const source = await open();
    const before = await snapshot(source);
    await rejectsWith(
      writerOf(source).movePage(
        en2,
        { version: '2.x', locale: 'en', path: 'routing' },
        await hashOf(source, en2),
        change('move_page'),
      ),
      'page.exists',
    );
    expect(await snapshot(source)).toEqual(before);
  });

  it('refuses to move a page whose expected hash is stale, changing nothing', async () => {
    const source = await open();
    const before = await snapshot(source);
    await rejectsWith(
      writerOf(source).movePage(
        en2,
        { version: '2.x', locale: 'en', path: 'moved' },
        contentHash('# Setting up (old)\n'),
        change('move_page'),
      ),
      'content.conflict',
    );
    expect(await snapshot(source)).toEqual(before);
  });
}

/** Pages deleted, and deletions refused. */
function pageDeleteTests(open: OpenWriterSource): void {
  it('deletes a page, the receipt carrying the hash of what was removed', async () => {
    const source = await open();
    const page = { version: '2.x', locale: 'en', path: 'routing' };
    const removed = await hashOf(source, page);
    const receipt = await writerOf(source).deletePage(page, removed, change('delete_page'));
    expect(await source.getPage('2.x', 'en', 'routing')).toBeNull();
    expect((await source.listPages('2.x', 'en')).map((listed) => listed.path)).not.toContain('routing');
    expect(receipt.outcome).toBe('published');
    expect(receipt.revision).toMatchObject({
      content_hash: removed,
      kind: 'page',
      version: '2.x',
      locale: 'en',
      path: 'routing',
    });
    // The same path in another version is another page.
    expect(await source.getPage('2.x', 'ar', 'index')).not.toBeNull();
  });

  it('refuses to delete a page whose expected hash is stale, or that is gone, changing nothing', async () => {
    const source = await open();
    const before = await snapshot(source);
    const stale = contentHash('# Routing (old)\n');
    await rejectsWith(
      writerOf(source).deletePage({ version: '2.x', locale: 'en', path: 'routing' }, stale, change('delete_page')),
      'content.conflict',
    );
    await rejectsWith(
      writerOf(source).deletePage({ version: '2.x', locale: 'en', path: 'missing' }, stale, change('delete_page')),
      'content.conflict',
    );
    expect(await snapshot(source)).toEqual(before);
  });
}

/** Navigation files written, and writes refused. */
function navigationWriteTests(open: OpenWriterSource): void {
  it('writes a navigation file, with null as the expected hash of one that does not exist yet', async () => {
    const source = await open();
    const writer = writerOf(source);
    const text = JSON.stringify({ groups: [{ label: 'Old', pages: ['index', 'legacy'] }] }, null, 2);
    const created = await writer.writeNavigation(
      { version: '1.x', locale: 'en' },
      text,
      null,
      change('update_navigation'),
    );
    expect((await source.readNavigation('1.x', 'en'))?.text).toBe(text);
    expect(created.outcome).toBe('published');
    expect(created.revision).toMatchObject({
      content_hash: contentHash(text),
      kind: 'navigation',
      version: '1.x',
      locale: 'en',
    });

    const current = (await source.readNavigation('2.x', 'ar'))!.text;
    const replacement = JSON.stringify({ groups: [{ label: 'الدليل', pages: ['index', 'guides/setup'] }] });
    await writer.writeNavigation(
      { version: '2.x', locale: 'ar' },
      replacement,
      contentHash(current),
      change('update_navigation'),
    );
    expect((await source.readNavigation('2.x', 'ar'))?.text).toBe(replacement);
    expect(JSON.parse((await source.readNavigation('2.x', 'en'))!.text).groups[0].label).toBe('Start');
  });

  it('refuses a navigation write whose expected hash is stale or null over an existing file, changing nothing', async () => {
    const source = await open();
    const before = await snapshot(source);
    const writer = writerOf(source);
    const text = JSON.stringify({ groups: [] });
    await rejectsWith(
      writer.writeNavigation({ version: '2.x', locale: 'en' }, text, null, change('update_navigation')),
      'content.conflict',
    );
    await rejectsWith(
      writer.writeNavigation({ version: '2.x', locale: 'en' }, text, contentHash('{}'), change('update_navigation')),
      'content.conflict',
    );
    await rejectsWith(
      writer.writeNavigation({ version: '1.x', locale: 'en' }, text, contentHash('{}'), change('update_navigation')),
      'content.conflict',
    );
    expect(await snapshot(source)).toEqual(before);
  });
}

/** The manifest written, writes refused, and a new version the manifest declares. */
function manifestWriteTests(open: OpenWriterSource): void {
  it('writes the manifest, with null as the expected hash when the set has none', async () => {
    const source = await open(unversionedFixture);
    const writer = writerOf(source);
    const text = `${JSON.stringify({ name: 'Written', futureKey: [1] }, null, 2)}\n`;
    const created = await writer.writeManifest(text, null, change('update_manifest'));
    expect((await source.readManifest())?.text).toBe(text);
    expect(created.outcome).toBe('published');
    expect(created.revision).toMatchObject({ content_hash: contentHash(text), kind: 'manifest' });
    expect((await source.getPage('current', 'en', 'about'))?.title).toBe('About us');

    const replacement = JSON.stringify({ name: 'Rewritten' });
    await writer.writeManifest(replacement, contentHash(text), change('update_manifest'));
    expect((await source.readManifest())?.text).toBe(replacement);
  });

  it('refuses a manifest write whose expected hash is stale or null over an existing manifest, changing nothing', async () => {
    const source = await open();
    const before = await snapshot(source);
    const writer = writerOf(source);
    const text = JSON.stringify({ name: 'Overwritten' });
    await rejectsWith(writer.writeManifest(text, null, change('update_manifest')), 'content.conflict');
    await rejectsWith(writer.writeManifest(text, contentHash('{}'), change('update_manifest')), 'content.conflict');
    expect(await snapshot(source)).toEqual(before);
    const empty = await open(unversionedFixture);
    await rejectsWith(
      writerOf(empty).writeManifest(text, contentHash('{}'), change('update_manifest')),
      'content.conflict',
    );
    expect(await empty.readManifest()).toBeNull();
  });

  it('follows a manifest that declares a new version: pages can be written and read there at once', async () => {
    const source = await open();
    const current = (await source.readManifest())!.text;
    const manifest = JSON.parse(current);
    manifest.versions = ['3.x', ...manifest.versions];
    await writerOf(source).writeManifest(
      JSON.stringify(manifest, null, 2),
      contentHash(current),
      change('update_manifest'),
    );
    const page = { version: '3.x', locale: 'en', path: 'index' };
    await writerOf(source).writePage(page, '# Version three\n', null, change('write_page'));
    expect((await source.getPage('3.x', 'en', 'index'))?.title).toBe('Version three');
    expect((await source.listPages('3.x', 'en')).map((listed) => listed.path)).toEqual(['index']);
    expect((await source.getPage('2.x', 'en', 'index'))?.title).toBe('Welcome');
  });
}

/** Change notices to `watch` listeners. */
function watchTests(open: OpenWriterSource): void {
  it('tells watch listeners what changed before the call returns', async (context) => {
    const source = await open();
    // A source that cannot be watched has no one to tell; its reads are checked by the other tests.
    if (!source.watch) return context.skip();
    const writer = writerOf(source);
    const heard: ContentChange[] = [];
    const stop = source.watch((notice) => heard.push(notice));
    const expectHeard = async (call: Promise<WriteReceipt>, wanted: ContentChange[]) => {
      heard.length = 0;
      await call;
      for (const notice of wanted) expect(heard).toContainEqual(notice);
    };
    try {
      await expectHeard(writer.writePage(en2, '# Heard\n', await hashOf(source, en2), change('write_page')), [
        { kind: 'page', version: '2.x', locale: 'en', path: 'guides/setup' },
      ]);
      await expectHeard(
        writer.movePage(
          en2,
          { version: '1.x', locale: 'en', path: 'heard' },
          contentHash('# Heard\n'),
          change('move_page'),
        ),
        [
          { kind: 'page', version: '2.x', locale: 'en', path: 'guides/setup' },
          { kind: 'page', version: '1.x', locale: 'en', path: 'heard' },
        ],
      );
      await expectHeard(
        writer.deletePage(
          { version: '1.x', locale: 'en', path: 'heard' },
          contentHash('# Heard\n'),
          change('delete_page'),
        ),
        [{ kind: 'page', version: '1.x', locale: 'en', path: 'heard' }],
      );
      await expectHeard(
        writer.writeNavigation({ version: '1.x', locale: 'en' }, '{"groups":[]}', null, change('update_navigation')),
        [{ kind: 'navigation', version: '1.x', locale: 'en' }],
      );
      const manifest = (await source.readManifest())!.text;
      await expectHeard(
        writer.writeManifest(
          manifest.replace('"Acme"', '"Acme Docs"'),
          contentHash(manifest),
          change('update_manifest'),
        ),
        [{ kind: 'manifest' }],
      );
    } finally {
      stop();
    }
  });
}

/** Drafts: kept apart by a writer that keeps them, refused by one that does not. */
function draftTests(open: OpenWriterSource, drafts: boolean): void {
  if (drafts) {
    it('keeps a draft apart: the live page stays as it was and the outcome is drafted', async () => {
      const source = await open();
      const before = await snapshot(source);
      const receipt = await writerOf(source).writePage(
        en2,
        '# Draft\n',
        await hashOf(source, en2),
        change('write_page', { draft: true }),
      );
      expect(receipt.outcome).toBe('drafted');
      expect(receipt.revision.content_hash).toBe(contentHash('# Draft\n'));
      expect(await snapshot(source)).toEqual(before);
    });
  } else {
    it('refuses drafts with argument.invalid, writing nothing', async () => {
      const source = await open();
      const before = await snapshot(source);
      const writer = writerOf(source);
      const draft = change('write_page', { draft: true });
      await rejectsWith(writer.writePage(en2, '# Draft\n', await hashOf(source, en2), draft), 'argument.invalid');
      await rejectsWith(
        writer.writePage({ version: '2.x', locale: 'en', path: 'draft' }, '# Draft\n', null, draft),
        'argument.invalid',
      );
      await rejectsWith(
        writer.movePage(en2, { ...en2, path: 'drafted' }, await hashOf(source, en2), { ...draft, tool: 'move_page' }),
        'argument.invalid',
      );
      await rejectsWith(
        writer.deletePage(en2, await hashOf(source, en2), { ...draft, tool: 'delete_page' }),
        'argument.invalid',
      );
      await rejectsWith(
        writer.writeNavigation({ version: '1.x', locale: 'en' }, '{"groups":[]}', null, {
          ...draft,
          tool: 'update_navigation',
        }),
        'argument.invalid',
      );
      const manifest = (await source.readManifest())!.text;
      await rejectsWith(
        writer.writeManifest('{"name":"Draft"}', contentHash(manifest), { ...draft, tool: 'update_manifest' }),
        'argument.invalid',
      );
      expect(await snapshot(source)).toEqual(before);
    });
  }
}
