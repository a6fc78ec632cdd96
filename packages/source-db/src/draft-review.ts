import { KitError } from '@kit/core';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { applyAssetDraft } from './asset-writes.js';
import type { ChangeOptions, ChangeResult, PublishResult, RevisionRecord } from './change-types.js';
import type { KitDatabase } from './database.js';
import type { AssetDisk } from './disk.js';
import {
  ABSENT,
  checkBase,
  checkChange,
  checkText,
  type Executor,
  parseRevisionId,
  type RevisionRow,
  toRecord,
} from './records.js';
import type { KitTables } from './schema/tables.js';
import {
  deleteLivePageInTransaction,
  livePage,
  writeManifestInTransaction,
  writeNavigationInTransaction,
  writePageInTransaction,
} from './transaction-writes.js';

// Deciding a draft change: publishing it (made live, checked against what it was written on) or
// discarding it (kept in the history as proposed and dropped).

/**
 * The drafts that make up the change `revisionId` belongs to, locked for the rest of the
 * transaction: one draft, or every draft recorded in the same transaction (the two halves of a
 * drafted move, which are published or discarded together). Ordered by id, so two callers acting on
 * the same change, whichever id they name, lock its rows in the same order. Throws
 * `argument.invalid` when the set has no such revision, `review.decided` when the change was
 * published or discarded already (details: `status`), and `argument.invalid` for a revision that was
 * never a draft.
 */
async function lockDraftChange(tx: Executor, t: KitTables, setKey: string, revisionId: string | number) {
  const id = parseRevisionId(revisionId);
  const r = t.revisions;
  const [named] = await tx
    .select({ id: r.id, txid: r.txid })
    .from(r)
    .where(and(eq(r.setKey, setKey), eq(r.id, id)));
  if (!named) {
    throw new KitError(
      'argument.invalid',
      `Set "${setKey}" has no revision ${revisionId}. List the drafts (kit drafts, list_drafts) to find its id.`,
    );
  }
  const group =
    named.txid === null
      ? eq(r.id, id)
      : and(eq(r.txid, named.txid), sql`(${r.status} <> 'published' OR ${r.id} = ${id})`);
  const rows = await tx
    .select()
    .from(r)
    .where(and(eq(r.setKey, setKey), group))
    .orderBy(r.id)
    .for('update');
  const self = rows.find((row) => row.id === id)!;
  if (self.status === 'published') {
    throw new KitError(
      'argument.invalid',
      `Revision ${revisionId} of set "${setKey}" is a published change, not a draft. List the drafts (kit drafts, list_drafts) to find one.`,
    );
  }
  if (self.status !== 'draft') {
    throw new KitError(
      'review.decided',
      `Draft ${revisionId} of set "${setKey}" was ${self.status === 'applied' ? 'published' : 'discarded'} already.`,
      { details: { status: self.status } },
    );
  }
  // A draft shares its transaction only with the other half of its change.
  return rows.filter((row) => row.status === 'draft');
}

/** Records what became of a draft change: each of its revisions `applied` or `discarded`. */
async function markDrafts(
  tx: Executor,
  t: KitTables,
  setKey: string,
  drafts: ReadonlyArray<{ id: number }>,
  status: 'applied' | 'discarded',
): Promise<void> {
  await tx
    .update(t.revisions)
    .set({ status })
    .where(
      and(
        eq(t.revisions.setKey, setKey),
        inArray(
          t.revisions.id,
          drafts.map((draft) => draft.id),
        ),
      ),
    );
}

/**
 * Publishes a draft change (revisions recorded with `status: 'draft'`): its change is made live,
 * checked against the content it was written on (`content.conflict` when that moved on since,
 * nothing written), and each draft becomes `applied` while the change is recorded again as
 * published revisions (new ids, the draft's summary, `author` or else the draft's author). A
 * drafted move publishes as one change: both halves or neither. Two callers publishing the same
 * draft at once: one publishes, the other gets `review.decided`. A drafted file goes to `disk`
 * when given (the set's `source.disk`), else into its row.
 */
export async function publishRevision(
  db: KitDatabase,
  setKey: string,
  revisionId: string | number,
  options: { author?: string | null; disk?: AssetDisk } = {},
): Promise<PublishResult> {
  checkChange(setKey, options);
  const t = db.tables;
  return db.orm.transaction(async (tx) => {
    const drafts = await lockDraftChange(tx, t, setKey, revisionId);
    const published: RevisionRecord[] = [];
    let main: ChangeResult | null = null;
    for (const draft of drafts) {
      const result = await applyDraft(tx, t, setKey, draft, options);
      if (result.revision) published.push(result.revision);
      if (String(draft.id) === String(revisionId).trim() || main === null) main = result;
    }
    await markDrafts(tx, t, setKey, drafts, 'applied');
    return {
      ...main!,
      outcome: published.length > 0 ? 'published' : 'unchanged',
      published,
      drafts: drafts.map((draft) => toRecord({ ...draft, status: 'applied' })),
    };
  });
}

/**
 * Discards a draft change: nothing live changes, and each of its drafts is kept as `discarded`, so
 * the history shows what was proposed and dropped. A drafted move is discarded whole. Throws like
 * {@link publishRevision} for a revision that is no pending draft.
 */
export async function discardRevision(
  db: KitDatabase,
  setKey: string,
  revisionId: string | number,
): Promise<RevisionRecord[]> {
  checkText(setKey, 'The set key');
  const t = db.tables;
  return db.orm.transaction(async (tx) => {
    const drafts = await lockDraftChange(tx, t, setKey, revisionId);
    await markDrafts(tx, t, setKey, drafts, 'discarded');
    return drafts.map((draft) => toRecord({ ...draft, status: 'discarded' }));
  });
}

/** Makes one locked draft live, checked against what it was written on. */
async function applyDraft(
  tx: Executor,
  t: KitTables,
  setKey: string,
  draft: RevisionRow,
  options: { author?: string | null; disk?: AssetDisk },
): Promise<ChangeResult> {
  const change: ChangeOptions = {
    // A draft recorded where nothing existed (older rows hold null) creates its record only if
    // nothing exists still; anything else would overwrite a change it never saw.
    basedOn: draft.basedOn || ABSENT,
    summary: draft.summary,
    author: options.author ?? draft.author,
    status: 'published',
  };
  const ref = { version: draft.version ?? '', locale: draft.locale ?? '', path: draft.path ?? '' };
  if (draft.kind === 'page' && draft.action === 'delete') {
    const current = await livePage(tx, t, setKey, ref);
    checkBase(draft.basedOn, current?.contentHash ?? null, `page "${ref.path}"`);
    if (!current) throw new KitError('page.not_found', `The page "${ref.path}" the draft deletes is gone already.`);
    const revision = await deleteLivePageInTransaction(tx, t, setKey, ref, current, change);
    return { outcome: 'published', contentHash: current.contentHash, revision };
  }
  if (draft.kind === 'page')
    return writePageInTransaction(tx, t, setKey, ref, draft.snapshot ?? '', draft.action, change);
  if (draft.kind === 'navigation')
    return writeNavigationInTransaction(tx, t, setKey, ref, draft.snapshot ?? '', change);
  if (draft.kind === 'manifest') return writeManifestInTransaction(tx, t, setKey, draft.snapshot ?? '', change);
  return applyAssetDraft(tx, t, setKey, draft, change, options.disk);
}
