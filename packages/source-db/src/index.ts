export type { AssetWrite } from './asset-writes.js';
export { deleteAsset, writeAsset } from './asset-writes.js';
export type {
  ChangeOptions,
  ChangeResult,
  ManifestWrite,
  MoveResult,
  NavigationWrite,
  PageWrite,
  PublishResult,
  RevisionQuery,
  RevisionRecord,
} from './change-types.js';
export type { KitDatabase, OpenDatabaseOptions } from './database.js';
export { attachDatabase, openDatabase } from './database.js';
export { createDbReview } from './db-review.js';
export type { DbContentSource, DbSourceOptions } from './db-source.js';
export { createDbSource } from './db-source.js';
export type { DocsMigrationOptions } from './db-writer.js';
export type { AssetDisk } from './disk.js';
export { createLocalDisk } from './disk.js';
export type {
  DocsMigrationChange,
  DocsMigrationDocument,
  DocsMigrationPage,
} from './docs-migration-file.js';
export type { DocsMigrationRecord } from './docs-migrations.js';
export { appliedDocsMigrations, applyDocsMigration, isDocsMigrationApplied } from './docs-migrations.js';
export { discardRevision, publishRevision } from './draft-review.js';
export type { ImportOptions, ImportReport } from './import.js';
export { importFromSource } from './import.js';
export type { ImportSkip } from './import-files.js';
export { listRevisions, restorePage } from './revision-history.js';
export type { DocsMigrationRun, DocsMigrationRunEntry } from './run-docs-migrations.js';
export { runDocsMigrations } from './run-docs-migrations.js';
export { migrateKitTables, migrationStatements } from './schema/migrate.js';
export { drizzleModels } from './schema/references.js';
export type {
  KitTables,
  ModelName,
  ModelOverride,
  RevisionAction,
  RevisionKind,
  RevisionStatus,
  TableOptions,
} from './schema/tables.js';
export { createKitTables, DEFAULT_TABLE_NAMES, MODEL_NAMES, REVISION_STATUSES } from './schema/tables.js';
export {
  deletePage,
  movePage,
  toAuthorRevision,
  writeManifest,
  writeNavigation,
  writePage,
} from './writes.js';
