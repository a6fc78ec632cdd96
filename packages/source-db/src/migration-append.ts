import { readFile, rm } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { AuthorDocsMigration } from '@kit/core';
import { isKitError, KitError } from '@kit/core';
import { writeFileAtomically } from '@kit/core/node';
import type { KitDatabase } from './database.js';
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

/** The docs migration file one change went into, and how to put the file back when the commit fails. */
export interface MigrationFileState {
  undo: (() => Promise<void>) | null;
  migration: AuthorDocsMigration | null;
}

/**
 * Appends one published change to the branch's docs migration, inside the change's transaction:
 * the migration is recorded as applied in this database (its row also locks the file against
 * another process appending at once), then the file is written atomically. `file.undo` restores
 * what the file held, for a commit that fails afterwards.
 */
export async function appendChange(
  tx: KitDatabase,
  migrations: DocsMigrationOptions,
  setKey: string,
  file: MigrationFileState,
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
