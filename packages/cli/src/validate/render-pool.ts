import { availableParallelism, totalmem } from 'node:os';
import { Worker } from 'node:worker_threads';
import {
  createRenderContext,
  type PageRenderer,
  type RenderContextInput,
  type RenderedPage,
  type SourcePage,
  type ValidationRenderer,
} from '@kit/core';
import { defaultComponents } from '@kit/render';
import type { RenderJob, RenderWorkerData, RenderWorkerMessage } from './render-worker.js';

export interface RenderPoolOptions {
  /**
   * Worker threads rendering pages at once. 1 renders on the calling thread with `renderer`.
   * @default os.availableParallelism()
   */
  jobs?: number;
  /** Renders on the calling thread: with `jobs: 1`, below `startAt`, and when workers could not render like it. */
  renderer: PageRenderer;
  /** The config file the kit was loaded from; workers import it when it registers components. */
  configFile?: string | null;
  /**
   * Characters of Markdown asked for before the workers start. Starting them takes a few hundred
   * milliseconds of CPU, more than rendering a small set, so those render on the calling thread.
   * @default 524288
   */
  startAt?: number;
}

/** A {@link ValidationRenderer} on worker threads; `close()` stops them. */
export interface RenderPool extends ValidationRenderer {
  readonly concurrency: number;
  close(): Promise<void>;
}

interface Pending {
  job: RenderJob;
  resolve(rendered: RenderedPage): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  current: Pending | null;
}

/** About half a second of parsing on one core. */
const START_AT = 512 * 1024;

/**
 * Renders the pages `kit validate` checks on worker threads, one renderer per thread, so a cold run
 * parses Markdown on every core. Workers start once enough Markdown waits to pay for them (a run
 * answered from the render cache, or a small set, starts none) and take pages in the order they
 * are asked for. They render exactly as `renderer` does: when components are registered, each
 * worker imports the config file that registers them, and if it still lacks one, every page is
 * rendered on the calling thread instead. Renders made by a worker come back without their HTML.
 *
 * @example
 * const pool = createRenderPool({ renderer: kit.renderer, configFile: kit.config.file });
 * try {
 *   await validateKit(kit, { renderer: pool });
 * } finally {
 *   await pool.close();
 * }
 */
export function createRenderPool(options: RenderPoolOptions): RenderPool {
  const jobs = Math.max(1, Math.floor(options.jobs ?? availableParallelism()));
  const inline = (page: SourcePage, context: RenderContextInput) =>
    options.renderer.render(page, createRenderContext(context));
  if (jobs === 1) return { concurrency: 1, renderPage: inline, close: async () => {} };

  const startAt = options.startAt ?? START_AT;
  const queue: Pending[] = [];
  let slots: Slot[] | null = null;
  let nextId = 0;
  let asked = 0;
  let draining = false;
  /** Set when the workers cannot render like the calling thread: everything renders inline. */
  let fallback = false;
  let failure: Error | null = null;

  const start = (): Slot[] => {
    const data: RenderWorkerData = {
      components: defaultComponents.names(),
      configFile: options.configFile ?? null,
    };
    return Array.from({ length: jobs }, () => {
      const slot: Slot = { worker: spawnWorker(data, jobs), ready: false, current: null };
      slot.worker.on('message', (message: RenderWorkerMessage) => receive(slot, message));
      slot.worker.on('error', (error) => fail(error));
      slot.worker.on('exit', (code) => {
        if (slots !== null) fail(new Error(`a render worker stopped (exit code ${code})`));
      });
      return slot;
    });
  };

  const receive = (slot: Slot, message: RenderWorkerMessage) => {
    if (message.kind === 'ready') {
      slot.ready = true;
    } else if (message.kind === 'unfaithful') {
      fallback = true;
      // What the workers hold goes back to the front of the queue, to render here.
      const held = (slots ?? []).flatMap((other) => (other.current ? [other.current] : []));
      queue.unshift(...held.sort((a, b) => a.job.id - b.job.id));
      void stop();
    } else {
      const pending = slot.current;
      slot.current = null;
      if (pending?.job.id === message.id) {
        if (message.kind === 'rendered') pending.resolve(message.rendered);
        else pending.reject(new Error(message.message));
      }
    }
    pump();
  };

  /** Hands queued pages to idle workers; without workers, renders them here one per turn of the event loop. */
  const pump = () => {
    if (slots) {
      for (const slot of slots) {
        if (!slot.ready || slot.current) continue;
        const next = queue.shift();
        if (!next) return;
        slot.current = next;
        slot.worker.postMessage(next.job);
      }
      return;
    }
    if (draining || queue.length === 0) return;
    draining = true;
    setImmediate(() => {
      draining = false;
      if (slots) return pump();
      const next = queue.shift();
      if (next) inline(next.job.page, next.job.context).then(next.resolve, next.reject);
      pump();
    });
  };

  const stop = async () => {
    const running = slots ?? [];
    slots = null;
    await Promise.all(running.map((slot) => slot.worker.terminate()));
  };

  const fail = (error: Error) => {
    if (failure) return;
    failure = new Error(
      `Rendering pages on worker threads failed: ${error.message}. Run with --jobs 1 to render on one thread.`,
      { cause: error },
    );
    for (const slot of slots ?? []) slot.current?.reject(failure);
    for (const pending of queue.splice(0)) pending.reject(failure);
    void stop();
  };

  return {
    concurrency: jobs,
    renderPage(page, context) {
      if (failure) return Promise.reject(failure);
      asked += page.body.length;
      if (!slots && !fallback && asked >= startAt) slots = start();
      return new Promise<RenderedPage>((resolve, reject) => {
        queue.push({ job: { id: nextId++, page, context }, resolve, reject });
        pump();
      });
    },
    close: stop,
  };
}

/**
 * A worker on `render-worker`: the built `.js` next to this file, or, when Kit runs from its
 * TypeScript sources (tests, `pnpm kit`), the `.ts` file loaded through tsx with the `kit-source`
 * condition, as the calling thread loads it.
 */
function spawnWorker(workerData: RenderWorkerData, jobs: number): Worker {
  const here = import.meta.url;
  // Parsing makes many short-lived objects; in a young generation this large they mostly die before
  // a collection, which saves about a quarter of the CPU time on the Laravel docs. Together the
  // workers' young generations stay under a sixteenth of the memory.
  const budgetMb = Math.floor(totalmem() / 1024 / 1024 / 16 / jobs);
  const resourceLimits = { maxYoungGenerationSizeMb: Math.max(16, Math.min(128, budgetMb)) };
  if (!here.endsWith('.ts')) {
    return new Worker(new URL('./render-worker.js', here), { workerData, resourceLimits });
  }
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./render-worker.ts', here).href;
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(boot, { eval: true, workerData, resourceLimits, execArgv: ['--conditions=kit-source'] });
}
