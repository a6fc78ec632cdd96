import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { KitDatabase } from './database.js';
import { openDatabase } from './database.js';
import { createDbSource } from './db-source.js';
import { migrateKitTables } from './schema/migrate.js';
import { freshSetKey, testDatabases } from './testing/fixture.js';
import { movePage, writePage } from './writes.js';

const databases = testDatabases();
afterAll(() => databases.dispose());

const at = (path: string) => ({ version: 'current', locale: 'en', path });

function reviewSuite(name: string, open: () => Promise<KitDatabase>) {
  describe(`the review store on ${name}`, () => {
    it('publishes a drafted move whole, or refuses it whole when its new place was taken since', async () => {
      const db = await open();
      const setKey = freshSetKey('move');
      const source = createDbSource({ db, setKey });
      await writePage(db, setKey, { ...at('old'), body: '# Old\n' });
      await writePage(db, setKey, { ...at('other'), body: '# Other\n' });
      const moved = await movePage(db, setKey, at('old'), at('new'), { status: 'draft', author: 'agent' });
      const taken = await movePage(db, setKey, at('other'), at('taken'), { status: 'draft' });
      const [move, second] = await source.review.drafts();
      expect(move!.revisions.map((revision) => [revision.action, revision.path])).toEqual([
        ['write', 'new'],
        ['delete', 'old'],
      ]);
      expect(move!.id).toBe(moved.revision!.id);

      // Publishing by either half's id publishes both.
      const published = await source.review.publish(moved.deleted.id, 'editor');
      expect(published.outcome).toBe('published');
      expect((await source.listPages('current', 'en')).map((page) => page.path)).toEqual(['new', 'other']);

      await writePage(db, setKey, { ...at('taken'), body: '# Someone else\n' });
      await expect(source.review.publish(second!.id, 'editor')).rejects.toMatchObject({ code: 'content.conflict' });
      expect((await source.listPages('current', 'en')).map((page) => page.path)).toEqual(['new', 'other', 'taken']);
      expect((await source.review.drafts()).map((change) => change.id)).toEqual([taken.revision!.id]);
    });

    it('keeps a discarded draft in the history and refuses to publish it', async () => {
      const db = await open();
      const setKey = freshSetKey('discard');
      const source = createDbSource({ db, setKey });
      const live = await writePage(db, setKey, { ...at('index'), body: '# Home\n' });
      const draft = await writePage(db, setKey, { ...at('index'), body: '# Hacked\n' }, { status: 'draft' });
      expect(await source.review.discard(draft.revision!.id)).toMatchObject({ outcome: 'discarded' });
      expect(await source.review.discard(draft.revision!.id)).toEqual({ outcome: 'decided', status: 'discarded' });
      expect(await source.review.publish(draft.revision!.id, null)).toEqual({
        outcome: 'decided',
        status: 'discarded',
      });
      expect((await source.getPage('current', 'en', 'index'))?.contentHash).toBe(live.contentHash);
      const history = await source.review.history({ kind: 'page', ...at('index') });
      expect(history.map((revision) => revision.status)).toEqual(['discarded', 'published']);
    });
  });
}

reviewSuite('PGlite', databases.pglite);

describe.skipIf(!databases.url)('on PostgreSQL (KIT_TEST_DATABASE_URL)', () => {
  reviewSuite('PostgreSQL', databases.postgres);

  it('publishes a draft exactly once when two servers publish it at the same moment', async () => {
    const db = await databases.postgres();
    // A second server: its own connection pool on the same tables.
    const other = await openDatabase({ url: databases.url!, schema: databases.schema });
    try {
      const setKey = freshSetKey('race');
      const sources = [createDbSource({ db, setKey }), createDbSource({ db: other, setKey })];
      await writePage(db, setKey, { ...at('index'), body: '# Home\n' });
      for (let round = 0; round < 5; round += 1) {
        const draft = await writePage(
          db,
          setKey,
          { ...at('index'), body: `# Home\n\nRound ${round}.\n` },
          { status: 'draft' },
        );
        const outcomes = await Promise.all(sources.map((source) => source.review.publish(draft.revision!.id, null)));
        expect(outcomes.map((outcome) => outcome.outcome).sort()).toEqual(['decided', 'published']);
        const published = await sources[0]!.review.history({ kind: 'page', ...at('index'), limit: 1 });
        expect(published[0]).toMatchObject({ status: 'published', snapshot: `# Home\n\nRound ${round}.\n` });
      }
      const history = await sources[0]!.review.history({ kind: 'page', ...at('index') });
      expect(history.filter((revision) => revision.status === 'published')).toHaveLength(6);
    } finally {
      await other.close();
    }
  });
});

describe('tables made before drafts could be decided', () => {
  it('accept applied and discarded once migrated again', async () => {
    const db = await openDatabase();
    try {
      const table = sql.raw(`"${db.tables.schema}"."${db.tables.names.revision}"`);
      const constraint = sql.raw(`"${db.tables.names.revision}_status_check"`);
      await db.orm.execute(sql`ALTER TABLE ${table} DROP CONSTRAINT ${constraint}`);
      await db.orm.execute(sql`ALTER TABLE ${table} ADD CHECK (status IN ('published', 'draft'))`);
      const setKey = freshSetKey('old-table');
      const source = createDbSource({ db, setKey });
      const draft = await writePage(db, setKey, { ...at('index'), body: '# Home\n' }, { status: 'draft' });
      await expect(source.review.discard(draft.revision!.id)).rejects.toThrow();
      await migrateKitTables(db.orm, db.tables);
      expect(await source.review.discard(draft.revision!.id)).toMatchObject({ outcome: 'discarded' });
    } finally {
      await db.close();
    }
  });
});
