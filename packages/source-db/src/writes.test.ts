import { contentHash, isKitError } from '@kit/core';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { KitDatabase } from './database.js';
import { createDbSource } from './db-source.js';
import { applyDocsMigration } from './docs-migrations.js';
import { publishRevision } from './draft-review.js';
import { listRevisions, restorePage } from './revision-history.js';
import { freshSetKey, rejection, testDatabases } from './testing/fixture.js';
import { deletePage, movePage, toAuthorRevision, writeManifest, writeNavigation, writePage } from './writes.js';

const databases = testDatabases();
afterAll(() => databases.dispose());

const page = { version: 'current', locale: 'en', path: 'guides/routing' };
const first = '---\ntitle: Routing\n---\n# Routing\n\nFirst version.\n';
const second = '---\ntitle: Routing\n---\n# Routing\n\nSecond version.\n';

function writeSuite(name: string, open: () => Promise<KitDatabase>) {
  describe(`writes on ${name}`, () => {
    it('writes a page and a revision carrying the hash of what it wrote', async () => {
      const db = await open();
      const setKey = freshSetKey('write');
      const result = await writePage(db, setKey, { ...page, text: first }, { author: 'ada', summary: 'Add routing' });
      expect(result.outcome).toBe('published');
      const served = await createDbSource({ db, setKey }).getPage('current', 'en', 'guides/routing');
      expect(served?.contentHash).toBe(result.contentHash);
      expect(served?.provenance?.author).toBe('ada');
      const [revision] = await listRevisions(db, setKey);
      expect(revision).toMatchObject({
        kind: 'page',
        action: 'write',
        path: 'guides/routing',
        contentHash: result.contentHash,
        snapshot: first,
        summary: 'Add routing',
        author: 'ada',
        status: 'published',
      });
      expect(result.revision).toEqual(revision);
      expect(toAuthorRevision(revision!)).toEqual({
        content_hash: result.contentHash,
        id: revision!.id,
        kind: 'page',
        version: 'current',
        locale: 'en',
        path: 'guides/routing',
        summary: 'Add routing',
        created_at: revision!.createdAt,
      });
    });

    it('composes the page file from frontmatter and body given apart', async () => {
      const db = await open();
      const setKey = freshSetKey('compose');
      await writePage(db, setKey, {
        ...page,
        frontmatter: { title: 'Routing', sources: ['src/router.ts'] },
        body: '# R\n',
      });
      const served = await createDbSource({ db, setKey }).getPage('current', 'en', 'guides/routing');
      expect(served).toMatchObject({
        title: 'Routing',
        frontmatter: { sources: ['src/router.ts'] },
        body: '# R\n',
        bodyLine: 6,
      });
    });

    it('records nothing when a write would store exactly what is there', async () => {
      const db = await open();
      const setKey = freshSetKey('same');
      const written = await writePage(db, setKey, { ...page, text: first });
      const again = await writePage(db, setKey, { ...page, text: first.replace(/\n/g, '\r\n') });
      expect(again).toEqual({ outcome: 'unchanged', contentHash: written.contentHash, revision: null });
      expect(await listRevisions(db, setKey)).toHaveLength(1);
    });

    it('refuses a write whose based_on is stale and leaves the page as it was', async () => {
      const db = await open();
      const setKey = freshSetKey('stale');
      const v1 = await writePage(db, setKey, { ...page, text: first });
      const v2 = await writePage(db, setKey, { ...page, text: second }, { basedOn: v1.contentHash });
      expect(v2.outcome).toBe('published');
      const error = await rejection(writePage(db, setKey, { ...page, text: '# Late\n' }, { basedOn: v1.contentHash }));
      expect(error.code).toBe('content.conflict');
      expect(error.details).toMatchObject({ basedOn: v1.contentHash, currentHash: v2.contentHash });
      expect((await createDbSource({ db, setKey }).getPage('current', 'en', page.path))?.contentHash).toBe(
        v2.contentHash,
      );
      expect(await listRevisions(db, setKey)).toHaveLength(2);
    });

    it('refuses a based_on for a page that no longer exists', async () => {
      const db = await open();
      const setKey = freshSetKey('gone');
      const v1 = await writePage(db, setKey, { ...page, text: first });
      await deletePage(db, setKey, page);
      const error = await rejection(writePage(db, setKey, { ...page, text: second }, { basedOn: v1.contentHash }));
      expect(error.code).toBe('content.conflict');
      expect(error.message).toContain('no longer exists');
    });

    it('rolls the page back when the revision cannot be written, so nothing is half-written', async () => {
      const db = await open();
      const setKey = freshSetKey('atomic');
      const revisions = sql.raw(`"${db.tables.schema}"."${db.tables.names.revision}"`);
      const constraint = sql.raw(`"no_boom_${setKey}"`);
      await db.orm.execute(
        sql`ALTER TABLE ${revisions} ADD CONSTRAINT ${constraint} CHECK (set_key <> ${sql.raw(`'${setKey}'`)} OR summary IS DISTINCT FROM 'boom')`,
      );
      try {
        await expect(writePage(db, setKey, { ...page, text: first }, { summary: 'boom' })).rejects.toThrow();
        const source = createDbSource({ db, setKey });
        expect(await source.getPage('current', 'en', page.path)).toBeNull();
        expect(await source.listPages('current', 'en')).toEqual([]);

        const v1 = await writePage(db, setKey, { ...page, text: first });
        await expect(writePage(db, setKey, { ...page, text: second }, { summary: 'boom' })).rejects.toThrow();
        await expect(deletePage(db, setKey, page, { summary: 'boom' })).rejects.toThrow();
        expect((await source.getPage('current', 'en', page.path))?.contentHash).toBe(v1.contentHash);
        expect((await listRevisions(db, setKey)).map((r) => r.contentHash)).toEqual([v1.contentHash]);
      } finally {
        await db.orm.execute(sql`ALTER TABLE ${revisions} DROP CONSTRAINT ${constraint}`);
      }
    });

    it('keeps a deleted page in the revision history and restores it as it was', async () => {
      const db = await open();
      const setKey = freshSetKey('restore');
      const source = createDbSource({ db, setKey });
      const written = await writePage(db, setKey, { ...page, text: first });
      const before = await source.getPage('current', 'en', page.path);
      const deleted = await deletePage(db, setKey, page, { basedOn: written.contentHash, author: 'bob' });
      expect(deleted.outcome).toBe('published');
      expect(deleted.revision).toMatchObject({ action: 'delete', contentHash: written.contentHash, snapshot: first });
      expect(await source.getPage('current', 'en', page.path)).toBeNull();
      expect(await source.listPages('current', 'en')).toEqual([]);

      const restored = await restorePage(db, setKey, page, { author: 'carol' });
      expect(restored.outcome).toBe('published');
      expect(restored.contentHash).toBe(written.contentHash);
      expect(restored.revision?.action).toBe('restore');
      const after = await source.getPage('current', 'en', page.path);
      expect({ ...after, updatedAt: null, provenance: null }).toEqual({ ...before, updatedAt: null, provenance: null });
      expect((await listRevisions(db, setKey, { path: page.path })).map((r) => r.action)).toEqual([
        'restore',
        'delete',
        'write',
      ]);
    });

    it('restores a chosen older revision of a live page', async () => {
      const db = await open();
      const setKey = freshSetKey('older');
      const v1 = await writePage(db, setKey, { ...page, text: first });
      await writePage(db, setKey, { ...page, text: second });
      const restored = await restorePage(db, setKey, { ...page, revisionId: v1.revision!.id });
      expect(restored.contentHash).toBe(v1.contentHash);
      expect((await createDbSource({ db, setKey }).getPage('current', 'en', page.path))?.body).toContain(
        'First version.',
      );
    });

    it('lets a new page take the path of a deleted one', async () => {
      const db = await open();
      const setKey = freshSetKey('reuse');
      await writePage(db, setKey, { ...page, text: first });
      await deletePage(db, setKey, page);
      const again = await writePage(db, setKey, { ...page, text: second });
      expect(again.outcome).toBe('published');
      expect((await createDbSource({ db, setKey }).listPages('current', 'en')).map((p) => p.body)).toEqual([
        '# Routing\n\nSecond version.\n',
      ]);
    });

    it('moves a page in one change, keeping the old path in the history so it can be restored', async () => {
      const db = await open();
      const setKey = freshSetKey('move');
      const source = createDbSource({ db, setKey });
      const written = await writePage(db, setKey, { ...page, text: first });
      const to = { ...page, path: 'basics/routing' };
      const moved = await movePage(db, setKey, page, to, {
        basedOn: written.contentHash,
        author: 'ada',
        summary: 'Move',
      });
      expect(moved.outcome).toBe('published');
      expect(moved.contentHash).toBe(written.contentHash);
      expect(moved.revision).toMatchObject({ action: 'write', path: 'basics/routing', author: 'ada', summary: 'Move' });
      expect(moved.deleted).toMatchObject({ action: 'delete', path: 'guides/routing', snapshot: first });
      expect((await source.listPages('current', 'en')).map((p) => p.path)).toEqual(['basics/routing']);
      expect((await source.getPage('current', 'en', to.path))?.contentHash).toBe(written.contentHash);
      await restorePage(db, setKey, page);
      expect((await source.listPages('current', 'en')).map((p) => p.path)).toEqual([
        'basics/routing',
        'guides/routing',
      ]);
    });

    it('refuses a move onto a live page, or from a stale read, and changes nothing', async () => {
      const db = await open();
      const setKey = freshSetKey('move-refused');
      const source = createDbSource({ db, setKey });
      const a = await writePage(db, setKey, { ...page, text: first });
      const other = { ...page, path: 'other' };
      await writePage(db, setKey, { ...other, text: second });
      const taken = await rejection(movePage(db, setKey, page, other, { basedOn: a.contentHash }));
      expect(taken.code).toBe('page.exists');
      const stale = await rejection(movePage(db, setKey, page, { ...page, path: 'free' }, { basedOn: 'sha256:old' }));
      expect(stale.code).toBe('content.conflict');
      expect((await rejection(movePage(db, setKey, { ...page, path: 'none' }, { ...page, path: 'free' }))).code).toBe(
        'page.not_found',
      );
      expect((await source.listPages('current', 'en')).map((p) => p.path)).toEqual(['guides/routing', 'other']);
      expect(await listRevisions(db, setKey)).toHaveLength(2);
    });

    it('records a drafted move as two draft revisions and leaves both paths as they are', async () => {
      const db = await open();
      const setKey = freshSetKey('move-draft');
      const source = createDbSource({ db, setKey });
      await writePage(db, setKey, { ...page, text: first });
      const moved = await movePage(db, setKey, page, { ...page, path: 'later' }, { status: 'draft' });
      expect(moved.outcome).toBe('drafted');
      expect([moved.revision?.status, moved.deleted.status]).toEqual(['draft', 'draft']);
      expect((await source.listPages('current', 'en')).map((p) => p.path)).toEqual(['guides/routing']);
    });

    it('serves a navigation file as written, and one stored before that as indented JSON', async () => {
      const db = await open();
      const setKey = freshSetKey('nav-text');
      const source = createDbSource({ db, setKey });
      const text = '{"groups": [{"label": "Start", "pages": ["index"]}]}';
      const written = await writeNavigation(db, setKey, { version: 'current', locale: 'en', text });
      expect(written.contentHash).toBe(contentHash(text));
      expect((await source.readNavigation('current', 'en'))?.text).toBe(text);

      // A row written by an older release: compact json, hashed as the indented tree.
      const tree = { groups: [{ label: 'Old', pages: ['index'] }] };
      const indented = `${JSON.stringify(tree, null, 2)}\n`;
      await db.orm.insert(db.tables.navigations).values({
        setKey,
        version: 'current',
        locale: 'ar',
        tree,
        contentHash: contentHash(indented),
      });
      expect((await source.readNavigation('current', 'ar'))?.text).toBe(indented);
    });

    it('says what is wrong with a delete or restore that has nothing to act on', async () => {
      const db = await open();
      const setKey = freshSetKey('nothing');
      expect((await rejection(deletePage(db, setKey, page))).code).toBe('page.not_found');
      expect((await rejection(restorePage(db, setKey, page))).code).toBe('page.not_found');
    });

    it('keeps a draft out of the served page until it is published', async () => {
      const db = await open();
      const setKey = freshSetKey('draft');
      const source = createDbSource({ db, setKey });
      const v1 = await writePage(db, setKey, { ...page, text: first });
      const draft = await writePage(db, setKey, { ...page, text: second }, { status: 'draft', author: 'agent' });
      expect(draft.outcome).toBe('drafted');
      expect((await source.getPage('current', 'en', page.path))?.contentHash).toBe(v1.contentHash);
      expect(await listRevisions(db, setKey, { status: 'draft' })).toHaveLength(1);

      const published = await publishRevision(db, setKey, draft.revision!.id, { author: 'editor' });
      expect(published.outcome).toBe('published');
      expect((await source.getPage('current', 'en', page.path))?.contentHash).toBe(draft.contentHash);
      expect(await listRevisions(db, setKey, { status: 'draft' })).toEqual([]);
      expect((await listRevisions(db, setKey))[0]).toMatchObject({ status: 'published', author: 'editor' });
    });

    it('keeps a page live while its deletion is a draft, and deletes it when the draft is published', async () => {
      const db = await open();
      const setKey = freshSetKey('draft-delete');
      const source = createDbSource({ db, setKey });
      const written = await writePage(db, setKey, { ...page, text: first });
      const draft = await deletePage(db, setKey, page, { status: 'draft', author: 'agent' });
      expect(draft.outcome).toBe('drafted');
      expect(draft.revision).toMatchObject({ action: 'delete', status: 'draft', snapshot: first });
      expect((await source.getPage('current', 'en', page.path))?.contentHash).toBe(written.contentHash);

      const published = await publishRevision(db, setKey, draft.revision!.id, { author: 'editor' });
      expect(published.revision).toMatchObject({ action: 'delete', status: 'published', author: 'editor' });
      expect(await source.getPage('current', 'en', page.path)).toBeNull();
      expect((await restorePage(db, setKey, page)).contentHash).toBe(written.contentHash);
    });

    it('refuses to publish a draft written against content that changed since', async () => {
      const db = await open();
      const setKey = freshSetKey('stale-draft');
      await writePage(db, setKey, { ...page, text: first });
      const draft = await writePage(db, setKey, { ...page, text: second }, { status: 'draft' });
      await writePage(db, setKey, { ...page, text: '# Someone else\n' });
      expect((await rejection(publishRevision(db, setKey, draft.revision!.id))).code).toBe('content.conflict');
    });

    it('refuses to publish a draft that creates a page, navigation or manifest another change created since', async () => {
      const db = await open();
      const setKey = freshSetKey('created-since');
      const source = createDbSource({ db, setKey });
      const scope = { version: 'current', locale: 'en' };

      const pageDraft = await writePage(db, setKey, { ...page, text: first }, { status: 'draft' });
      const theirs = await writePage(db, setKey, { ...page, text: '# Theirs\n' });
      const pageError = await rejection(publishRevision(db, setKey, pageDraft.revision!.id));
      expect(pageError.code).toBe('content.conflict');
      expect(pageError.message).toContain('did not exist when this change was written');
      expect(pageError.details).toMatchObject({ basedOn: null, currentHash: theirs.contentHash });
      expect((await source.getPage('current', 'en', page.path))?.contentHash).toBe(theirs.contentHash);

      const navigationDraft = await writeNavigation(
        db,
        setKey,
        { ...scope, tree: { groups: [{ label: 'Draft', pages: [] }] } },
        { status: 'draft' },
      );
      await writeNavigation(db, setKey, { ...scope, tree: { groups: [{ label: 'Theirs', pages: [] }] } });
      expect((await rejection(publishRevision(db, setKey, navigationDraft.revision!.id))).code).toBe(
        'content.conflict',
      );
      expect((await source.readNavigation('current', 'en'))?.text).toContain('Theirs');

      const manifestDraft = await writeManifest(db, setKey, { manifest: { name: 'Draft' } }, { status: 'draft' });
      await writeManifest(db, setKey, { manifest: { name: 'Theirs' } });
      expect((await rejection(publishRevision(db, setKey, manifestDraft.revision!.id))).code).toBe('content.conflict');
      expect((await source.readManifest())?.text).toContain('Theirs');
      // The refused drafts stay, to be merged and written again.
      expect(await listRevisions(db, setKey, { status: 'draft' })).toHaveLength(3);
    });

    it('publishes a draft that creates a page while there is still none, and records it as new', async () => {
      const db = await open();
      const setKey = freshSetKey('still-absent');
      const draft = await writePage(db, setKey, { ...page, text: first }, { status: 'draft' });
      expect(draft.revision?.basedOn).toBeNull();
      const published = await publishRevision(db, setKey, draft.revision!.id);
      expect(published).toMatchObject({ outcome: 'published', contentHash: draft.contentHash });
      expect(published.revision?.basedOn).toBeNull();
      expect((await createDbSource({ db, setKey }).getPage('current', 'en', page.path))?.contentHash).toBe(
        draft.contentHash,
      );
    });

    it('treats a draft stored with no based_on by an earlier release as creating its record', async () => {
      const db = await open();
      const setKey = freshSetKey('legacy-draft');
      const draft = await writePage(db, setKey, { ...page, text: first }, { status: 'draft' });
      const revisions = sql.raw(`"${db.tables.schema}"."${db.tables.names.revision}"`);
      await db.orm.execute(sql`UPDATE ${revisions} SET based_on = NULL WHERE id = ${Number(draft.revision!.id)}`);
      await writePage(db, setKey, { ...page, text: '# Theirs\n' });
      expect((await rejection(publishRevision(db, setKey, draft.revision!.id))).code).toBe('content.conflict');
    });

    it('restores only published content, never a pending draft', async () => {
      const db = await open();
      const setKey = freshSetKey('restore-draft');
      const source = createDbSource({ db, setKey });
      const v1 = await writePage(db, setKey, { ...page, text: first });
      await deletePage(db, setKey, page);
      const draft = await writePage(db, setKey, { ...page, text: second }, { status: 'draft' });

      const restored = await restorePage(db, setKey, page);
      expect(restored.contentHash).toBe(v1.contentHash);
      expect((await source.getPage('current', 'en', page.path))?.body).toContain('First version.');

      const named = await rejection(restorePage(db, setKey, { ...page, revisionId: draft.revision!.id }));
      expect(named.code).toBe('argument.invalid');
      expect(named.message).toContain('is a draft');
      expect(named.message).toContain('kit drafts publish');
      expect((await source.getPage('current', 'en', page.path))?.contentHash).toBe(v1.contentHash);
      expect(await listRevisions(db, setKey, { status: 'draft' })).toHaveLength(1);
    });

    it('refuses page paths the set could never serve, saying why and what to write instead', async () => {
      const db = await open();
      const setKey = freshSetKey('unservable');
      await writeManifest(db, setKey, { manifest: { name: 'Acme', versions: ['2.x', '1.x'], locales: ['en', 'ar'] } });
      const scope = { version: '2.x', locale: 'en' };
      const cases: Array<[string, string]> = [
        ['ar/routing', 'locale code'],
        ['1.x/old', 'version id'],
        ['a?b', '"?"'],
        ['a#b', '"#"'],
        ['llms.txt', 'agent file'],
        ['guides/llms-full.txt', 'agent file'],
        ['llms/extra', 'split agent files'],
        ['_kit/x', '_kit'],
        ['sitemap.xml', 'sitemap'],
        ['schemas/kit', 'JSON schemas'],
        ['ask', 'search endpoint'],
        ['skill.md', 'without .md'],
        ['skill', 'skill file'],
      ];
      for (const [path, why] of cases) {
        const error = await rejection(writePage(db, setKey, { ...scope, path, body: '# X\n' }));
        expect(error.code, path).toBe('page.invalid_path');
        expect(error.message, path).toContain(why);
      }
      expect(await listRevisions(db, setKey, { kind: 'page' })).toEqual([]);
      for (const path of ['guides/ar', 'routing/1.x', 'schemas', 'schemas/db/users', 'skills/deploy', 'llms']) {
        expect((await writePage(db, setKey, { ...scope, path, body: '# Fine\n' })).outcome, path).toBe('published');
      }
      // A browser's GET shows a page at the MCP endpoint's path; MCP clients use POST.
      expect((await writePage(db, setKey, { ...scope, path: 'mcp', body: '# MCP\n' })).outcome).toBe('published');
    });

    it('refuses text the database cannot store and revision ids that are not ids, with a KitError', async () => {
      const db = await open();
      const setKey = freshSetKey('unstorable');
      const body = await rejection(writePage(db, setKey, { ...page, body: 'one\n\ntwo\u0000\n' }));
      expect(body.code).toBe('argument.invalid');
      expect(body.message).toContain('NUL character (U+0000) on line 3');
      const frontmatter = await rejection(
        writePage(db, setKey, { ...page, frontmatter: { title: 'x\u0000' }, body: '# X\n' }),
      );
      expect(frontmatter.code).toBe('page.frontmatter');
      const escaped = await rejection(writePage(db, setKey, { ...page, text: '---\ntitle: "x\\0"\n---\n# X\n' }));
      expect(escaped.code).toBe('page.frontmatter');
      expect(
        (await rejection(writePage(db, setKey, { ...page, text: first }, { summary: 'a\u0000b' }))).message,
      ).toContain('The summary');
      expect(await listRevisions(db, setKey)).toEqual([]);
      // A literal backslash escape is text like any other.
      expect(
        (await writePage(db, setKey, { ...page, text: '---\ntitle: The \\u0000 escape\n---\n# X\n' })).outcome,
      ).toBe('published');

      for (const id of ['abc', '1.5', '-3', '', '99999999999999999999', Number.NaN]) {
        const published = await rejection(publishRevision(db, setKey, id));
        expect(published.code, String(id)).toBe('argument.invalid');
        expect(published.message).toContain('not a revision id');
        const restored = await rejection(restorePage(db, setKey, { ...page, revisionId: id }));
        expect(restored.code, String(id)).toBe('argument.invalid');
      }
      expect((await rejection(listRevisions(db, setKey, { limit: -1 }))).code).toBe('argument.invalid');
    });

    it('chains navigation and manifest changes on the content hash of the last change', async () => {
      const db = await open();
      const setKey = freshSetKey('chain');
      const source = createDbSource({ db, setKey });
      const tree = { groups: [{ label: 'Start', pages: ['index', { path: 'guides/routing', title: 'Routing' }] }] };
      const nav1 = await writeNavigation(db, setKey, { version: 'current', locale: 'en', tree });
      const moved = { groups: [{ label: 'Guides', pages: ['guides/routing'] }] };
      const nav2 = await writeNavigation(
        db,
        setKey,
        { version: 'current', locale: 'en', tree: moved },
        { basedOn: nav1.contentHash },
      );
      expect(JSON.parse((await source.readNavigation('current', 'en'))!.text)).toEqual(moved);
      expect(nav2.revision).toMatchObject({
        kind: 'navigation',
        version: 'current',
        locale: 'en',
        contentHash: nav2.contentHash,
      });
      const stale = writeNavigation(
        db,
        setKey,
        { version: 'current', locale: 'en', tree },
        { basedOn: nav1.contentHash },
      );
      expect((await rejection(stale)).code).toBe('content.conflict');

      const m1 = await writeManifest(db, setKey, { text: '{\n  "name": "Acme",\n  "zeta": 1,\n  "alpha": 2\n}\n' });
      expect((await source.readManifest())?.text).toBe('{\n  "name": "Acme",\n  "zeta": 1,\n  "alpha": 2\n}\n');
      await writeManifest(db, setKey, { manifest: { name: 'Acme 2' } }, { basedOn: m1.contentHash });
      const staleManifest = writeManifest(db, setKey, { manifest: { name: 'Late' } }, { basedOn: m1.contentHash });
      expect((await rejection(staleManifest)).code).toBe('content.conflict');
    });

    it('refuses navigation and manifests it could not serve, naming the fix', async () => {
      const db = await open();
      const setKey = freshSetKey('invalid');
      const badNavigation = await rejection(
        writeNavigation(db, setKey, { version: 'current', locale: 'en', text: '{"groups": [' }),
      );
      expect(badNavigation.code).toBe('navigation.invalid');
      const badManifest = await rejection(writeManifest(db, setKey, { text: '{ name: Acme }' }));
      expect(badManifest.code).toBe('manifest.invalid');
      expect(badManifest.message).toMatch(/fix the JSON/);
      expect(await listRevisions(db, setKey)).toEqual([]);
    });

    it('refuses pages outside the declared versions and locales, and paths that are not page paths', async () => {
      const db = await open();
      const setKey = freshSetKey('scope');
      await writeManifest(db, setKey, { manifest: { name: 'Acme', versions: ['2.x'], locales: ['en', 'ar'] } });
      await writePage(db, setKey, { version: '2.x', locale: 'ar', path: 'index', text: '# مرحبا\n' });
      const version = await rejection(
        writePage(db, setKey, { version: '3.x', locale: 'en', path: 'index', text: '# X\n' }),
      );
      expect(version.code).toBe('version.not_found');
      expect(version.message).toContain('2.x');
      const locale = await rejection(
        writePage(db, setKey, { version: '2.x', locale: 'fr', path: 'index', text: '# X\n' }),
      );
      expect(locale.code).toBe('locale.not_found');
      for (const path of ['/index', 'routing.md', '../x', 'a//b', '']) {
        const error = await rejection(writePage(db, setKey, { version: '2.x', locale: 'en', path, text: '# X\n' }));
        expect(error.code, path).toBe('page.invalid_path');
      }
      expect(
        isKitError(
          await rejection(writePage(db, setKey, { version: '2.x', locale: 'en', path: 'x' })),
          'argument.invalid',
        ),
      ).toBe(true);
    });

    it('tells a watcher about each published change, drafts left out', async () => {
      const db = await open();
      const setKey = freshSetKey('watch');
      const source = createDbSource({ db, setKey, pollInterval: 10 });
      const changes: unknown[] = [];
      const stop = source.watch!((change) => changes.push(change));
      try {
        await writePage(db, setKey, { ...page, text: first });
        await writePage(db, setKey, { ...page, text: second }, { status: 'draft' });
        await writeNavigation(db, setKey, { version: 'current', locale: 'en', tree: { groups: [] } });
        await deletePage(db, setKey, page);
        await expect.poll(() => changes.length).toBe(3);
        expect(changes).toEqual([
          { kind: 'page', version: 'current', locale: 'en', path: page.path },
          { kind: 'navigation', version: 'current', locale: 'en' },
          { kind: 'page', version: 'current', locale: 'en', path: page.path },
        ]);
      } finally {
        stop();
      }
    });
  });
}

