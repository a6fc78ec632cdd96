import { parentPort, workerData } from 'node:worker_threads';
import { defaultReferences, type RenderContext, type SourcePage } from '@kit/core';
import { contextUrls } from '@kit/core/internal';
import { importConfigFile } from '@kit/core/node';
import { defaultComponents, type RenderOutcome } from '@kit/render';
import { createNodeRenderer } from '@kit/render/node';

/** What a render worker is started with. */
export interface RenderWorkerData {
  /** Components registered on the main thread; the worker must know the same ones. */
  components: string[];
  /** The fingerprint of the reference catalog registered on the main thread, or null for none. */
  references: string | null;
  /** The config file the kit was loaded from: importing it registers the components it registers. */
  configFile: string | null;
  /** Post the article HTML back (serving); validation never reads it, so it stays in the worker. */
  keepHtml: boolean;
}

/** A render context as posted to a worker: everything but `pageUrl` and `fileUrl`, which it rebuilds from `pageUrlInput`. */
export type PostedRenderContext = Omit<RenderContext, 'pageUrl' | 'fileUrl'> &
  Required<Pick<RenderContext, 'pageUrlInput'>>;

/**
 * Pages to render: one, or several with the same Markdown (a page unchanged between versions),
 * rendered one after the other so the worker parses that Markdown once.
 */
export interface RenderJob {
  id: number;
  items: Array<{ page: SourcePage; context: PostedRenderContext }>;
}

/** What a worker posts back: whether it can render like the main thread, then one reply per job. */
export type RenderWorkerMessage =
  | { kind: 'ready' }
  | { kind: 'unfaithful'; reason: string }
  | { kind: 'rendered'; id: number; index: number; outcome: RenderOutcome }
  | { kind: 'failed'; id: number; index: number; message: string };

const port = parentPort;
if (!port) throw new Error('render-worker runs as a worker thread of a render pool (createRenderPool).');
const data = workerData as RenderWorkerData;

// The main thread keeps the render cache: a page comes here only when it missed there.
const renderer = createNodeRenderer({ cacheSize: 1 });

port.on('message', async (job: RenderJob) => {
  // In order, each answered as soon as it is rendered: the renderer parses the shared Markdown for
  // the first page and copies that tree for the others.
  for (let index = 0; index < job.items.length; index++) {
    const { page, context } = job.items[index]!;
    try {
      // Without the HTML (validation) the article is not even written: the rest of the render is the same.
      const outcome = await renderer.renderFresh(
        page,
        { ...context, ...contextUrls(context.pageUrlInput) },
        { html: data.keepHtml },
      );
      const rendered = data.keepHtml ? outcome.page : { ...outcome.page, html: '' };
      port.postMessage({ kind: 'rendered', id: job.id, index, outcome: { ...outcome, page: rendered } });
    } catch (error) {
      port.postMessage({
        kind: 'failed',
        id: job.id,
        index,
        message: error instanceof Error ? error.message : String(error),
      });
    }
  }
});

port.postMessage(await readiness());

async function readiness(): Promise<RenderWorkerMessage> {
  if ((data.components.length > 0 || data.references !== null) && data.configFile) {
    try {
      await importConfigFile(data.configFile);
    } catch (error) {
      return { kind: 'unfaithful', reason: `the config did not load: ${(error as Error).message}` };
    }
  }
  const known = new Set(defaultComponents.names());
  const missing = data.components.filter((name) => !known.has(name));
  if (data.references !== null && defaultReferences.fingerprint() !== data.references) {
    return { kind: 'unfaithful', reason: 'the application registers its references outside the config' };
  }
  return missing.length === 0
    ? { kind: 'ready' }
    : { kind: 'unfaithful', reason: `components ${missing.join(', ')} are registered outside the config` };
}
