// The assets of a database set (stylesheets, images, skills, any file a page links): written,
// removed, drafted and published with their revisions.

import { KitError } from '@kit/core';
import { assetDataUrl, fileContentType, readAssetDataUrl } from '@kit/core/internal';
import { and, eq, sql } from 'drizzle-orm';
import type { ChangeOptions, ChangeResult } from './change-types.js';
import type { KitDatabase } from './database.js';
import type { AssetDisk } from './disk.js';
import {
  ABSENT,
  bytesHash,
  checkBase,
  checkChange,
  type Executor,
  guardUnique,
  type RevisionRow,
  recordRevision,
} from './records.js';
import type { KitTables } from './schema/tables.js';

/** An asset to write, named relative to the manifest (`theme.css`, `images/logo.png`, `skills/deploy.md`). */
export interface AssetWrite {
  name: string;
  content: string | Uint8Array;
}

/**
 * Stores an asset: on `disk` when given (content-addressed, so a rolled-back write leaves no wrong
 * file), else in the row itself. Skills are assets named `skills/<name>.md`. With `status: 'draft'`
 * the bytes wait in the draft revision (as a data URL) and the live asset stays as it is until
 * {@link publishRevision} writes them. The name is only checked to stay inside the set: the rules
 * for what a person or agent may add (type, size, content) are `@kit/core`'s `checkAsset`, which
 * the author tools, `kit assets add` and `importFromSource` apply before calling this.
 */
export async function writeAsset(
  db: KitDatabase,
  setKey: string,
  input: AssetWrite,
  options: ChangeOptions & { disk?: AssetDisk } = {},
): Promise<ChangeResult> {
  checkChange(setKey, options);
  const name = checkAssetName(input.name);
  const bytes = typeof input.content === 'string' ? new TextEncoder().encode(input.content) : input.content;
  return db.orm.transaction((tx) => writeAssetIn(tx, db.tables, setKey, name, bytes, options));
}

/**
 * Removes an asset, recording the removal; `argument.invalid` when the set has no asset of that
 * name, `content.conflict` when `basedOn` is not its hash. A draft (`status: 'draft'`) records the
 * removal only; the asset stays until the draft is published.
 */
export async function deleteAsset(
  db: KitDatabase,
  setKey: string,
  name: string,
  options: ChangeOptions = {},
): Promise<ChangeResult> {
  checkChange(setKey, options);
  if (safeAssetName(name) === null) {
    throw new KitError('argument.invalid', `Set "${setKey}" has no asset "${name}" to delete. Check the name.`);
  }
  return db.orm.transaction((tx) => deleteAssetIn(tx, db.tables, setKey, name, options));
}

/** {@link writeAsset} inside a transaction; the name is the caller's to check. */
export async function writeAssetIn(
  tx: Executor,
  t: KitTables,
  setKey: string,
  name: string,
  bytes: Uint8Array,
  options: ChangeOptions & { disk?: AssetDisk },
): Promise<ChangeResult> {
  const a = t.assets;
  const hash = bytesHash(bytes);
  const [current] = await tx
    .select({ id: a.id, contentHash: a.contentHash })
    .from(a)
    .where(and(eq(a.setKey, setKey), eq(a.name, name)))
    .for('update');
  checkBase(options.basedOn, current?.contentHash ?? null, `asset "${name}"`);
  if (current?.contentHash === hash) return { outcome: 'unchanged', contentHash: hash, revision: null };
  const draft = options.status === 'draft';
  if (!draft) {
    let stored: { bytes: Uint8Array | null; disk: string | null; diskPath: string | null } = {
      bytes,
      disk: null,
      diskPath: null,
    };
    if (options.disk) {
      const diskPath = `${setKey}/${hash.slice('sha256:'.length)}`;
      await options.disk.write(diskPath, bytes);
      stored = { bytes: null, disk: options.disk.name, diskPath };
    }
    const values = { contentHash: hash, size: bytes.byteLength, ...stored, updatedAt: sql`now()` };
    if (current) await tx.update(a).set(values).where(eq(a.id, current.id));
    else await guardUnique(() => tx.insert(a).values({ setKey, name, ...values }), `asset "${name}"`);
  }
  const revision = await recordRevision(tx, t, {
    setKey,
    kind: 'asset',
    action: 'write',
    path: name,
    contentHash: hash,
    // A draft keeps its bytes until a person publishes them; a live asset keeps them in its row or on disk.
    snapshot: draft ? assetDataUrl(bytes, fileContentType(name).type) : null,
    basedOn: current?.contentHash ?? ABSENT,
    options,
  });
  return { outcome: draft ? 'drafted' : 'published', contentHash: hash, revision };
}

/** {@link deleteAsset} inside a transaction. */
export async function deleteAssetIn(
  tx: Executor,
  t: KitTables,
  setKey: string,
  name: string,
  options: ChangeOptions,
): Promise<ChangeResult> {
  const a = t.assets;
  const [current] = await tx
    .select({ id: a.id, contentHash: a.contentHash })
    .from(a)
    .where(and(eq(a.setKey, setKey), eq(a.name, name)))
    .for('update');
  if (options.basedOn !== ABSENT) checkBase(options.basedOn, current?.contentHash ?? null, `asset "${name}"`);
  if (!current) {
    throw new KitError('argument.invalid', `Set "${setKey}" has no asset "${name}" to delete. Check the name.`);
  }
  const draft = options.status === 'draft';
  if (!draft) await tx.delete(a).where(eq(a.id, current.id));
  const revision = await recordRevision(tx, t, {
    setKey,
    kind: 'asset',
    action: 'delete',
    path: name,
    contentHash: current.contentHash,
    snapshot: null,
    basedOn: current.contentHash,
    options,
  });
  return { outcome: draft ? 'drafted' : 'published', contentHash: current.contentHash, revision };
}

/**
 * Makes a drafted asset change live (inside {@link publishRevision}'s transaction): the bytes the
 * draft kept, checked against the hash it recorded, written to `disk` when given; or the removal.
 */
export async function applyAssetDraft(
  tx: Executor,
  t: KitTables,
  setKey: string,
  draft: RevisionRow,
  change: ChangeOptions,
  disk: AssetDisk | undefined,
): Promise<ChangeResult> {
  const name = draft.path ?? '';
  if (draft.action === 'delete') return deleteAssetIn(tx, t, setKey, name, change);
  const stored = readAssetDataUrl(draft.snapshot);
  if (!stored || bytesHash(stored.bytes) !== draft.contentHash) {
    throw new KitError(
      'source.error',
      `Draft ${draft.id} of the file "${name}" holds no readable bytes matching its hash; nothing was published. Discard it and write the file again.`,
    );
  }
  return writeAssetIn(tx, t, setKey, name, stored.bytes, { ...change, ...(disk ? { disk } : {}) });
}

/** A relative asset name, or null when it could reach outside the set (`..`, absolute, backslashes). */
export function safeAssetName(name: string): string | null {
  if (name === '' || name.startsWith('/') || /[\\\u0000]/.test(name)) return null;
  const segments = name.split('/');
  return segments.some((segment) => segment === '' || segment === '.' || segment === '..') ? null : name;
}

/** A name {@link safeAssetName} accepts, or `argument.invalid` naming the fix. */
export function checkAssetName(name: string): string {
  const safe = safeAssetName(name);
  if (safe === null) {
    throw new KitError(
      'argument.invalid',
      `The asset name "${name}" is not a relative path inside the set. Name it like "theme.css" or "images/logo.png".`,
    );
  }
  return safe;
}
