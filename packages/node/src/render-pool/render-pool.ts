import { availableParallelism, totalmem } from 'node:os';
import { Worker } from 'node:worker_threads';
import {
  createRenderContext,
  defaultReferences,
  type PageRenderer,
  type RenderContext,
  type RenderedPage,
  type SourcePage,
  type ValidationRenderer,
} from '@kit/core';
import { defaultComponents, pageTooComplex, type RenderFreshOptions, type RenderOutcome } from '@kit/render';
import type { PostedRenderContext, RenderWorkerData, RenderWorkerMessage } from './render-worker.js';

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

/** One page asked for. */
interface Item {
  page: SourcePage;
  context: PostedRenderContext;
  /** Renders this page on the calling thread instead. */
  inline(): Promise<RenderOutcome>;
  resolve(outcome: RenderOutcome): void;
  reject(error: Error): void;
  settled: boolean;
}

/** What one worker renders in one go: a page, or several with the same Markdown or the same path. */
interface Pending {
  id: number;
  items: Item[];
}

interface Slot {
  worker: Worker;
  ready: boolean;
  current: Pending | null;
  deadline: ReturnType<typeof setTimeout> | null;
  /** Stopped, crashed or timed out: whatever it still says is ignored. */
  gone: boolean;
}

/** Pages answered as text because their render ran past the deadline or crashed its worker. */
const cutShort = new WeakSet<RenderedPage>();

/**
 * True for a page a render pool answered as text because its render ran past the deadline or
 * crashed its worker: an outcome of that run, which an on-disk cache should not keep.
 */
export function renderCutShort(page: RenderedPage): boolean {
  return cutShort.has(page);
}

