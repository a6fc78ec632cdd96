import type { Item, Pending } from './work.js';

/** The pages waiting for a worker, in the order they were asked for. */
export interface RenderQueue {
  readonly length: number;
  /** Queues a page, joining queued work with the same Markdown or the same path. */
  add(item: Item): void;
  /** The oldest queued work, no longer open to joining; undefined when nothing waits. */
  take(): Pending | undefined;
  /** Puts work workers held back at the front, oldest first. */
  putBack(held: Pending[]): void;
  /** Empties the queue and gives what it held. */
  drain(): Pending[];
}

/**
 * The queue of a render pool. A page with the same Markdown as queued work joins it, so one worker
 * parses that Markdown once; so does the same page in another version, so one worker parses them
 * one after the other and reparses only the parts that differ (the renderer keeps parsed chunks).
 */
export function createRenderQueue(): RenderQueue {
  const queue: Pending[] = [];
  const queuedByBody = new Map<string, Pending>();
  const queuedByPath = new Map<string, Pending>();
  let nextId = 0;

  const forget = (pending: Pending) => {
    for (const item of pending.items) {
      if (queuedByBody.get(item.page.body) === pending) queuedByBody.delete(item.page.body);
      if (queuedByPath.get(item.page.path) === pending) queuedByPath.delete(item.page.path);
    }
  };

  return {
    get length() {
      return queue.length;
    },
    add(item) {
      const { body, path } = item.page;
      const joined = queuedByBody.get(body) ?? queuedByPath.get(path);
      if (joined) {
        joined.items.push(item);
        queuedByBody.set(body, joined);
        return;
      }
      const pending: Pending = { id: nextId++, items: [item] };
      queue.push(pending);
      queuedByBody.set(body, pending);
      queuedByPath.set(path, pending);
    },
    take() {
      const next = queue.shift();
      if (next) forget(next);
      return next;
    },
    putBack(held) {
      queue.unshift(...held.sort((a, b) => a.id - b.id));
    },
    drain() {
      queuedByBody.clear();
      queuedByPath.clear();
      return queue.splice(0);
    },
  };
}
