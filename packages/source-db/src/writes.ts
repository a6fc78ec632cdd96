import type { PathScope, RevisionEntry } from '@kit/core';
import {
  composePageFile,
  contentHash,
  KitError,
  normalizeForHash,
  parseManifestText,
  parseNavigation,
  parsePageFile,
} from '@kit/core';
import { and, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { applyAssetDraft } from './asset-writes.js';
import type { KitDatabase } from './database.js';
import type { AssetDisk } from './disk.js';
import { checkPagePath } from './page-path.js';
import {
  ABSENT,
  checkBase,
  checkChange,
  checkText,
  type Executor,
  guardUnique,
  type RevisionRow,
  recordRevision,
  toRecord,
} from './records.js';
import type { KitTables, RevisionAction, RevisionKind, RevisionStatus } from './schema/tables.js';

export { ABSENT, bytesHash, toRecord } from './records.js';

/** How a change is recorded: who made it, why, against which content, published or as a draft. */
export interface ChangeOptions {
  /** Content hash the change was written against; a mismatch refuses the change (`content.conflict`). */
  basedOn?: string | null;
  /** One line for the revision list. */
  summary?: string | null;
  /** Who made the change (user id, e-mail, `agent:<name>`). */
  author?: string | null;
  /**
   * `draft` records the change as a revision only; the live content stays until
   * {@link publishRevision}. @default 'published'
   */
  status?: RevisionStatus;
}

/** One recorded change: the review store's entry, with the set it belongs to. */
export interface RevisionRecord extends RevisionEntry {
  setKey: string;
}

/** What a write did. `unchanged` wrote nothing; its `contentHash` is the current one, to chain on. */
export interface ChangeResult {
  outcome: 'published' | 'drafted' | 'unchanged';
  contentHash: string;
  revision: RevisionRecord | null;
}

/** A page to write: the whole page file as `text`, or `frontmatter` and `body` apart. */
export interface PageWrite {
  version: string;
  locale: string;
  /** Page path without `.md`; `index` is the landing page. */
  path: string;
  text?: string;
  frontmatter?: Record<string, unknown>;
  body?: string;
}

/** Names one page. */
export interface PageRef {
  version: string;
  locale: string;
  path: string;
}

/**
 * Creates or replaces one page, in one transaction with its revision. Refuses a stale `basedOn`
 * with `content.conflict`; writing exactly what is there is `unchanged` and records nothing.
 *
 * @example
 * const { contentHash } = await writePage(db, 'docs', { version: '3.x', locale: 'en', path: 'routing', frontmatter: { title: 'Routing' }, body: '# Routing\n' });
 * await writePage(db, 'docs', { ...page, body: '# Routing\n\nMore.\n' }, { basedOn: contentHash, author: 'ada' });
 */
export async function writePage(
  db: KitDatabase,
  setKey: string,
  page: PageWrite,
  options: ChangeOptions = {},
): Promise<ChangeResult> {
  checkChange(setKey, options);
  checkRef(page);
  const text = pageText(page);
  return db.orm.transaction((tx) => writePageIn(tx, db.tables, setKey, page, text, 'write', options));
}

/**
 * Deletes one page: the row is kept with `deleted_at` set and a `delete` revision records its last
 * content, so {@link restorePage} can bring it back. Throws `page.not_found` when no live page is there.
 */
export async function deletePage(
  db: KitDatabase,
  setKey: string,
  ref: PageRef,
  options: ChangeOptions = {},
): Promise<ChangeResult> {
  checkChange(setKey, options);
  checkRef(ref);
  return db.orm.transaction(async (tx) => {
    const t = db.tables;
    const current = await requireLivePage(tx, t, setKey, ref, 'delete');
    checkBase(options.basedOn, current.contentHash, `page "${ref.path}"`);
    const revision = await deleteLivePageIn(tx, t, setKey, ref, current, options);
    return {
      outcome: options.status === 'draft' ? 'drafted' : 'published',
      contentHash: current.contentHash,
      revision,
    };
  });
}

/** What {@link movePage} did: the page written at `to` (`revision`) and the deletion at `from`. */
export interface MoveResult extends ChangeResult {
  /** The `delete` revision of the page at `from` (kept in the history, restorable). */
  deleted: RevisionRecord;
}

/**
 * Moves one page, in one transaction: the page's file is written at `to` and the page at `from` is
 * deleted (kept in the revision history, so {@link restorePage} can bring it back), each with its
 * revision. `basedOn` is checked against the page at `from`. Refuses with `page.not_found` when no
 * live page is at `from`, and with `page.exists` when one is at `to`. A draft (`status: 'draft'`)
 * records both revisions as drafts and leaves both paths as they are.
 *
 * @example
 * const moved = await movePage(db, 'docs', { version: '3.x', locale: 'en', path: 'routing' }, { version: '3.x', locale: 'en', path: 'basics/routing' }, { basedOn: hash });
 * moved.revision.path; // 'basics/routing'
 */
export async function movePage(
  db: KitDatabase,
  setKey: string,
  from: PageRef,
  to: PageRef,
  options: ChangeOptions = {},
): Promise<MoveResult> {
  checkChange(setKey, options);
  checkRef(from);
  checkRef(to);
  if (from.version === to.version && from.locale === to.locale && from.path === to.path) {
    throw new KitError(
      'argument.invalid',
      `The page "${from.path}" would move onto itself. Give a different \`to\` path, version or locale.`,
    );
  }
  return db.orm.transaction(async (tx) => {
    const t = db.tables;
    const current = await requireLivePage(tx, t, setKey, from, 'move');
    checkBase(options.basedOn, current.contentHash, `page "${from.path}"`);
    const taken = await livePage(tx, t, setKey, to);
    if (taken) {
      throw new KitError(
        'page.exists',
        `A page already lives at "${to.path}" in ${to.version}/${to.locale} of set "${setKey}". Choose another path, or move or delete that page first.`,
        { details: { currentHash: taken.contentHash } },
      );
    }
    const target = { version: to.version, locale: to.locale, path: to.path };
    const written = await writePageIn(tx, t, setKey, target, current.document, 'write', {
      ...options,
      basedOn: ABSENT,
    });
    const deleted = await deleteLivePageIn(tx, t, setKey, from, current, options);
    return { ...written, deleted };
  });
}

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
  ref: PageRef & { revisionId?: string | number },
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
    const result = await writePageIn(tx, t, setKey, target, source.snapshot, 'restore', {
      summary: `Restored revision ${source.id}`,
      ...options,
    });
    return { ...result, restoredFrom: String(source.id) };
  });
}

