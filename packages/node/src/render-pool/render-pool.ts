import { availableParallelism } from 'node:os';
import {
  createRenderContext,
  type PageRenderer,
  type RenderContext,
  type RenderedPage,
  type SourcePage,
  type ValidationRenderer,
} from '@kit/core';
import type { RenderFreshOptions, RenderOutcome } from '@kit/render';
import { createRenderQueue } from './queue.js';
import type { PostedRenderContext } from './render-worker.js';
import { type Pending, unsettled } from './work.js';
import { createRenderWorkers } from './workers.js';

/** How long one page may render on a worker before it is answered as text: 10 seconds. */
export const DEFAULT_RENDER_DEADLINE_MS = 10_000;

/** Render workers a server starts by default: one per core but one, at least one, at most two. */
export function defaultRenderWorkers(): number {
  return Math.max(1, Math.min(2, availableParallelism() - 1));
}

export interface RenderPoolOptions {
  /**
   * Worker threads rendering pages at once; 0 renders everything on the calling thread.
   * @default os.availableParallelism()
   */
  workers?: number;
  /**
   * Renders on the calling thread: with `workers: 0`, below `startAt`, and when workers could not
   * render like it. `renderFresh` (a `KitRenderer`'s) is used for {@link RenderPool.render}, so a
   * renderer whose executor is this pool never calls back into it.
   */
  renderer: PageRenderer & {
    renderFresh?(page: SourcePage, context: RenderContext, options?: RenderFreshOptions): Promise<RenderOutcome>;
  };
  /** The config file the kit was loaded from; workers import it when it registers components. */
  configFile?: string | null;
  /**
   * Characters of Markdown asked for before the workers start. Starting them takes a few hundred
   * milliseconds of CPU, more than rendering a small set, so those render on the calling thread.
   * A server gives 0: its workers start with the first page it renders.
   * @default 524288
   */
  startAt?: number;
  /**
   * Milliseconds one page may render on a worker. Past it the worker is stopped and replaced, and
   * the page is answered as its text with a `markdown.complexity` notice. Null: no deadline.
   * @default 10000
   */
  deadlineMs?: number | null;
  /**
   * Render the article HTML (serving). Validation never reads it: without it, pages asked for with
   * `renderPage` are rendered without it, on the workers and on the calling thread alike.
   * @default false
   */
  keepHtml?: boolean;
}

/**
 * Renders pages on worker threads: as a {@link ValidationRenderer} for `kit validate`, and through
 * `render` as the executor of a server's renderer. `close()` stops the workers.
 */
export interface RenderPool extends ValidationRenderer {
  readonly concurrency: number;
  /** Renders a page the renderer's cache missed (a `RenderExecutor`). */
  render(page: SourcePage, context: RenderContext): Promise<RenderOutcome>;
  close(): Promise<void>;
}

/** About half a second of parsing on one core. */
const START_AT = 512 * 1024;