/** About half a second of parsing on one core. */
const START_AT = 512 * 1024;
/** Workers that die before they are ready, in a row, before the pool renders on the calling thread. */
const STARTUP_FAILURES = 3;

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
  const renderer = options.renderer;
  const fresh = (page: SourcePage, context: RenderContext): Promise<RenderOutcome> =>
    renderer.renderFresh
      ? renderer.renderFresh(page, context)
      : renderer.render(page, context).then((page) => ({ page, includes: [] }));
  /**
   * A page validation asked for, rendered on the calling thread: without the article HTML, as the
   * workers render it, unless the pool keeps HTML.
   */
  const forValidation = (page: SourcePage, context: RenderContext): Promise<RenderedPage> =>
    options.keepHtml !== true && renderer.renderFresh
      ? renderer.renderFresh(page, context, { html: false }).then((outcome) => outcome.page)
      : renderer.render(page, context);
  if (size === 0) {
    return {
      concurrency: 1,
      renderPage: (page, context) => forValidation(page, createRenderContext(context)),
      render: fresh,
      close: async () => {},
    };
  }

  const startAt = options.startAt ?? START_AT;
  const deadlineMs = options.deadlineMs === undefined ? DEFAULT_RENDER_DEADLINE_MS : options.deadlineMs;
  /** What workers start with, taken when the first starts: components registered until then are known. */
  let data: RenderWorkerData | null = null;
  let startedGeneration = 0;
  let startedReferences = '';
  const queue: Pending[] = [];
  let slots: Slot[] | null = null;
  let nextId = 0;
  let asked = 0;
  let draining = false;
  let pumpSoon = false;
  /** Queued (not yet handed out) work by its Markdown, so a page with the same text joins it. */
  const queuedByBody = new Map<string, Pending>();
  /**
   * Queued work by page path: the same page in other versions joins it, so one worker parses them
   * one after the other and reparses only the parts that differ (the renderer keeps parsed chunks).
   */
  const queuedByPath = new Map<string, Pending>();
  let startupFailures = 0;
  /** Set when the workers cannot render like the calling thread: everything renders inline. */
  let fallback = false;
  let closed = false;

  const spawnSlot = (): Slot => {
    data ??= {
      components: defaultComponents.names(),
      references: defaultReferences.registered() ? defaultReferences.fingerprint() : null,
      configFile: options.configFile ?? null,
      keepHtml: options.keepHtml === true,
    };
    const slot: Slot = { worker: spawnWorker(data, size), ready: false, current: null, deadline: null, gone: false };
    slot.worker.on('message', (message: RenderWorkerMessage) => {
      if (!slot.gone) receive(slot, message);
    });
    slot.worker.on('error', (error) => crashed(slot, error.message));
    slot.worker.on('exit', (code) => crashed(slot, `exit code ${code}`));
    return slot;
  };

  /** Puts a new worker where `slot` was. */
  const replace = (slot: Slot) => {
    slot.gone = true;
    if (slot.deadline) clearTimeout(slot.deadline);
    if (!slots) return;
    const index = slots.indexOf(slot);
    if (index !== -1) slots[index] = spawnSlot();
  };

  const crashed = (slot: Slot, why: string) => {
    if (slot.gone || !slots) return;
    const pending = slot.current;
    slot.current = null;
    if (!slot.ready && !pending && ++startupFailures >= STARTUP_FAILURES) {
      // Workers that cannot even start would be replaced forever: render here instead.
      console.error(`kit: render workers stopped before they were ready (${why}); pages render on the main thread.`);
      goInline();
      return;
    }
    replace(slot);
    if (pending) {
      // Rendering it again would crash the next worker: the page is answered as its text, and the
      // renderer's cache keeps that answer until the page changes. Pages waiting behind it have the
      // same Markdown, so they would too.
      for (const item of unsettled(pending)) {
        console.error(`kit: rendering ${where(item.page)} stopped its render worker (${why}); it is served as text.`);
        answerAsText(item, `rendering it stopped its render worker (${why})`);
      }
    }
    pump();
  };

  const timedOut = (slot: Slot) => {
    const pending = slot.current;
    if (!pending || slot.gone) return;
    slot.current = null;
    replace(slot);
    void slot.worker.terminate();
    const seconds = Math.round((deadlineMs ?? 0) / 100) / 10;
    for (const item of unsettled(pending)) answerAsText(item, `it took longer than ${seconds} seconds to render`);
    pump();
  };

  const receive = (slot: Slot, message: RenderWorkerMessage) => {
    if (message.kind === 'ready') {
      slot.ready = true;
      startupFailures = 0;
    } else if (message.kind === 'unfaithful') {
      goInline();
      return;
    } else {
      const pending = slot.current;
      const item = pending?.id === message.id ? pending.items[message.index] : undefined;
      if (!pending || !item || item.settled) return;
      item.settled = true;
      if (message.kind === 'rendered') item.resolve(message.outcome);
      else item.reject(new Error(message.message));
      if (slot.deadline) clearTimeout(slot.deadline);
      slot.deadline = null;
      if (unsettled(pending).length > 0) {
        // Each page has the whole deadline, counted from the moment the one before it was answered.
        if (deadlineMs !== null) slot.deadline = setTimeout(() => timedOut(slot), deadlineMs);
        return;
      }
      slot.current = null;
    }
    pump();
  };

  /** Workers cannot render like the calling thread: what they hold renders here, as everything after. */
  const goInline = () => {
    fallback = true;
    const held = (slots ?? []).flatMap((other) => (other.current ? [other.current] : []));
    queue.unshift(...held.sort((a, b) => a.id - b.id));
    void stop();
    pump();
  };

  /** Hands queued pages to idle workers; without workers, renders them here one per turn of the event loop. */
  const pump = () => {
    if (slots) {
      for (const slot of slots) {
        if (!slot.ready || slot.current || slot.gone) continue;
        const next = queue.shift();
        if (!next) return;
        forget(next);
        slot.current = next;
        const items = unsettled(next);
        next.items = items;
        slot.worker.postMessage({ id: next.id, items: items.map(({ page, context }) => ({ page, context })) });
        if (deadlineMs !== null) slot.deadline = setTimeout(() => timedOut(slot), deadlineMs);
      }
      return;
    }
    if (draining || queue.length === 0) return;
    draining = true;
    setImmediate(() => {
      draining = false;
      if (slots) return pump();
      const next = queue.shift();
      if (next) {
        forget(next);
        void renderInline(next).then(pump);
      } else pump();
    });
  };

  /** Renders queued work on the calling thread, page after page (the renderer parses their shared Markdown once). */
  const renderInline = async (pending: Pending) => {
    for (const item of unsettled(pending)) {
      item.settled = true;
      await item.inline().then(item.resolve, item.reject);
    }
  };

  const forget = (pending: Pending) => {
    for (const item of pending.items) {
      if (queuedByBody.get(item.page.body) === pending) queuedByBody.delete(item.page.body);
      if (queuedByPath.get(item.page.path) === pending) queuedByPath.delete(item.page.path);
    }
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

  const stop = async () => {
    const running = slots ?? [];
    slots = null;
    for (const slot of running) {
      slot.gone = true;
      if (slot.deadline) clearTimeout(slot.deadline);
    }
    await Promise.all(running.map((slot) => slot.worker.terminate()));
  };

  const enqueue = (page: SourcePage, context: RenderContext, inline: () => Promise<RenderOutcome>) => {
    if (closed) return Promise.reject(new Error('The render pool is closed.'));
    if (!context.pageUrlInput) return inline();
    asked += page.body.length;
    if (!slots && !fallback && asked >= startAt) {
      startedGeneration = defaultComponents.generation();
      startedReferences = defaultReferences.fingerprint();
      slots = Array.from({ length: size }, spawnSlot);
    } else if (
      slots &&
      (defaultComponents.generation() !== startedGeneration || defaultReferences.fingerprint() !== startedReferences)
    ) {
      // A component or reference registered or replaced since the workers started: they would render without it.
      goInline();
    }
    const { pageUrl: _pageUrl, fileUrl: _fileUrl, ...rest } = context;
    const posted: PostedRenderContext = { ...rest, pageUrlInput: context.pageUrlInput };
    return new Promise<RenderOutcome>((resolve, reject) => {
      const item: Item = { page, context: posted, inline, resolve, reject, settled: false };
      const joined = queuedByBody.get(page.body) ?? queuedByPath.get(page.path);
      if (joined) {
        joined.items.push(item);
        queuedByBody.set(page.body, joined);
      } else {
        const pending: Pending = { id: nextId++, items: [item] };
        queue.push(pending);
        queuedByBody.set(page.body, pending);
        queuedByPath.set(page.path, pending);
      }
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
      const held = [...queue.splice(0), ...(slots ?? []).flatMap((slot) => (slot.current ? [slot.current] : []))];
      queuedByBody.clear();
      queuedByPath.clear();
      await stop();
      for (const pending of held) {
        for (const item of unsettled(pending)) {
          item.settled = true;
          item.reject(new Error('The render pool was closed before the page rendered.'));
        }
      }
    },
  };
}

function unsettled(pending: Pending): Item[] {
  return pending.items.filter((item) => !item.settled);
}

/** Answers a page as its text, with a notice saying why: an outcome of this run only (`renderCutShort`). */
function answerAsText(item: Item, why: string): void {
  item.settled = true;
  const page: RenderedPage = { ...pageTooComplex(item.page, why), provisional: true };
  cutShort.add(page);
  item.resolve({ page, includes: [] });
}

function where(page: SourcePage): string {
  return page.file ?? `${page.version}/${page.path}`;
}

/**
 * A worker on `render-worker`: the built `.js` next to this file, or, when Kit runs from its
 * TypeScript sources (tests, `pnpm kit`), the `.ts` file loaded through tsx with the `kit-source`
 * condition, as the calling thread loads it.
 */
function spawnWorker(workerData: RenderWorkerData, size: number): Worker {
  const here = import.meta.url;
  // Parsing makes many short-lived objects; in a young generation this large they mostly die before
  // a collection, which saves about a quarter of the CPU time on the Laravel docs. Together the
  // workers' young generations stay under a sixteenth of the memory.
  const totalMb = totalmem() / 1024 / 1024;
  const budgetMb = Math.floor(totalMb / 16 / size);
  // A render that would take more than its share of the memory stops its worker (ERR_WORKER_OUT_OF_MEMORY),
  // and its page is answered as text, instead of taking the process down.
  const heapMb = Math.floor(totalMb / 4 / size);
  const resourceLimits = {
    maxYoungGenerationSizeMb: Math.max(16, Math.min(128, budgetMb)),
    maxOldGenerationSizeMb: Math.max(512, Math.min(4096, heapMb)),
  };
  if (!here.endsWith('.ts')) {
    return new Worker(new URL('./render-worker.js', here), { workerData, resourceLimits });
  }
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./render-worker.ts', here).href;
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(boot, { eval: true, workerData, resourceLimits, execArgv: ['--conditions=kit-source'] });
}
