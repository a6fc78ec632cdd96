import { isKitError, KitError } from '@kit/core';
import { and, eq } from 'drizzle-orm';
import { deleteAsset, writeAsset } from './asset-writes.js';
import type { KitDatabase } from './database.js';
import type { AssetDisk } from './disk.js';
import type { DocsMigrationChange, DocsMigrationPage } from './docs-migration-file.js';
import { setMigrationFiles } from './docs-migration-file.js';
import { appliedDocsMigrations, applyDocsMigration } from './docs-migrations.js';
import { ABSENT } from './records.js';
import { livePage } from './transaction-writes.js';
import { deletePage, movePage, writeManifest, writeNavigation, writePage } from './writes.js';

/** One docs migration of a set, as {@link runDocsMigrations} found or left it. */
export interface DocsMigrationRunEntry {
  /** The migration's name: its file name without `.json`. */
  name: string;
  /** Absolute path of the file. */
  file: string;
  /**
   * `applied`: applied by this run. `pending`: not applied yet (a dry run applies nothing).
   * `already_applied`: applied to this database before (or written by this database's own author tools).
   */
  status: 'applied' | 'pending' | 'already_applied';
  /** Number of changes in the file. */
  changes: number;
  /** Changes of an applied migration whose target already held exactly their `content_hash`. */
  skipped: number;
}

/** What {@link runDocsMigrations} did for one set. */
export interface DocsMigrationRun {
  setKey: string;
  dryRun: boolean;
  /** Every migration file of the set in the folder, in name order. */
  migrations: DocsMigrationRunEntry[];
}

/**
 * Applies the docs migrations of one database set: every file in `folder` whose `set` is
 * `setKey` and that this database has not applied, in name order, each whole in one transaction
 * with its record (`applyDocsMigration`). Each change is checked against its `based_on`, so content
 * edited in this database since the migration was written is never silently overwritten: a conflict
 * rolls the whole migration back (and stops the run) with `content.conflict`, naming the file, the
 * change and what to do. A change whose target already holds exactly its `content_hash` (a delete:
 * whose page is already gone) is skipped, so applying a migration twice changes nothing. A file
 * Kit cannot read is refused with `argument.invalid` naming the file and the problem.
 * `dryRun` lists what would be applied and applies nothing. Files a migration adds go to `disk`
 * (the set's `source.disk`) when given, else into their rows.
 *
 * Migration files are written by a database set's writer when the source has `migrations` (the
 * local server, `kit mcp`); `kit migrate` runs this for every database set.
 *
 * @example
 * const run = await runDocsMigrations(db, 'docs', join(root, 'migrations/docs'));
 * run.migrations.filter((m) => m.status === 'applied').map((m) => m.name);
 */
export async function runDocsMigrations(
  db: KitDatabase,
  setKey: string,
  folder: string,
  options: { dryRun?: boolean; disk?: AssetDisk } = {},
): Promise<DocsMigrationRun> {
  const dryRun = options.dryRun === true;
  const files = await setMigrationFiles(folder, setKey);
  const applied = new Set((await appliedDocsMigrations(db, setKey)).map((record) => record.name));
  const migrations: DocsMigrationRunEntry[] = [];
  for (const { name, file, document } of files) {
    const entry: DocsMigrationRunEntry = {
      name,
      file,
      status: 'already_applied',
      changes: document.changes.length,
      skipped: 0,
    };
    migrations.push(entry);
    if (applied.has(name)) continue;
    if (dryRun) {
      entry.status = 'pending';
      continue;
    }
    let skipped = 0;
    const ran = await applyDocsMigration(db, setKey, name, async (tx) => {
      for (const [index, change] of document.changes.entries()) {
        try {
          if (await applyChange(tx, setKey, change, options.disk)) skipped += 1;
        } catch (error) {
          throw migrationError(error, file, index, change);
        }
      }
    });
    if (ran) {
      entry.status = 'applied';
      entry.skipped = skipped;
    }
  }
  return { setKey, dryRun, migrations };
}

