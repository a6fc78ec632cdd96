import type { Kit } from '@kit/core';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';

/** Path of the server-sent events stream pages listen on while `kit serve` runs. */
export const LIVE_RELOAD_PATH = '/_kit/live-reload';

/** The script `kit serve` injects before `</body>`: reloads the page when the docs change. */
export const LIVE_RELOAD_SCRIPT = `<script>(()=>{const s=new EventSource(${JSON.stringify(LIVE_RELOAD_PATH)});s.addEventListener('reload',()=>location.reload());})();</script>`;

export interface LiveReload {
  /** A Hono app serving {@link LIVE_RELOAD_PATH}; mount it before the kit's routes. */
  app: Hono;
  /** Readers connected right now. */
  clients(): number;
  close(): void;
}

/**
 * Live reload for `kit serve`: every set's source watch feeds one server-sent events stream, and
 * each open page reloads on a change (after the set has dropped its cached copy, since the set
 * subscribed to its source first). Changes within 100 ms are sent as one reload.
 */
export function createLiveReload(kit: Kit): LiveReload {
  const listeners = new Set<() => void>();
  let timer: NodeJS.Timeout | null = null;
  const notify = () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      for (const listener of listeners) listener();
    }, 100);
  };
  const stops = [...kit.sets.values()].flatMap((set) => {
    const stop = set.source.watch?.(notify);
    return stop ? [stop] : [];
  });

  const app = new Hono();
  app.get(LIVE_RELOAD_PATH, (c) =>
    streamSSE(c, async (stream) => {
      let wake: () => void = () => {};
      let pending = false;
      const listener = () => {
        pending = true;
        wake();
      };
      listeners.add(listener);
      stream.onAbort(() => {
        listeners.delete(listener);
        wake();
      });
      await stream.writeSSE({ event: 'ready', data: 'ok' });
      while (!stream.aborted && !stream.closed) {
        // Wait for a change or 15 s, whichever comes first; the comment line keeps proxies from timing out.
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 15_000).unref();
        });
        if (stream.aborted || stream.closed) break;
        if (pending) {
          pending = false;
          await stream.writeSSE({ event: 'reload', data: String(Date.now()) });
        } else await stream.write(': ping\n\n');
      }
      listeners.delete(listener);
    }),
  );

  return {
    app,
    clients: () => listeners.size,
    close() {
      if (timer) clearTimeout(timer);
      for (const stop of stops) stop();
      for (const listener of [...listeners]) listener();
      listeners.clear();
    },
  };
}