/** A navigation file to write: the tree object, or its JSON text. */
export interface NavigationWrite {
  version: string;
  locale: string;
  tree?: unknown;
  text?: string;
}

/**
 * Replaces the navigation file of one version and locale, with its revision, in one transaction.
 * The tree must be a usable navigation file (`{groups}` or `{tabs}`), else `navigation.invalid`.
 */
export async function writeNavigation(
  db: KitDatabase,
  setKey: string,
  input: NavigationWrite,
  options: ChangeOptions = {},
): Promise<ChangeResult> {
  checkChange(setKey, options);
  checkText(input.version, 'The version');
  checkText(input.locale, 'The locale');
  const document = navigationDocument(input);
  return db.orm.transaction((tx) => writeNavigationIn(tx, db.tables, setKey, input, document, options));
}

/** The manifest to write: its text (kept as written) or an object (written as indented JSON). */
export type ManifestWrite = { text: string } | { manifest: Record<string, unknown> };

/**
 * Replaces the set's manifest (`kit.json`), with its revision, in one transaction. The text is
 * kept as written so unknown keys and their order survive; it must be a JSON object, else
 * `manifest.invalid`.
 */
export async function writeManifest(
  db: KitDatabase,
  setKey: string,
  input: ManifestWrite,
  options: ChangeOptions = {},
): Promise<ChangeResult> {
  checkChange(setKey, options);
  const document = manifestDocument(input);
  return db.orm.transaction((tx) => writeManifestIn(tx, db.tables, setKey, document, options));
}

/** What {@link publishRevision} did: the change made live, with every revision it recorded. */
export interface PublishResult extends ChangeResult {
  outcome: 'published' | 'unchanged';
  /** The published revisions the change recorded, in order (a drafted move: the write at `to`, then the delete at `from`). */
  published: RevisionRecord[];
  /** The drafts that made up the change, now `applied`. */
  drafts: RevisionRecord[];
}

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
    const revision = await deleteLivePageIn(tx, t, setKey, ref, current, change);
    return { outcome: 'published', contentHash: current.contentHash, revision };
  }
  if (draft.kind === 'page') return writePageIn(tx, t, setKey, ref, draft.snapshot ?? '', draft.action, change);
  if (draft.kind === 'navigation') return writeNavigationIn(tx, t, setKey, ref, draft.snapshot ?? '', change);
  if (draft.kind === 'manifest') return writeManifestIn(tx, t, setKey, draft.snapshot ?? '', change);
  return applyAssetDraft(tx, t, setKey, draft, change, options.disk);
}

