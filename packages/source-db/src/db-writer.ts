import { readFile, rm } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type {
  AuthorDocsMigration,
  ChangeRecord,
  ContentWriter,
  ExpectedContent,
  PageAddress,
  WriteReceipt,
} from '@kit/core';
import { isKitError, KitError } from '@kit/core';
import { writeFileAtomically } from '@kit/core/node';
import { deleteAsset, writeAsset } from './asset-writes.js';
import type { ChangeOptions, ChangeResult, RevisionQuery, RevisionRecord } from './change-types.js';
import type { KitDatabase } from './database.js';
import type { AssetDisk } from './disk.js';
import {
  DOCS_MIGRATION_SCHEMA_URL,
  type DocsMigrationChange,
  type DocsMigrationDocument,
  isBranchMigrationFile,
  migrationFileName,
  migrationFileNames,
  migrationText,
  parseMigrationText,
} from './docs-migration-file.js';
import { ABSENT } from './records.js';
import { listRevisions } from './revision-history.js';
import { deletePage, movePage, toAuthorRevision, writeManifest, writeNavigation, writePage } from './writes.js';

/**
 * Where a database set's writer also records its published changes: the branch's docs migration.
 * The local server (`kit mcp`) passes it; a web server never does, its changes are production's own.
 */
export interface DocsMigrationOptions {
  /** Absolute path of the migrations folder (config `migrations.path`). */
  folder: string;
  /** The git branch the changes belong to (`currentBranch(root)` in `@kit/cli/load-kit`). */
  branch: string;
  /** The project root; `docs_migration.file` in a receipt is relative to it. */
  root: string;
}

/** A change stripped of what every change carries (`summary`, `author`, `at`), filled in at commit. */
type ChangeEntry = DocsMigrationChange extends infer C
  ? C extends DocsMigrationChange
    ? Omit<C, 'summary' | 'author' | 'at'>
    : never
  : never;

interface Step {
  result: ChangeResult;
  /** Every revision the change recorded (a move records two). */
  revisions: RevisionRecord[];
  entry: ChangeEntry | null;
}

/**
 * The {@link ContentWriter} of a database set: each call is one transaction over the write
 * functions, checks `expected` (compare and swap; null: nothing may be there), records drafts as
 * draft revisions, and, when `migrations` is given, appends each published change to the branch's
 * docs migration file in the same transaction. `announce` hears the revisions once committed.
 */
