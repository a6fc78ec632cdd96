import { parentPort, workerData } from 'node:worker_threads';
import { createRenderContext, type RenderContextInput, type RenderedPage, type SourcePage } from '@kit/core';
import { importConfigFile } from '@kit/core/node';
import { defaultComponents } from '@kit/render';
import { createNodeRenderer } from '@kit/render/node';

/** What a render worker is started with. */
export interface RenderWorkerData {
  /** Components registered on the main thread; the worker must know the same ones. */
  components: string[];
  /** The config file the kit was loaded from: importing it registers the components it registers. */
  configFile: string | null;
}

/** One page to render. */
export interface RenderJob {
  id: number;
  page: SourcePage;
  context: RenderContextInput;
}

/** What a worker posts back: whether it can render like the main thread, then one reply per job. */
export type RenderWorkerMessage =
  | { kind: 'ready' }
  | { kind: 'unfaithful'; reason: string }
  | { kind: 'rendered'; id: number; rendered: RenderedPage }
  | { kind: 'failed'; id: number; message: string };

const port = parentPort;
if (!port) throw new Error('render-worker runs as a worker thread of the validate render pool.');
const data = workerData as RenderWorkerData;

// Every page is rendered once per run, so an in-memory render cache would only hold memory.
const renderer = createNodeRenderer({ cacheSize: 1 });

port.on('message', (job: RenderJob) => {
  Promise.resolve(job)
    .then(({ page, context }) => renderer.render(page, createRenderContext(context)))
    .then(
      (rendered) => {
        // Validation never reads the article HTML: leave it here instead of copying it back.
        port.postMessage({ kind: 'rendered', id: job.id, rendered: { ...rendered, html: '' } });
      },
      (error: unknown) => {
        port.postMessage({
          kind: 'failed',
          id: job.id,
          message: error instanceof Error ? error.message : String(error),
        });
      },
    );
});

port.postMessage(await readiness());

async function readiness(): Promise<RenderWorkerMessage> {
  if (data.components.length > 0 && data.configFile) {
    try {
      await importConfigFile(data.configFile);
    } catch (error) {
      return { kind: 'unfaithful', reason: `the config did not load: ${(error as Error).message}` };
    }
  }
  const known = new Set(defaultComponents.names());
  const missing = data.components.filter((name) => !known.has(name));
  return missing.length === 0
    ? { kind: 'ready' }
    : { kind: 'unfaithful', reason: `components ${missing.join(', ')} are registered outside the config` };
}
