import { createArrayCacheStore } from '@kit/core';
import { runSourceContract } from '@kit/core/testing';
import { describe } from 'vitest';
import { createDbSource } from './db-source.js';
import { freshSetKey, testDatabases, writeFixture } from './testing/fixture.js';

const databases = testDatabases();

runSourceContract({
  name: 'the database source on PGlite',
  create: async (fixture) => {
    const db = await databases.pglite();
    const setKey = freshSetKey('contract');
    await writeFixture(db, setKey, fixture);
    return createDbSource({ db, setKey });
  },
  cleanup: () => databases.dispose(),
});

runSourceContract({
  name: 'the database source on PGlite with a cache store',
  create: async (fixture) => {
    const db = await databases.pglite();
    const setKey = freshSetKey('contract_cached');
    await writeFixture(db, setKey, fixture);
    return createDbSource({ db, setKey, cache: createArrayCacheStore() });
  },
  cleanup: () => databases.dispose(),
});

runSourceContract({
  name: 'the database source on PGlite outside public, its search_path leading elsewhere',
  create: async (fixture) => {
    const db = await databases.pgliteElsewhere();
    const setKey = freshSetKey('contract_elsewhere');
    await writeFixture(db, setKey, fixture);
    return createDbSource({ db, setKey });
  },
  cleanup: () => databases.dispose(),
});

describe.skipIf(!databases.url)('on PostgreSQL (KIT_TEST_DATABASE_URL)', () => {
  runSourceContract({
    name: 'the database source on PostgreSQL outside public, its search_path leading elsewhere',
    create: async (fixture) => {
      const db = await databases.postgres();
      const setKey = freshSetKey('contract');
      await writeFixture(db, setKey, fixture);
      return createDbSource({ db, setKey });
    },
    cleanup: () => databases.dispose(),
  });
});