export function createDbWriter(input: {
  db: KitDatabase;
  setKey: string;
  migrations?: DocsMigrationOptions;
  /** Where new files go (`writeAsset`); without one they are kept in their rows. */
  disk?: AssetDisk;
  announce: (revisions: RevisionRecord[]) => void;
}): ContentWriter {
  const { db, setKey, migrations, announce, disk } = input;
  // Changes to one migration file are read, appended and written one at a time in this process.
  let queue: Promise<unknown> = Promise.resolve();
  const serialize = <T>(work: () => Promise<T>): Promise<T> => {
    if (!migrations) return work();
    const run = queue.then(work, work);
    queue = run.catch(() => {});
    return run;
  };

  const perform = (
    change: ChangeRecord,
    subject: RevisionQuery,
    body: (tx: KitDatabase, options: ChangeOptions) => Promise<Step>,
  ): Promise<WriteReceipt> =>
    serialize(async () => {
      const options: ChangeOptions = {
        status: change.draft ? 'draft' : 'published',
        summary: change.summary ?? null,
        author: change.author ?? null,
      };
      const file: { undo: (() => Promise<void>) | null; migration: AuthorDocsMigration | null } = {
        undo: null,
        migration: null,
      };
      let step: Step;
      try {
        step = await db.orm.transaction(async (orm) => {
          const tx: KitDatabase = { ...db, orm, close: async () => {} };
          const done = await body(tx, options);
          const revision = done.result.revision;
          if (migrations && done.result.outcome === 'published' && done.entry && revision) {
            await appendChange(tx, migrations, setKey, file, {
              ...done.entry,
              ...(revision.summary === null ? {} : { summary: revision.summary }),
              ...(revision.author === null ? {} : { author: revision.author }),
              at: revision.createdAt,
            } as DocsMigrationChange);
          }
          return done;
        });
      } catch (error) {
        // The file was written but the commit failed: put back what it held.
        if (file.undo) await file.undo().catch(() => {});
        throw error;
      }
      const { result } = step;
      if (result.outcome === 'unchanged' || !result.revision) {
        // Nothing was written: the revision that holds this content, to chain on.
        const [latest] = await listRevisions(db, setKey, { ...subject, status: 'published', limit: 1 });
        return {
          outcome: 'published',
          revision: latest ? toAuthorRevision(latest) : { content_hash: result.contentHash },
          docs_migration: null,
        };
      }
      const published = step.revisions.filter((revision) => revision.status === 'published');
      if (published.length > 0) announce(published);
      return {
        outcome: result.outcome === 'drafted' ? 'drafted' : 'published',
        revision: toAuthorRevision(result.revision),
        docs_migration: file.migration,
      };
    });

  return {
    writePage(page, text, expected, change) {
      const ref = pageRef(page);
      const basedOn = expectedBase(expected, 'writePage');
      return perform(change, { kind: 'page', ...ref }, async (tx, options) => {
        const result = await writePage(tx, setKey, { ...ref, text }, { ...options, basedOn });
        const revision = result.revision;
        return {
          result,
          revisions: revision ? [revision] : [],
          entry: revision && {
            op: 'write_page',
            ...ref,
            text: revision.snapshot ?? text,
            based_on: revision.basedOn,
            content_hash: result.contentHash,
          },
        };
      });
    },

    movePage(from, to, expected, change) {
      const source = pageRef(from);
      const target = pageRef(to);
      const basedOn = requiredBase(expected, 'movePage');
      return perform(change, { kind: 'page', ...target }, async (tx, options) => {
        const result = await movePage(tx, setKey, source, target, { ...options, basedOn }).catch(gone(source, basedOn));
        return {
          result,
          revisions: [...(result.revision ? [result.revision] : []), result.deleted],
          entry: { op: 'move_page', from: source, to: target, based_on: basedOn, content_hash: result.contentHash },
        };
      });
    },

    deletePage(page, expected, change) {
      const ref = pageRef(page);
      const basedOn = requiredBase(expected, 'deletePage');
      return perform(change, { kind: 'page', ...ref }, async (tx, options) => {
        const result = await deletePage(tx, setKey, ref, { ...options, basedOn }).catch(gone(ref, basedOn));
        return {
          result,
          revisions: result.revision ? [result.revision] : [],
          entry: { op: 'delete_page', ...ref, based_on: basedOn, content_hash: result.contentHash },
        };
      });
    },

    writeNavigation(scope, text, expected, change) {
      const where = { version: scope.version, locale: scope.locale };
      const basedOn = expectedBase(expected, 'writeNavigation');
      return perform(change, { kind: 'navigation', ...where }, async (tx, options) => {
        const result = await writeNavigation(tx, setKey, { ...where, text }, { ...options, basedOn });
        const revision = result.revision;
        return {
          result,
          revisions: revision ? [revision] : [],
          entry: revision && {
            op: 'write_navigation',
            ...where,
            text: revision.snapshot ?? text,
            based_on: revision.basedOn,
            content_hash: result.contentHash,
          },
        };
      });
    },

    writeAsset(name, bytes, expected, change) {
      const basedOn = expectedBase(expected, 'writeAsset');
      return perform(change, { kind: 'asset', path: name }, async (tx, options) => {
        const result = await writeAsset(
          tx,
          setKey,
          { name, content: bytes },
          { ...options, basedOn, ...(disk ? { disk } : {}) },
        );
        const revision = result.revision;
        return {
          result,
          revisions: revision ? [revision] : [],
          entry: revision && {
            op: 'write_asset',
            name,
            content: Buffer.from(bytes).toString('base64'),
            based_on: revision.basedOn,
            content_hash: result.contentHash,
          },
        };
      });
    },

    deleteAsset(name, expected, change) {
      const basedOn = requiredBase(expected, 'deleteAsset');
      return perform(change, { kind: 'asset', path: name }, async (tx, options) => {
        const result = await deleteAsset(tx, setKey, name, { ...options, basedOn });
        return {
          result,
          revisions: result.revision ? [result.revision] : [],
          entry: { op: 'delete_asset', name, based_on: basedOn, content_hash: result.contentHash },
        };
      });
    },

    writeManifest(text, expected, change) {
      const basedOn = expectedBase(expected, 'writeManifest');
      return perform(change, { kind: 'manifest' }, async (tx, options) => {
        const result = await writeManifest(tx, setKey, { text }, { ...options, basedOn });
        const revision = result.revision;
        return {
          result,
          revisions: revision ? [revision] : [],
          entry: revision && {
            op: 'write_manifest',
            text: revision.snapshot ?? text,
            based_on: revision.basedOn,
            content_hash: result.contentHash,
          },
        };
      });
    },
  };
}