writeSuite('PGlite', () => databases.pglite());

describe.skipIf(!databases.url)('on PostgreSQL (KIT_TEST_DATABASE_URL)', () => {
  writeSuite('PostgreSQL', () => databases.postgres());

  it('tells a watcher about changes whose transaction commits after many later ones', async () => {
    const db = await databases.postgres();
    const setKey = freshSetKey('slow');
    const busy = freshSetKey('busy');
    const scope = { version: 'current', locale: 'en' };
    const heard: string[] = [];
    const stop = createDbSource({ db, setKey, pollInterval: 20 }).watch!((change) =>
      heard.push(`${change.kind}:${change.path ?? ''}`),
    );
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let written = () => {};
    const begun = new Promise<void>((resolve) => {
      written = resolve;
    });
    try {
      // A docs migration takes its revision ids first and commits last.
      const migration = applyDocsMigration(db, setKey, 'slow', async (tx) => {
        await writeManifest(tx, setKey, { manifest: { name: 'Slow' } });
        for (let i = 0; i < 60; i++) await writePage(tx, setKey, { ...scope, path: `m${i}`, body: `# M${i}\n` });
        written();
        await gate;
      });
      await begun;
      for (let i = 0; i < 60; i++) await writePage(db, busy, { ...scope, path: `b${i}`, body: `# B${i}\n` });
      await writePage(db, setKey, { ...scope, path: 'quick', body: '# Quick\n' });
      await expect.poll(() => heard).toContain('page:quick');
      await new Promise((resolve) => setTimeout(resolve, 100));
      release();
      await migration;
      await expect.poll(() => heard.length).toBe(62);
      expect(heard).toContain('manifest:');
      expect(heard).toContain('page:m0');
      expect(new Set(heard).size).toBe(62);
    } finally {
      release();
      stop();
    }
  });

  it('gives one of two writers creating the same page at once a conflict, never a driver error', async () => {
    const db = await databases.postgres();
    const setKey = freshSetKey('race');
    const results = await Promise.allSettled(
      ['# One\n', '# Two\n', '# Three\n'].map((text) => writePage(db, setKey, { ...page, text })),
    );
    const refused = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason);
    for (const reason of refused) expect(isKitError(reason, 'content.conflict')).toBe(true);
    expect(results.some((r) => r.status === 'fulfilled')).toBe(true);
    expect(await createDbSource({ db, setKey }).listPages('current', 'en')).toHaveLength(1);
  });
});