/** Filters of {@link listRevisions}; every field narrows the list. */
export interface RevisionQuery {
  kind?: RevisionKind;
  version?: string;
  locale?: string;
  path?: string;
  status?: RevisionStatus;
  /** Most revisions returned, newest first. @default 100 */
  limit?: number;
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

/** A revision in the shape author tools return: core's rule, for the records this package reads. */
export { toAuthorRevision } from '@kit/core';

// ---- inside a transaction ----

/** The page file of a {@link PageWrite}, or `argument.invalid` naming what is missing. */
export function pageText(page: PageWrite): string {
  if (typeof page.text === 'string') return page.text;
  if (typeof page.body !== 'string') {
    throw new KitError(
      'argument.invalid',
      `Page "${page.path}" has no body. Pass \`body\` (Markdown) or \`text\` (the whole page file).`,
    );
  }
  return composePageFile(page.frontmatter, page.body);
}

/**
 * Options of the in-transaction writers. `scope`: the set's versions and locales, when a caller
 * read them once for many writes; without it each write reads the stored manifest. `copy`: the
 * pages are copied from another source as they are there (an import), so a path the set could not
 * serve is kept rather than refused; `kit validate` reports it as it would in the source.
 */
export type InnerOptions = ChangeOptions & { scope?: PathScope; copy?: boolean };

export async function writePageIn(
  tx: Executor,
  t: KitTables,
  setKey: string,
  ref: PageRef,
  text: string,
  action: RevisionAction,
  options: InnerOptions,
): Promise<ChangeResult> {
  checkPagePath(ref.path);
  const scope = options.scope ?? (await readScope(tx, t, setKey));
  checkScope(scope, setKey, ref.version, ref.locale);
  if (!options.copy) checkPagePath(ref.path, scope);
  const parsed = parsePageFile(text);
  checkStorable(parsed, ref.path);
  const current = await livePage(tx, t, setKey, ref);
  checkBase(options.basedOn, current?.contentHash ?? null, `page "${ref.path}"`);
  if (current && current.contentHash === parsed.contentHash) {
    return { outcome: 'unchanged', contentHash: current.contentHash, revision: null };
  }
  const status = options.status ?? 'published';
  if (status === 'published') {
    const values = {
      document: parsed.document,
      frontmatter: parsed.frontmatter,
      body: parsed.body,
      title: parsed.title ?? ref.path.split('/').pop()!,
      description: parsed.description ?? null,
      contentHash: parsed.contentHash,
      visibility: parsed.visibility,
      bodyLine: parsed.bodyLine,
      problems: parsed.problems,
      updatedAt: sql`now()`,
      updatedBy: options.author ?? null,
    };
    if (current) {
      await tx.update(t.pages).set(values).where(eq(t.pages.id, current.id));
    } else {
      await guardUnique(
        () =>
          tx.insert(t.pages).values({ setKey, version: ref.version, locale: ref.locale, path: ref.path, ...values }),
        `page "${ref.path}"`,
      );
    }
  }
  const revision = await recordRevision(tx, t, {
    setKey,
    kind: 'page',
    action,
    ...ref,
    contentHash: parsed.contentHash,
    snapshot: parsed.document,
    basedOn: current?.contentHash ?? ABSENT,
    options,
  });
  return { outcome: status === 'draft' ? 'drafted' : 'published', contentHash: parsed.contentHash, revision };
}

export async function writeNavigationIn(
  tx: Executor,
  t: KitTables,
  setKey: string,
  scope: { version: string; locale: string },
  text: string,
  options: InnerOptions,
): Promise<ChangeResult> {
  checkScope(options.scope ?? (await readScope(tx, t, setKey)), setKey, scope.version, scope.locale);
  const n = t.navigations;
  const hash = contentHash(text);
  const [current] = await tx
    .select({ id: n.id, contentHash: n.contentHash })
    .from(n)
    .where(and(eq(n.setKey, setKey), eq(n.version, scope.version), eq(n.locale, scope.locale)))
    .for('update');
  checkBase(options.basedOn, current?.contentHash ?? null, `navigation of ${scope.version}/${scope.locale}`);
  if (current?.contentHash === hash) return { outcome: 'unchanged', contentHash: hash, revision: null };
  const status = options.status ?? 'published';
  if (status === 'published') {
    // A json column keeps its text as written: the file is served as the author wrote it.
    const values = {
      tree: sql`${text}::json`,
      contentHash: hash,
      updatedAt: sql`now()`,
      updatedBy: options.author ?? null,
    };
    if (current) await tx.update(n).set(values).where(eq(n.id, current.id));
    else {
      await guardUnique(
        () => tx.insert(n).values({ setKey, version: scope.version, locale: scope.locale, ...values }),
        `navigation of ${scope.version}/${scope.locale}`,
      );
    }
  }
  const revision = await recordRevision(tx, t, {
    setKey,
    kind: 'navigation',
    action: 'write',
    version: scope.version,
    locale: scope.locale,
    contentHash: hash,
    snapshot: text,
    basedOn: current?.contentHash ?? ABSENT,
    options,
  });
  return { outcome: status === 'draft' ? 'drafted' : 'published', contentHash: hash, revision };
}

export async function writeManifestIn(
  tx: Executor,
  t: KitTables,
  setKey: string,
  document: string,
  options: ChangeOptions,
): Promise<ChangeResult> {
  const m = t.manifests;
  const hash = contentHash(document);
  const [current] = await tx
    .select({ id: m.id, contentHash: m.contentHash })
    .from(m)
    .where(eq(m.setKey, setKey))
    .for('update');
  checkBase(options.basedOn, current?.contentHash ?? null, 'manifest');
  if (current?.contentHash === hash) return { outcome: 'unchanged', contentHash: hash, revision: null };
  const status = options.status ?? 'published';
  if (status === 'published') {
    const values = { document, contentHash: hash, updatedAt: sql`now()`, updatedBy: options.author ?? null };
    if (current) await tx.update(m).set(values).where(eq(m.id, current.id));
    else await guardUnique(() => tx.insert(m).values({ setKey, ...values }), 'manifest');
  }
  const revision = await recordRevision(tx, t, {
    setKey,
    kind: 'manifest',
    action: 'write',
    contentHash: hash,
    snapshot: document,
    basedOn: current?.contentHash ?? ABSENT,
    options,
  });
  return { outcome: status === 'draft' ? 'drafted' : 'published', contentHash: hash, revision };
}

/** The JSON text a navigation tree is served and hashed as. */
export function navigationText(tree: unknown): string {
  return `${JSON.stringify(tree, null, 2)}\n`;
}

/**
 * The text a {@link NavigationWrite} is stored, served and hashed as: `text` as written (line
 * endings normalized), or a `tree` as indented JSON. Refused with `navigation.invalid` when unusable.
 */
export function navigationDocument(input: NavigationWrite): string {
  const text = typeof input.text === 'string' ? normalizeForHash(input.text) : navigationText(input.tree ?? null);
  checkText(text, `The navigation of ${input.version}/${input.locale}`);
  const { navigation, problems } = parseNavigation(text);
  if (navigation === null) {
    throw new KitError(
      'navigation.invalid',
      `The navigation of ${input.version}/${input.locale} is not usable: ${problems[0]?.message ?? 'it holds no groups or tabs'}. Write {"groups": [...]} or {"tabs": [...]}.`,
      { details: { problems } },
    );
  }
  return text;
}

/** The stored text of a {@link ManifestWrite}, refused with `manifest.invalid` unless a JSON object. */
export function manifestDocument(input: ManifestWrite): string {
  if ('manifest' in input) return `${JSON.stringify(input.manifest, null, 2)}\n`;
  const document = normalizeForHash(input.text);
  let value: unknown;
  try {
    value = JSON.parse(document);
  } catch (error) {
    throw new KitError(
      'manifest.invalid',
      `The manifest is not valid JSON (${(error as Error).message}). A database set stores only a manifest it can read; fix the JSON and write it again.`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new KitError(
      'manifest.invalid',
      'The manifest must be a JSON object ({ "name": ... }), not a list or a single value.',
    );
  }
  return document;
}

function checkRef(ref: PageRef): void {
  checkText(ref.version, 'The version');
  checkText(ref.locale, 'The locale');
  checkText(ref.path, 'The page path');
}

/** A page file's parts, refused when they hold what a text or jsonb column cannot store. */
function checkStorable(parsed: ReturnType<typeof parsePageFile>, path: string): void {
  const line = parsed.document.split('\n').findIndex((text) => text.includes('\u0000'));
  if (line !== -1) {
    throw new KitError(
      'argument.invalid',
      `Page "${path}" holds a NUL character (U+0000) on line ${line + 1} of its file, which the database cannot store. Remove it; it is never visible text.`,
    );
  }
  // YAML can spell NUL as an escape ("\0"), so the frontmatter may hold one the file does not.
  if (holdsNul([parsed.frontmatter, parsed.title, parsed.description, parsed.problems])) {
    throw new KitError(
      'page.frontmatter',
      `The frontmatter of page "${path}" holds a NUL character (an escape such as "\\0" or "\\u0000"), which the database cannot store. Remove it from the frontmatter.`,
    );
  }
}

function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).some(([key, item]) => key.includes('\u0000') || holdsNul(item));
  }
  return false;
}

