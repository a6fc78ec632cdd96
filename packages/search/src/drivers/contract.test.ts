import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { createDiskIndexCache } from '../node/disk-index-cache.js';
import { runSearchDriverContract } from '../testing/index.js';
import { createClientSearch } from './client.js';
import { createServerSearch } from './server.js';

runSearchDriverContract({ name: 'server', create: () => createServerSearch() });
runSearchDriverContract({ name: 'client', create: () => createClientSearch() });

// Every driver of a run shares one folder, as the sets of a project share `.kit/cache/search`:
// an index kept by one test is loaded by the next that indexes the same sections.
const kept = mkdtempSync(join(tmpdir(), 'kit-contract-index-cache-'));
afterAll(() => rmSync(kept, { recursive: true, force: true }));
runSearchDriverContract({
  name: 'server with a disk index cache',
  create: () =>
    createServerSearch({
      cache: createDiskIndexCache({
        dir: kept,
        onWarning: (message) => {
          throw new Error(message);
        },
      }),
    }),
});
