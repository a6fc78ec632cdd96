import { Worker } from 'node:worker_threads';
import type { IndexBuilder } from '../drivers/server.js';
import type { StoredIndex } from '../engine/persist.js';
import type { IndexBuildRequest } from './index-build-worker.js';

/**
 * An {@link IndexBuilder} that builds each server index on a worker thread of its own, which ends
 * once the index is handed back. The calling thread keeps answering requests while a large set is
 * indexed (a build of 10,000 pages is seconds of synchronous work), and the build's short-lived
 * memory (term maps, the semantic model's matrices) is returned when the worker ends instead of
 * staying in the server's heap.
 *
 * @example
 * const search = createServerSearch({ builder: createWorkerIndexBuilder() });
 */
export function createWorkerIndexBuilder(): IndexBuilder {
  return (sections, ranking) => buildOnWorker({ sections, ranking });
}

function buildOnWorker(request: IndexBuildRequest): Promise<StoredIndex> {
  const worker = spawnBuildWorker();
  return new Promise<StoredIndex>((resolve, reject) => {
    worker.once('message', (answer: { stored?: StoredIndex; error?: string }) => {
      if (answer.stored) resolve(answer.stored);
      else reject(new Error(`Building the search index failed on its worker thread: ${answer.error}`));
      void worker.terminate();
    });
    worker.once('error', (error) =>
      reject(new Error(`The search index worker thread failed: ${error.message}`, { cause: error })),
    );
    worker.once('exit', (code) =>
      reject(new Error(`The search index worker thread ended (exit code ${code}) before answering.`)),
    );
    worker.postMessage(request);
  });
}

/**
 * A worker on `index-build-worker`: the built `.js` next to this file, or, when Kit runs from its
 * TypeScript sources (tests, `pnpm kit`), the `.ts` file loaded through tsx with the `kit-source`
 * condition, as the calling thread loads it.
 */
function spawnBuildWorker(): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./index-build-worker.js', here));
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./index-build-worker.ts', here).href;
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(boot, { eval: true, execArgv: ['--conditions=kit-source'] });
}