/** Applies one change; returns true when it was skipped because its target already holds it. */
async function applyChange(
  tx: KitDatabase,
  setKey: string,
  change: DocsMigrationChange,
  disk: AssetDisk | undefined,
): Promise<boolean> {
  const options = {
    ...(change.summary === undefined ? {} : { summary: change.summary }),
    ...(change.author === undefined ? {} : { author: change.author }),
  };
  const basedOn = change.based_on ?? ABSENT;
  switch (change.op) {
    case 'write_page': {
      const ref = page(change);
      if ((await pageHash(tx, setKey, ref)) === change.content_hash) return true;
      await writePage(tx, setKey, { ...ref, text: change.text }, { ...options, basedOn });
      return false;
    }
    case 'move_page': {
      const from = page(change.from);
      const to = page(change.to);
      if ((await pageHash(tx, setKey, to)) === change.content_hash && (await pageHash(tx, setKey, from)) === null) {
        return true;
      }
      await movePage(tx, setKey, from, to, { ...options, basedOn });
      return false;
    }
    case 'delete_page': {
      const ref = page(change);
      if ((await pageHash(tx, setKey, ref)) === null) return true;
      await deletePage(tx, setKey, ref, { ...options, basedOn });
      return false;
    }
    case 'write_navigation': {
      const scope = { version: change.version, locale: change.locale };
      const n = tx.tables.navigations;
      const [row] = await tx.orm
        .select({ hash: n.contentHash })
        .from(n)
        .where(and(eq(n.setKey, setKey), eq(n.version, scope.version), eq(n.locale, scope.locale)));
      if (row?.hash === change.content_hash) return true;
      await writeNavigation(tx, setKey, { ...scope, text: change.text }, { ...options, basedOn });
      return false;
    }
    case 'write_manifest': {
      const m = tx.tables.manifests;
      const [row] = await tx.orm.select({ hash: m.contentHash }).from(m).where(eq(m.setKey, setKey));
      if (row?.hash === change.content_hash) return true;
      await writeManifest(tx, setKey, { text: change.text }, { ...options, basedOn });
      return false;
    }
    case 'write_asset': {
      if ((await assetHash(tx, setKey, change.name)) === change.content_hash) return true;
      const content = Buffer.from(change.content, 'base64');
      await writeAsset(tx, setKey, { name: change.name, content }, { ...options, basedOn, ...(disk ? { disk } : {}) });
      return false;
    }
    case 'delete_asset': {
      if ((await assetHash(tx, setKey, change.name)) === null) return true;
      await deleteAsset(tx, setKey, change.name, { ...options, basedOn });
      return false;
    }
  }
}

async function assetHash(tx: KitDatabase, setKey: string, name: string): Promise<string | null> {
  const a = tx.tables.assets;
  const [row] = await tx.orm
    .select({ hash: a.contentHash })
    .from(a)
    .where(and(eq(a.setKey, setKey), eq(a.name, name)));
  return row?.hash ?? null;
}

function page(address: DocsMigrationPage): DocsMigrationPage {
  return { version: address.version, locale: address.locale, path: address.path };
}

async function pageHash(tx: KitDatabase, setKey: string, ref: DocsMigrationPage): Promise<string | null> {
  return (await livePage(tx.orm, tx.tables, setKey, ref))?.contentHash ?? null;
}

function describeChange(change: DocsMigrationChange): string {
  switch (change.op) {
    case 'write_page':
    case 'delete_page':
      return `${change.op} of page "${change.path}" in ${change.version}/${change.locale}`;
    case 'move_page':
      return `move_page of page "${change.from.path}" in ${change.from.version}/${change.from.locale} to "${change.to.path}" in ${change.to.version}/${change.to.locale}`;
    case 'write_navigation':
      return `write_navigation of ${change.version}/${change.locale}`;
    case 'write_manifest':
      return 'write_manifest';
    case 'write_asset':
    case 'delete_asset':
      return `${change.op} of the file "${change.name}"`;
  }
}

/** A change's failure, naming the file, the change and what to do; the whole migration rolls back. */
function migrationError(error: unknown, file: string, index: number, change: DocsMigrationChange): KitError {
  const where = `The docs migration ${file}, change ${index + 1} (changes[${index}], ${describeChange(change)})`;
  const reason = error instanceof Error ? error.message : String(error);
  if (
    isKitError(error, 'content.conflict') ||
    isKitError(error, 'page.exists') ||
    isKitError(error, 'page.not_found')
  ) {
    const current = (error.details?.currentHash as string | null | undefined) ?? null;
    const keep = current
      ? `set that change's "based_on" to "${current}" (what this database holds now)`
      : `set that change's "based_on" to null`;
    return new KitError(
      'content.conflict',
      `${where} conflicts with this database: ${reason} The content was edited here since the migration was written, so nothing of this migration was applied. Decide which wins: to apply the migration's change over it, ${keep} and run kit migrate again; to keep this database's content, remove the change from the file.`,
      { cause: error, details: { file, change: index, currentHash: current } },
    );
  }
  return new KitError(
    isKitError(error) ? error.code : 'internal',
    `${where} could not be applied: ${reason} Nothing of this migration was applied; fix the change in the file and run kit migrate again.`,
    { cause: error, details: { file, change: index } },
  );
}
