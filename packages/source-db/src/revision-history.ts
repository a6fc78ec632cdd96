import type { PageAddress } from '@kit/core';
import { KitError } from '@kit/core';
import { and, desc, eq, isNotNull } from 'drizzle-orm';
import type { ChangeOptions, ChangeResult, RevisionQuery, RevisionRecord } from './change-types.js';
import type { KitDatabase } from './database.js';
import { checkChange, checkRef, checkText, parseRevisionId, toRecord } from './records.js';
import { writePageInTransaction } from './transaction-writes.js';

// The published history of a database set: listing revisions, and bringing a page back from one.

/**
 * Brings a page back from its published history: the content of `revisionId`, or else of the
 * page's latest published revision that holds content (for a deleted page, what it held when
 * deleted). Drafts are never restored: publish one with {@link publishRevision}. Recorded as a
 * `restore` revision. Throws `page.not_found` when the history has nothing to restore.
 *
 * @example
 * await deletePage(db, 'docs', ref);
 * await restorePage(db, 'docs', ref); // the page is live again, as it was
 */
export async function restorePage(
  db: KitDatabase,
  setKey: string,
  ref: PageAddress & { revisionId?: string | number },
  options: ChangeOptions = {},
): Promise<ChangeResult & { restoredFrom: string }> {
  checkChange(setKey, options);
  checkRef(ref);
  const revisionId = ref.revisionId === undefined ? undefined : parseRevisionId(ref.revisionId);
  const target = { version: ref.version, locale: ref.locale, path: ref.path };
  return db.orm.transaction(async (tx) => {
    const t = db.tables;
    const r = t.revisions;
    const scope = and(
      eq(r.setKey, setKey),
      eq(r.kind, 'page'),
      eq(r.version, ref.version),
      eq(r.locale, ref.locale),
      eq(r.path, ref.path),
      isNotNull(r.snapshot),
    );
    // A named revision is looked up whatever its status, so a draft gets its own refusal.
    const where = revisionId === undefined ? and(scope, eq(r.status, 'published')) : and(scope, eq(r.id, revisionId));
    const [source] = await tx.select().from(r).where(where).orderBy(desc(r.id)).limit(1);
    if (source && source.status !== 'published') {
      throw new KitError(
        'argument.invalid',
        source.status === 'draft'
          ? `Revision ${source.id} is a draft, never published, so it cannot be restored. Publish the draft (kit drafts publish ${source.id}) to make it live, or name a published revision of page "${ref.path}".`
          : `Revision ${source.id} is a ${source.status} draft, not a published revision; name a published revision of page "${ref.path}" (kit history lists them).`,
      );
    }
    if (!source?.snapshot) {
      throw new KitError(
        'page.not_found',
        revisionId === undefined
          ? `Page "${ref.path}" in ${ref.version}/${ref.locale} of set "${setKey}" has no published revision to restore. Check the path, version and locale.`
          : `Revision ${revisionId} is not a revision of page "${ref.path}" in ${ref.version}/${ref.locale} of set "${setKey}". List its revisions to pick one.`,
      );
    }
    const result = await writePageInTransaction(tx, t, setKey, target, source.snapshot, 'restore', {
      summary: `Restored revision ${source.id}`,
      ...options,
    });
    return { ...result, restoredFrom: String(source.id) };
  });
}

/** The revision history of a set, newest first. */
export async function listRevisions(
  db: KitDatabase,
  setKey: string,
  query: RevisionQuery = {},
): Promise<RevisionRecord[]> {
  checkText(setKey, 'The set key');
  checkText(query.version, 'The version');
  checkText(query.locale, 'The locale');
  checkText(query.path, 'The page path');
  const limit = query.limit ?? 100;
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new KitError(
      'argument.invalid',
      `The limit ${String(limit)} is not a positive whole number. Pass a number such as 100, or leave it out.`,
    );
  }
  const r = db.tables.revisions;
  const conditions = [eq(r.setKey, setKey)];
  if (query.kind) conditions.push(eq(r.kind, query.kind));
  if (query.version !== undefined) conditions.push(eq(r.version, query.version));
  if (query.locale !== undefined) conditions.push(eq(r.locale, query.locale));
  if (query.path !== undefined) conditions.push(eq(r.path, query.path));
  if (query.status) conditions.push(eq(r.status, query.status));
  const rows = await db.orm
    .select()
    .from(r)
    .where(and(...conditions))
    .orderBy(desc(r.id))
    .limit(limit);
  return rows.map(toRecord);
}