/** A revision id as the tables store it (a positive whole number), or `argument.invalid`. */
function parseRevisionId(value: unknown): number {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const id = /^[1-9][0-9]{0,15}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(id)) {
    throw new KitError(
      'argument.invalid',
      `"${String(value).slice(0, 40)}" is not a revision id; ids are positive whole numbers such as "42". Take one from listRevisions or from the \`revision.id\` a write returned.`,
    );
  }
  return id;
}

/** The versions and locales of the set's stored manifest (`current` and `en` for a set without one). */
async function readScope(tx: Executor, t: KitTables, setKey: string): Promise<PathScope> {
  const [row] = await tx
    .select({ document: t.manifests.document })
    .from(t.manifests)
    .where(eq(t.manifests.setKey, setKey));
  const { manifest } = parseManifestText(row?.document ?? '{}', setKey);
  return {
    versions: manifest.versions.map((v) => v.id),
    locales: manifest.locales.map((l) => l.code),
    versioned: manifest.versioned,
  };
}

/** Versions and locales must be the manifest's. */
function checkScope(scope: PathScope, setKey: string, version: string, locale: string): void {
  if (!scope.versions.includes(version)) {
    throw new KitError(
      'version.not_found',
      `Set "${setKey}" has no version "${version}"; its versions are ${scope.versions.join(', ')}. Add the version to the manifest first, or write to one of these.`,
    );
  }
  if (!scope.locales.includes(locale)) {
    throw new KitError(
      'locale.not_found',
      `Set "${setKey}" has no locale "${locale}"; its locales are ${scope.locales.join(', ')}. Add the locale to the manifest first, or write to one of these.`,
    );
  }
}

