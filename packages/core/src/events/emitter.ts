import type { KitEvents } from '../ports/docset.js';
import type { KitEventMap, KitEventName } from './types.js';

/** A handler failure, reported instead of thrown so an event never breaks the code that fired it. */
export interface KitEventError {
  event: KitEventName;
  error: unknown;
}

/** The emitter `createEvents` returns: the `KitEvents` port plus a way to wait for async handlers. */
export interface KitEventEmitter extends KitEvents {
  /** Resolves once every async handler started so far has finished (for shutdown and tests). */
  settled(): Promise<void>;
}

export interface CreateEventsOptions {
  /** Where handler errors go. Default: `console.error`. */
  onError?: (failure: KitEventError) => void;
}

/**
 * The typed event bus of a kit: `kit.events.on('FeedbackSubmitted', handler)`.
 *
 * Delivery is fire and forget: `emit` calls every handler in registration order and returns at
 * once; it never waits for async handlers, and neither a throwing handler nor a rejected promise
 * reaches the caller (a reader's search must not fail because an analytics hook did). Failures go
 * to `onError`. `settled()` waits for the async handlers still running.
 *
 * @example
 * const events = createEvents({ onError: ({ event, error }) => log.warn({ event, error }) });
 * const stop = events.on('SearchPerformed', ({ query }) => metrics.count(query));
 * stop();
 */
export function createEvents(options: CreateEventsOptions = {}): KitEventEmitter {
  const report =
    options.onError ??
    (({ event, error }: KitEventError) => {
      console.error(`[kit] A ${event} event handler failed:`, error);
    });
  const handlers = new Map<KitEventName, Array<(payload: never) => void | Promise<void>>>();
  const pending = new Set<Promise<void>>();

  const safeReport = (failure: KitEventError) => {
    try {
      report(failure);
    } catch {
      // The error reporter itself failed; nothing is left to tell, and emit must not throw.
    }
  };

  return {
    on(event, handler) {
      const list = handlers.get(event) ?? [];
      const entry = handler as (payload: never) => void | Promise<void>;
      list.push(entry);
      handlers.set(event, list);
      return () => {
        const current = handlers.get(event);
        const at = current?.indexOf(entry) ?? -1;
        if (current && at !== -1) current.splice(at, 1);
      };
    },
    emit<E extends KitEventName>(event: E, payload: KitEventMap[E]) {
      for (const handler of [...(handlers.get(event) ?? [])]) {
        try {
          const result = (handler as (payload: KitEventMap[E]) => unknown)(payload);
          if (result && typeof (result as Promise<void>).then === 'function') {
            const running = Promise.resolve(result as Promise<void>).then(
              () => undefined,
              (error: unknown) => safeReport({ event, error }),
            );
            pending.add(running);
            void running.finally(() => pending.delete(running));
          }
        } catch (error) {
          safeReport({ event, error });
        }
      }
    },
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
