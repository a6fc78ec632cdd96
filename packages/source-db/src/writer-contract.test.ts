import { runWriterContract } from '@kit/core/testing';
import { describe } from 'vitest';
import { createDbSource } from './db-source.js';
import { freshSetKey, testDatabases, writeFixture } from './testing/fixture.js';

const databases = testDatabases();

runWriterContract({
  name: 'the database writer on PGlite',
  drafts: true,
  create: async (fixture) => {
    const db = await databases.pglite();
    const setKey = freshSetKey('writer_contract');
    await writeFixture(db, setKey, fixture);
    return createDbSource({ db, setKey, pollInterval: 20 });
  },
  cleanup: () => databases.dispose(),
});

runWriterContract({
  name: 'the database writer on PGlite outside public, its search_path leading elsewhere',
  drafts: true,
  create: async (fixture) => {
    const db = await databases.pgliteElsewhere();
    const setKey = freshSetKey('writer_elsewhere');
    await writeFixture(db, setKey, fixture);
    return createDbSource({ db, setKey, pollInterval: 20 });
  },
  cleanup: () => databases.dispose(),
});

describe.skipIf(!databases.url)('on PostgreSQL (KIT_TEST_DATABASE_URL)', () => {
  runWriterContract({
    name: 'the database writer on PostgreSQL outside public, its search_path leading elsewhere',
    drafts: true,
    create: async (fixture) => {
      const db = await databases.postgres();
      const setKey = freshSetKey('writer_contract');
      await writeFixture(db, setKey, fixture);
      return createDbSource({ db, setKey, pollInterval: 20 });
    },
    cleanup: () => databases.dispose(),
  });
});
