import type { PageAddress } from '@kit/core';
// What every write of a database set shares: the checks before it (text a column can store, the
// content a change was written against) and the revision it records.

import { createHash } from 'node:crypto';
import { KitError, type ParsedPageFile } from '@kit/core';
import type { ChangeOptions, RevisionRecord } from './change-types.js';
import type { AnyPgDatabase } from './schema/migrate.js';
import type { KitTables, RevisionAction, RevisionKind } from './schema/tables.js';

/** A database or an open transaction: every in-transaction writer takes one. */
export type Executor = AnyPgDatabase;

/**
 * Refuses a string PostgreSQL cannot store in a text column: a NUL character (U+0000). Checked up
 * front so the caller gets a KitError naming the field, never a driver error quoting the query.
 */
export function checkText(value: unknown, what: string): void {
  if (typeof value === 'string' && value.includes('\u0000')) {
    throw new KitError(
      'argument.invalid',
      `${what} holds a NUL character (U+0000), which the database cannot store. Remove it; it is never visible text.`,
    );
  }
}

/** Refuses a set key, summary or author that holds what a text column cannot store. */
export function checkChange(setKey: string, options: { summary?: string | null; author?: string | null }): void {
  checkText(setKey, 'The set key');
  checkText(options.summary, 'The summary');
  checkText(options.author, 'The author');
}

/**
 * Stored as `based_on` by a change made where no record existed: publishing such a draft creates
 * the record only if there is still none. Never a content hash (those start with `sha256:`).
 */
export const ABSENT = 'absent';

/**
 * Refuses a change whose `basedOn` is not what is there now (`content.conflict`, with
 * `details.currentHash`); {@link ABSENT} accepts only nothing there, an empty `basedOn` anything.
 */
export function checkBase(basedOn: string | null | undefined, currentHash: string | null, what: string): void {
  if (basedOn === undefined || basedOn === null || basedOn === '' || basedOn === currentHash) return;
  if (basedOn === ABSENT) {
    if (currentHash === null) return;
    throw new KitError(
      'content.conflict',
      `The ${what} did not exist when this change was written, and another change has created it since (now ${currentHash}). Read it, merge your change into it, and write it again with that content_hash as based_on.`,
      { details: { basedOn: null, currentHash } },
    );
  }
  throw new KitError(
    'content.conflict',
    currentHash === null
      ? `The ${what} no longer exists; it was removed after you read it (based_on ${basedOn}). Read it again before writing.`
      : `The ${what} changed since you read it (based_on ${basedOn}, now ${currentHash}). Read it again, merge your change, and pass the new content_hash as based_on.`,
    { details: { basedOn, currentHash } },
  );
}

/** Two writers creating the same record at once: the loser gets a conflict, not a driver error. */
export async function guardUnique(insert: () => Promise<unknown>, what: string): Promise<void> {
  try {
    await insert();
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new KitError(
        'content.conflict',
        `The ${what} was created by another change at the same moment. Read it again and retry with its content_hash as based_on.`,
        { cause: error, details: { currentHash: null } },
      );
    }
    throw error;
  }
}

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/** Inserts one revision row of a change and returns it as a record. */
export async function recordRevision(
  tx: Executor,
  t: KitTables,
  input: {
    setKey: string;
    kind: RevisionKind;
    action: RevisionAction;
    version?: string;
    locale?: string;
    path?: string;
    contentHash: string;
    snapshot: string | null;
    basedOn: string | null;
    options: ChangeOptions;
  },
): Promise<RevisionRecord> {
  const [row] = await tx
    .insert(t.revisions)
    .values({
      setKey: input.setKey,
      kind: input.kind,
      action: input.action,
      version: input.version ?? null,
      locale: input.locale ?? null,
      path: input.path ?? null,
      contentHash: input.contentHash,
      snapshot: input.snapshot,
      basedOn: input.basedOn,
      summary: input.options.summary ?? null,
      author: input.options.author ?? null,
      status: input.options.status ?? 'published',
    })
    .returning();
  return toRecord(row!);
}

export type RevisionRow = KitTables['revisions']['$inferSelect'];

/** A revision row as a {@link RevisionRecord}. */
export function toRecord(row: RevisionRow): RevisionRecord {
  return {
    id: String(row.id),
    setKey: row.setKey,
    kind: row.kind,
    action: row.action,
    version: row.version,
    locale: row.locale,
    path: row.path,
    contentHash: row.contentHash,
    snapshot: row.snapshot,
    basedOn: row.basedOn === ABSENT ? null : row.basedOn,
    summary: row.summary,
    author: row.author,
    status: row.status,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

/** `sha256:` and the hex digest of raw bytes: the asset counterpart of `contentHash`, without text normalization. */
export function bytesHash(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** Refuses a page reference whose version, locale or path a text column cannot store. */
export function checkRef(ref: PageAddress): void {
  checkText(ref.version, 'The version');
  checkText(ref.locale, 'The locale');
  checkText(ref.path, 'The page path');
}

/** A page file's parts, refused when they hold what a text or jsonb column cannot store. */
export function checkStorable(parsed: ParsedPageFile, path: string): void {
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
export function parseRevisionId(value: unknown): number {
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
