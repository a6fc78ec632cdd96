import type { DraftChange, ReviewStore, RevisionEntry } from '@kit/core';
import { isKitError } from '@kit/core';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { RevisionRecord } from './change-types.js';
import type { KitDatabase } from './database.js';
import type { AssetDisk } from './disk.js';
import { discardRevision, publishRevision } from './draft-review.js';
import { ABSENT, toRecord } from './records.js';
import { listRevisions, restorePage } from './revision-history.js';

/**
 * The {@link ReviewStore} of a database set: drafts grouped into changes (the revisions one
 * transaction recorded, so a drafted move is one change), publish and discard through
 * `publishRevision` and `discardRevision`, history through `listRevisions`, restores through
 * `restorePage`. `announce` hears the revisions that went live, once committed.
 */
export function createDbReview(input: {
  db: KitDatabase;
  setKey: string;
  announce: (revisions: RevisionRecord[]) => void;
  /** Where a published file draft goes (the set's `source.disk`); without one, into its row. */
  disk?: AssetDisk;
}): ReviewStore {
  const { db, setKey, announce, disk } = input;
  const r = db.tables.revisions;

  const decided = (error: unknown): { outcome: 'decided'; status: 'applied' | 'discarded' } | null => {
    if (!isKitError(error, 'review.decided')) return null;
    const status = (error.details as { status?: string } | undefined)?.status;
    return { outcome: 'decided', status: status === 'discarded' ? 'discarded' : 'applied' };
  };

  return {
    async drafts() {
      const rows = await db.orm
        .select()
        .from(r)
        .where(and(eq(r.setKey, setKey), eq(r.status, 'draft')))
        .orderBy(asc(r.id));
      return groupChanges(rows.map((row) => ({ txid: row.txid, record: toRecord(row) })));
    },

    async change(id) {
      const revision = await this.revision(id);
      if (!revision || revision.status === 'published') return null;
      const [row] = await db.orm
        .select({ txid: r.txid })
        .from(r)
        .where(and(eq(r.setKey, setKey), eq(r.id, Number(revision.id))));
      if (row?.txid === null || row?.txid === undefined) return { id: revision.id, revisions: [revision] };
      const rows = await db.orm
        .select()
        .from(r)
        .where(and(eq(r.setKey, setKey), eq(r.txid, row.txid), inArray(r.status, ['draft', 'applied', 'discarded'])))
        .orderBy(asc(r.id));
      const revisions = rows.map(toRecord).map(entry);
      return { id: revisions[0]?.id ?? revision.id, revisions };
    },

    async publish(id, by) {
      try {
        const result = await publishRevision(db, setKey, id, {
          ...(by === null ? {} : { author: by }),
          ...(disk ? { disk } : {}),
        });
        if (result.published.length > 0) announce(result.published);
        return { outcome: 'published', published: result.published.map(entry), drafts: result.drafts.map(entry) };
      } catch (error) {
        const answer = decided(error);
        if (answer) return answer;
        throw error;
      }
    },

    async discard(id) {
      try {
        return { outcome: 'discarded', drafts: (await discardRevision(db, setKey, id)).map(entry) };
      } catch (error) {
        const answer = decided(error);
        if (answer) return answer;
        throw error;
      }
    },

    async history(query) {
      return (await listRevisions(db, setKey, query)).map(entry);
    },

    async current(subject) {
      const t = db.tables;
      if (subject.kind === 'page') {
        const [row] = await db.orm
          .select({ text: t.pages.document, contentHash: t.pages.contentHash })
          .from(t.pages)
          .where(
            and(
              eq(t.pages.setKey, setKey),
              eq(t.pages.version, subject.version ?? ''),
              eq(t.pages.locale, subject.locale ?? ''),
              eq(t.pages.path, subject.path ?? ''),
              isNull(t.pages.deletedAt),
            ),
          );
        return row ?? null;
      }
      if (subject.kind === 'navigation') {
        const n = t.navigations;
        const [row] = await db.orm
          .select({ tree: sql<string>`${n.tree}::text`, contentHash: n.contentHash })
          .from(n)
          .where(and(eq(n.setKey, setKey), eq(n.version, subject.version ?? ''), eq(n.locale, subject.locale ?? '')));
        return row ? { text: row.tree, contentHash: row.contentHash } : null;
      }
      const [row] = await db.orm
        .select({ text: t.manifests.document, contentHash: t.manifests.contentHash })
        .from(t.manifests)
        .where(eq(t.manifests.setKey, setKey));
      return row ?? null;
    },

    async revision(id) {
      if (!/^[1-9][0-9]{0,15}$/.test(id.trim())) return null;
      const [row] = await db.orm
        .select()
        .from(r)
        .where(and(eq(r.setKey, setKey), eq(r.id, Number(id.trim()))));
      return row ? entry(toRecord(row)) : null;
    },

    async restore(page, options) {
      const result = await restorePage(
        db,
        setKey,
        { ...page, ...(options.revisionId === undefined ? {} : { revisionId: options.revisionId }) },
        {
          ...(options.basedOn === undefined ? {} : { basedOn: options.basedOn === null ? ABSENT : options.basedOn }),
          ...(options.author ? { author: options.author } : {}),
          ...(options.summary ? { summary: options.summary } : {}),
        },
      );
      if (result.revision) announce([result.revision]);
      return {
        outcome: result.outcome === 'unchanged' ? 'unchanged' : 'published',
        contentHash: result.contentHash,
        restoredFrom: result.restoredFrom,
        revision: result.revision ? entry(result.revision) : null,
      };
    },
  };
}

function entry(record: RevisionRecord): RevisionEntry {
  const { setKey: _set, ...rest } = record;
  return rest;
}

/** Drafts recorded by one transaction (the halves of a move) are one change, named by its first id. */
function groupChanges(rows: Array<{ txid: number | null; record: RevisionRecord }>): DraftChange[] {
  const changes: DraftChange[] = [];
  const byTx = new Map<string, DraftChange>();
  for (const { txid, record } of rows) {
    const key = txid === null ? `id:${record.id}` : `tx:${txid}`;
    const found = byTx.get(key);
    if (found) {
      found.revisions.push(entry(record));
      continue;
    }
    const change = { id: record.id, revisions: [entry(record)] };
    byTx.set(key, change);
    changes.push(change);
  }
  return changes;
}
