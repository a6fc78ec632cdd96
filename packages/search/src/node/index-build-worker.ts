import { parentPort } from 'node:worker_threads';
import type { SearchSection } from '@kit/core';
import { buildEngineIndex } from '../engine/build.js';
import { storedIndexOf } from '../engine/persist.js';
import { prepareRanking, type RankingParams } from '../engine/rank.js';

/** What {@link createWorkerIndexBuilder} posts to a build worker. */
export interface IndexBuildRequest {
  sections: SearchSection[];
  ranking: RankingParams;
}

// One build per worker: the worker ends after answering, and the memory the build took goes with it.
parentPort?.once('message', (request: IndexBuildRequest) => {
  try {
    const index = buildEngineIndex(request.sections);
    // The semantic model is the costly part of ranking data, and it travels in the stored form.
    prepareRanking(index, request.ranking);
    parentPort?.postMessage({ stored: storedIndexOf(index) });
  } catch (error) {
    parentPort?.postMessage({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
