import type { ContentChange } from '@kit/core';

/** The `watch()` listeners of a source. */
export interface ChangeListeners {
  /** Tells every listener; one that throws does not keep the others from hearing. */
  emit(change: ContentChange): void;
  /** Adds a listener; the result removes it. */
  add(listener: (change: ContentChange) => void): () => void;
  clear(): void;
}

/**
 * The listeners of a source's `watch()`.
 *
 * @example
 * const listeners = createChangeListeners();
 * const stop = listeners.add((change) => console.log(change.kind));
 * listeners.emit({ kind: 'manifest' });
 */
export function createChangeListeners(): ChangeListeners {
  const listeners = new Set<(change: ContentChange) => void>();
  return {
    emit(change) {
      for (const listener of listeners) {
        try {
          listener(change);
        } catch {
          // One failing listener must not keep the others from hearing about the change.
        }
      }
    },
    add(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    clear() {
      listeners.clear();
    },
  };
}