/**
 * Appends one published change to the branch's docs migration, inside the change's transaction:
 * the migration is recorded as applied in this database (its row also locks the file against
 * another process appending at once), then the file is written atomically. `file.undo` restores
 * what the file held, for a commit that fails afterwards.
 */
async function appendChange(
  tx: KitDatabase,
  migrations: DocsMigrationOptions,
  setKey: string,
  file: { undo: (() => Promise<void>) | null; migration: AuthorDocsMigration | null },
  change: DocsMigrationChange,
): Promise<void> {
  const { folder, branch, root } = migrations;
  let path = folder;
  try {
    const existing = (await migrationFileNames(folder))
      .filter((fileName) => isBranchMigrationFile(fileName, setKey, branch))
      .at(-1);
    const fileName = existing ?? migrationFileName(setKey, branch, new Date());
    const name = fileName.slice(0, -'.json'.length);
    path = join(folder, fileName);
    const m = tx.tables.docsMigrations;
    await tx.orm
      .insert(m)
      .values({ setKey, name })
      .onConflictDoUpdate({ target: [m.setKey, m.name], set: { name } });
    const previous = existing ? await readFile(path, 'utf8') : null;
    const document: DocsMigrationDocument =
      previous === null
        ? { $schema: DOCS_MIGRATION_SCHEMA_URL, kit: 'docs-migration', set: setKey, branch, changes: [] }
        : parseMigrationText(previous, path);
    if (document.set !== setKey) {
      throw new KitError(
        'argument.invalid',
        `The docs migration ${path} belongs to set "${document.set}", not "${setKey}". Rename or remove it.`,
      );
    }
    document.changes.push(change);
    const target = path;
    file.undo = () => (previous === null ? rm(target, { force: true }) : writeFileAtomically(target, previous));
    await writeFileAtomically(path, migrationText(document));
    file.migration = { file: relative(root, path).split(sep).join('/'), id: name };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new KitError(
      isKitError(error) ? error.code : 'source.error',
      `Nothing was saved: the docs migration ${path} could not be written (${message}). Check that migrations.path names a folder Kit can write, then try again.`,
      { cause: error },
    );
  }
}

/** A page the caller read (it passed its hash) that is gone now: a conflict, like any change since the read. */
function gone(page: PageAddress, expected: string) {
  return (error: unknown): never => {
    if (!isKitError(error, 'page.not_found')) throw error;
    throw new KitError(
      'content.conflict',
      `The page "${page.path}" in ${page.version}/${page.locale} no longer exists; it was removed or moved after you read it (based_on ${expected}). Read the pages again before changing it.`,
      { cause: error, details: { basedOn: expected, currentHash: null } },
    );
  };
}

function pageRef(page: PageAddress): PageAddress {
  return { version: page.version, locale: page.locale, path: page.path };
}

/** `expected` as a write's `basedOn`: null means nothing may be there. */
function expectedBase(expected: ExpectedContent, method: string): string {
  return expected === null ? ABSENT : requiredBase(expected, method);
}

function requiredBase(expected: string, method: string): string {
  if (typeof expected !== 'string' || expected === '') {
    throw new KitError(
      'argument.invalid',
      `${method} needs the content hash the change was written against (the content_hash read_page returned).`,
    );
  }
  return expected;
}