/**
 * Renders pages on worker threads, one renderer per thread, so rendering never holds the calling
 * thread: `kit validate` parses Markdown on every core, and a server keeps answering light pages,
 * llms.txt and search while a heavy page renders. Workers start once enough Markdown waits to pay
 * for them (`startAt`) and take pages in the order they are asked for. Each page has a deadline:
 * a worker still rendering past it is stopped and replaced, and the page is answered as its text
 * with a `markdown.complexity` notice (like a page past the complexity guard's limits). A worker
 * that crashes (a component calling `process.exit`, running out of memory) is replaced the same
 * way, its page answered as text with a notice naming the crash; other pages render as usual.
 *
 * Workers render exactly as `renderer` does: when components are registered, each worker imports
 * the config file that registers them, and if it still lacks one, or one is registered or replaced
 * after the workers started, every page is rendered on the calling thread instead. A render context without `pageUrlInput` (not made by
 * `createRenderContext`) cannot be posted and renders on the calling thread too.
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
  const size = Math.max(0, Math.floor(options.workers ?? availableParallelism()));
  const fresh = freshRender(options.renderer);
  const forValidation = validationRender(options.renderer, options.keepHtml === true);
  if (size === 0) {
    return {
      concurrency: 1,
      renderPage: (page, context) => forValidation(page, createRenderContext(context)),
      render: fresh,
      close: async () => {},
    };
  }

  const startAt = options.startAt ?? START_AT;
  const queue = createRenderQueue();
  const workers = createRenderWorkers({
    size,
    deadlineMs: options.deadlineMs === undefined ? DEFAULT_RENDER_DEADLINE_MS : options.deadlineMs,
    configFile: options.configFile ?? null,
    keepHtml: options.keepHtml === true,
    onFree: () => pump(),
    onUnfaithful: () => goInline(),
  });
  let asked = 0;
  let draining = false;
  let pumpSoon = false;
  /** Set when the workers cannot render like the calling thread: everything renders inline. */
  let fallback = false;
  let closed = false;

  /** Workers cannot render like the calling thread: what they hold renders here, as everything after. */
  const goInline = () => {
    fallback = true;
    queue.putBack(workers.held());
    void workers.stop();
    pump();
  };

  /** Hands queued pages to idle workers; without workers, renders them here one per turn of the event loop. */
  const pump = () => {
    if (workers.running) return workers.handOut(queue.take);
    if (draining || queue.length === 0) return;
    draining = true;
    setImmediate(() => {
      draining = false;
      if (workers.running) return pump();
      const next = queue.take();
      if (next) void renderInline(next).then(pump);
      else pump();
    });
  };

  /**
   * Hands out work on the next turn of the event loop, so pages asked for together (validation
   * asks for every page at once) are queued, and pages with the same Markdown joined, first.
   */
  const schedulePump = () => {
    if (pumpSoon) return;
    pumpSoon = true;
    setImmediate(() => {
      pumpSoon = false;
      pump();
    });
  };

  const enqueue = (page: SourcePage, context: RenderContext, inline: () => Promise<RenderOutcome>) => {
    if (closed) return Promise.reject(new Error('The render pool is closed.'));
    if (!context.pageUrlInput) return inline();
    asked += page.body.length;
    if (!workers.running && !fallback && asked >= startAt) workers.start();
    // A component or reference registered or replaced since the workers started: they would render without it.
    else if (workers.running && workers.outdated()) goInline();
    const { pageUrl: _pageUrl, fileUrl: _fileUrl, ...rest } = context;
    const posted: PostedRenderContext = { ...rest, pageUrlInput: context.pageUrlInput };
    return new Promise<RenderOutcome>((resolve, reject) => {
      queue.add({ page, context: posted, inline, resolve, reject, settled: false });
      schedulePump();
    });
  };

  return {
    concurrency: size,
    async renderPage(page, input) {
      const context = createRenderContext(input);
      const inline = () => forValidation(page, context).then((rendered) => ({ page: rendered, includes: [] }));
      return (await enqueue(page, context, inline)).page;
    },
    render: (page, context) => enqueue(page, context, () => fresh(page, context)),
    async close() {
      closed = true;
      const held = [...queue.drain(), ...workers.held()];
      await workers.stop();
      for (const pending of held) {
        for (const item of unsettled(pending)) {
          item.settled = true;
          item.reject(new Error('The render pool was closed before the page rendered.'));
        }
      }
    },
  };
}

/** Renders queued work on the calling thread, page after page (the renderer parses their shared Markdown once). */
async function renderInline(pending: Pending): Promise<void> {
  for (const item of unsettled(pending)) {
    item.settled = true;
    await item.inline().then(item.resolve, item.reject);
  }
}

/** A render of `renderer` that skips its cache (`renderFresh`), so a pool that is its executor is never called back. */
function freshRender(
  renderer: RenderPoolOptions['renderer'],
): (page: SourcePage, context: RenderContext) => Promise<RenderOutcome> {
  return (page, context) =>
    renderer.renderFresh
      ? renderer.renderFresh(page, context)
      : renderer.render(page, context).then((page) => ({ page, includes: [] }));
}

/**
 * A page validation asked for, rendered on the calling thread: without the article HTML, as the
 * workers render it, unless the pool keeps HTML.
 */
function validationRender(
  renderer: RenderPoolOptions['renderer'],
  keepHtml: boolean,
): (page: SourcePage, context: RenderContext) => Promise<RenderedPage> {
  return (page, context) =>
    !keepHtml && renderer.renderFresh
      ? renderer.renderFresh(page, context, { html: false }).then((outcome) => outcome.page)
      : renderer.render(page, context);
}
