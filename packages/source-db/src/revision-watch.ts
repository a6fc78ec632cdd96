import type { ContentChange } from '@kit/core';
import { and, asc, eq, gte, or, sql } from 'drizzle-orm';
import type { RevisionRecord } from './change-types.js';
import type { KitDatabase } from './database.js';
import { databaseAnswered, databaseFailure } from './database-errors.js';
import { SKILL_PREFIX } from './db-files.js';
import type { KitTables } from './schema/tables.js';

/** The change notices of a database set. */
export interface RevisionWatch {
  /** Tells every watcher of this process about revisions it committed, before its poll sees them. */
  announce(revisions: RevisionRecord[]): void;
  /** See `ContentSource.watch`. */
  watch(listener: (change: ContentChange) => void): () => void;
  /** Stops every watcher. */
  close(): void;
}

/**
 * Watches the revisions of one set: each watcher polls the revision table (so changes by other
 * processes are seen), and hears at once what this process committed, each change once.
 *
 * @example
 * const revisions = createRevisionWatch(db, 'docs', 1000, console.warn);
 * const stop = revisions.watch((change) => console.log(change.kind));
 */
export function createRevisionWatch(
  db: KitDatabase,
  setKey: string,
  pollInterval: number,
  warn: (message: string) => void,
): RevisionWatch {
  const t = db.tables;
  const stops = new Set<() => void>();
  // Watchers of this source, each with the revisions this process announced before its poll saw them.
  const watchers = new Set<{ listener: (change: ContentChange) => void; announced: Set<number> }>();
  const announce = (revisions: RevisionRecord[]) => {
    for (const watcher of [...watchers]) {
      for (const revision of revisions) {
        watcher.announced.add(Number(revision.id));
        try {
          watcher.listener(toChange(revision));
        } catch {
          // A listener's failure is its own; the change is committed.
        }
      }
    }
  };
  return {
    announce,
    watch(listener) {
      const watcher = { listener, announced: new Set<number>() };
      watchers.add(watcher);
      const stopPolling = pollRevisions(db, t, setKey, pollInterval, listener, watcher.announced, warn);
      const stop = () => {
        watchers.delete(watcher);
        stopPolling();
      };
      stops.add(stop);
      return () => {
        stops.delete(stop);
        stop();
      };
    },

    close() {
      for (const stop of stops) stop();
      stops.clear();
      watchers.clear();
    },
  };
}

/**
 * Polls the revision table: every change Kit writes records a revision in the same transaction,
 * so the revisions are a change log every process sees, on PostgreSQL and PGlite alike. Changes
 * committed after `watch` was called are reported, each once.
 *
 * Revision ids cannot say what is new: an id is taken at insert but the row appears at commit, so
 * a long transaction (a docs migration) shows up below ids seen long ago. Each revision records
 * its transaction id instead. A poll reads, in one snapshot, the oldest transaction still running
 * (`pg_snapshot_xmin`) and every revision of a transaction at or after the previous poll's: a
 * revision not visible then belongs to a transaction that was running or had not started, so it
 * is always in a later poll's window, however long its transaction ran.
 */
function pollRevisions(
  db: KitDatabase,
  t: KitTables,
  setKey: string,
  interval: number,
  listener: (change: ContentChange) => void,
  announced: Set<number>,
  warn: (message: string) => void,
): () => void {
  const r = t.revisions;
  const since = Date.now();
  // Revisions reported (or known from before the watch) whose transaction may still be in a window.
  const seen = new Map<number, number>();
  let horizon: number | null = null;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const tick = async () => {
    try {
      const first = horizon === null;
      const { next, rows } = await db.orm.transaction(
        async (tx) => {
          const [snapshot] = await tx
            .select({ xmin: sql<string>`pg_snapshot_xmin(pg_current_snapshot())::text` })
            .from(sql`(SELECT 1) AS one`);
          const next = Number(snapshot!.xmin);
          const rows = await tx
            .select({
              id: r.id,
              txid: r.txid,
              kind: r.kind,
              version: r.version,
              locale: r.locale,
              path: r.path,
              status: r.status,
              createdAt: r.createdAt,
            })
            .from(r)
            .where(
              and(
                eq(r.setKey, setKey),
                // The first poll also looks at changes begun since the watch, in case one
                // committed before this snapshot.
                horizon === null ? or(gte(r.txid, next), gte(r.createdAt, new Date(since))) : gte(r.txid, horizon),
              ),
            )
            .orderBy(asc(r.id));
          return { next, rows };
        },
        // One snapshot for both reads: the window and the rows must describe the same moment.
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      );
      for (const row of rows) {
        if (seen.has(row.id)) continue;
        seen.set(row.id, row.txid ?? 0);
        // This process's writer told the listener already, when it committed.
        if (announced.delete(row.id)) continue;
        if (row.status !== 'published') continue;
        // The first poll also finds changes committed before the watch began; only newer ones are news.
        if (first && new Date(row.createdAt).getTime() < since) continue;
        if (stopped) return;
        listener(toChange(row));
      }
      horizon = next;
      for (const [id, txid] of seen) if (txid < next) seen.delete(id);
      databaseAnswered(db, warn);
    } catch (error) {
      // A failed poll (database restarting, connection cut) is retried on the next tick from the
      // same window, so the changes committed meanwhile are reported when it answers again.
      databaseFailure(db, error, warn);
    }
    if (!stopped) {
      timer = setTimeout(tick, interval);
      timer.unref?.();
    }
  };
  void tick();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}

function toChange(row: {
  kind: string;
  version: string | null;
  locale: string | null;
  path: string | null;
}): ContentChange {
  const kind =
    row.kind === 'asset' && row.path?.startsWith(SKILL_PREFIX) ? 'skill' : (row.kind as ContentChange['kind']);
  return {
    kind,
    ...(row.version === null ? {} : { version: row.version }),
    ...(row.locale === null ? {} : { locale: row.locale }),
    ...(row.path === null || kind === 'manifest' ? {} : { path: row.path }),
  };
}
