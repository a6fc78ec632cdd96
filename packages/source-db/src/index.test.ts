import { describe, expect, it } from 'vitest';

describe('@kit/source-db public API', () => {
  it('exports exactly the database source, its tables, connections, write functions and docs migrations', async () => {
    expect(Object.keys(await import('./index.js')).sort()).toEqual([
      'DEFAULT_TABLE_NAMES',
      'MODEL_NAMES',
      'REVISION_STATUSES',
      'appliedDocsMigrations',
      'applyDocsMigration',
      'attachDatabase',
      'createDbReview',
      'createDbSource',
      'createKitTables',
      'createLocalDisk',
      'deleteAsset',
      'deletePage',
      'discardRevision',
      'drizzleModels',
      'importFromSource',
      'isDocsMigrationApplied',
      'listRevisions',
      'migrateKitTables',
      'migrationStatements',
      'movePage',
      'openDatabase',
      'publishRevision',
      'restorePage',
      'runDocsMigrations',
      'toAuthorRevision',
      'writeAsset',
      'writeManifest',
      'writeNavigation',
      'writePage',
    ]);
  });

  it('keeps the drivers behind their own entry points', async () => {
    expect(Object.keys(await import('./pg.js'))).toEqual(['openPostgres']);
    expect(Object.keys(await import('./pglite.js'))).toEqual(['openPglite']);
  });
});
