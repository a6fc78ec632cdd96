export { attachDatabase, openDatabase } from './database.js';
export type { KitDatabase, OpenDatabaseOptions } from './database.js';
export { createKitTables, DEFAULT_TABLE_NAMES, MODEL_NAMES } from './schema/tables.js';
export type {
  KitTables,
  ModelName,
  ModelOverride,
  RevisionAction,
  RevisionKind,
  RevisionStatus,
  TableOptions,
} from './schema/tables.js';
export { migrateKitTables, migrationStatements } from './schema/migrate.js';
export { createDbSource } from './db-source.js';
export type { DbContentSource, DbSourceOptions } from './db-source.js';
export {
  deleteAsset,
  deletePage,
  listRevisions,
  publishRevision,
  restorePage,
  toAuthorRevision,
  writeAsset,
  writeManifest,
  writeNavigation,
  writePage,
} from './writes.js';
export type {
  AssetWrite,
  ChangeOptions,
  ChangeResult,
  ManifestWrite,
  NavigationWrite,
  PageRef,
  PageWrite,
  RevisionQuery,
  RevisionRecord,
} from './writes.js';
export { importFromSource } from './import.js';
export type { ImportOptions, ImportReport } from './import.js';
export { createLocalDisk } from './disk.js';
export type { AssetDisk } from './disk.js';
export { applyDocsMigration, appliedDocsMigrations, isDocsMigrationApplied } from './docs-migrations.js';
export type { DocsMigrationRecord } from './docs-migrations.js';
