import { totalmem } from 'node:os';
import { Worker } from 'node:worker_threads';
import { defaultReferences, type SourcePage } from '@kit/core';
import { defaultComponents } from '@kit/render';
import type { RenderWorkerData, RenderWorkerMessage } from './render-worker.js';
import { answerAsText, type Pending, unsettled } from './work.js';

/** Workers that die before they are ready, in a row, before the pool renders on the calling thread. */
const STARTUP_FAILURES = 3;

/** Options of {@link createRenderWorkers}. */
export interface RenderWorkersOptions {
  size: number;
  deadlineMs: number | null;
  configFile: string | null;
  keepHtml: boolean;
  /** A worker is free for more work (it answered, or took the place of one that stopped). */
  onFree(): void;
  /** The workers cannot render like the calling thread: everything should render there instead. */
  onUnfaithful(): void;
}

/** The worker threads of a render pool, started together and replaced one by one. */
export interface RenderWorkers {
  readonly running: boolean;
  start(): void;
  /** True when a component or reference was registered or replaced since the workers started. */
  outdated(): boolean;
  /** Gives each ready, idle worker the next work `take` gives, with its deadline. */
  handOut(take: () => Pending | undefined): void;
  /** The work the workers are rendering. */
  held(): Pending[];
  stop(): Promise<void>;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  current: Pending | null;
  deadline: ReturnType<typeof setTimeout> | null;
  /** Stopped, crashed or timed out: whatever it still says is ignored. */
  gone: boolean;
}

/**
 * The workers of a render pool. A worker still rendering past the deadline is stopped and
 * replaced, and its pages are answered as text; a worker that crashes is replaced the same way.
 * Workers that keep dying before they are ready give up on workers altogether (`onUnfaithful`).
 */
export function createRenderWorkers(options: RenderWorkersOptions): RenderWorkers {
  const { size, deadlineMs } = options;
  /** What workers start with, taken when the first starts: components registered until then are known. */
  let data: RenderWorkerData | null = null;
  let startedGeneration = 0;
  let startedReferences = '';
  let slots: Slot[] | null = null;
  let startupFailures = 0;

  const spawnSlot = (): Slot => {
    data ??= {
      components: defaultComponents.names(),
      references: defaultReferences.registered() ? defaultReferences.fingerprint() : null,
      configFile: options.configFile,
      keepHtml: options.keepHtml,
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
      options.onUnfaithful();
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
    options.onFree();
  };

  const timedOut = (slot: Slot) => {
    const pending = slot.current;
    if (!pending || slot.gone) return;
    slot.current = null;
    replace(slot);
    void slot.worker.terminate();
    const seconds = Math.round((deadlineMs ?? 0) / 100) / 10;
    for (const item of unsettled(pending)) answerAsText(item, `it took longer than ${seconds} seconds to render`);
    options.onFree();
  };

  const receive = (slot: Slot, message: RenderWorkerMessage) => {
    if (message.kind === 'ready') {
      slot.ready = true;
      startupFailures = 0;
    } else if (message.kind === 'unfaithful') {
      options.onUnfaithful();
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
    options.onFree();
  };

  return {
    get running() {
      return slots !== null;
    },
    start() {
      startedGeneration = defaultComponents.generation();
      startedReferences = defaultReferences.fingerprint();
      slots = Array.from({ length: size }, spawnSlot);
    },
    outdated: () =>
      defaultComponents.generation() !== startedGeneration || defaultReferences.fingerprint() !== startedReferences,
    handOut(take) {
      for (const slot of slots ?? []) {
        if (!slot.ready || slot.current || slot.gone) continue;
        const next = take();
        if (!next) return;
        slot.current = next;
        const items = unsettled(next);
        next.items = items;
        slot.worker.postMessage({ id: next.id, items: items.map(({ page, context }) => ({ page, context })) });
        if (deadlineMs !== null) slot.deadline = setTimeout(() => timedOut(slot), deadlineMs);
      }
    },
    held: () => (slots ?? []).flatMap((slot) => (slot.current ? [slot.current] : [])),
    async stop() {
      const running = slots ?? [];
      slots = null;
      for (const slot of running) {
        slot.gone = true;
        if (slot.deadline) clearTimeout(slot.deadline);
      }
      await Promise.all(running.map((slot) => slot.worker.terminate()));
    },
  };
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