/**
 * Records the deletion of a live page as a `delete` revision holding its last content; a published
 * change also marks the row deleted (kept, so the page can be restored), a draft leaves it live.
 */
async function deleteLivePageIn(
  tx: Executor,
  t: KitTables,
  setKey: string,
  ref: PageRef,
  current: { id: number; contentHash: string; document: string },
  options: ChangeOptions,
): Promise<RevisionRecord> {
  if ((options.status ?? 'published') === 'published') {
    await tx
      .update(t.pages)
      .set({ deletedAt: sql`now()`, updatedBy: options.author ?? null })
      .where(eq(t.pages.id, current.id));
  }
  return recordRevision(tx, t, {
    setKey,
    kind: 'page',
    action: 'delete',
    ...ref,
    contentHash: current.contentHash,
    snapshot: current.document,
    basedOn: current.contentHash,
    options,
  });
}

/** The live row of a page a change acts on; `page.not_found` when there is none. */
async function requireLivePage(tx: Executor, t: KitTables, setKey: string, ref: PageRef, verb: 'delete' | 'move') {
  const current = await livePage(tx, t, setKey, ref);
  if (!current) {
    throw new KitError(
      'page.not_found',
      `No page "${ref.path}" in ${ref.version}/${ref.locale} of set "${setKey}" to ${verb}. List the pages to find its path.`,
    );
  }
  return current;
}

/** The live (not deleted) row of one page, locked for the rest of the transaction; undefined when there is none. */
export async function livePage(tx: Executor, t: KitTables, setKey: string, ref: PageRef) {
  const p = t.pages;
  const [row] = await tx
    .select({ id: p.id, contentHash: p.contentHash, document: p.document })
    .from(p)
    .where(
      and(
        eq(p.setKey, setKey),
        eq(p.version, ref.version),
        eq(p.locale, ref.locale),
        eq(p.path, ref.path),
        isNull(p.deletedAt),
      ),
    )
    .for('update');
  return row ?? null;
}
