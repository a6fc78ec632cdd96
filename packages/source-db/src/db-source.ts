import {
  type CacheStore,
  type ContentChange,
  type ContentSource,
  type ContentWriter,
  contentHash,
  isServableFileName,
  KitError,
  pagePathProblem,
  type ReviewStore,
  type SkillFile,
  type SourceFile,
  type SourceFileContent,
  type SourcePage,
  type SourceProblem,
  showPagePath,
} from '@kit/core';
import { and, asc, eq, gte, isNull, like, or, sql } from 'drizzle-orm';
import { safeAssetName } from './asset-writes.js';
import type { RevisionRecord } from './change-types.js';
import type { KitDatabase } from './database.js';
import { databaseAnswered, databaseFailure, guardDatabaseCalls } from './database-errors.js';
import { createDbReview } from './db-review.js';
import { createDbWriter, type DocsMigrationOptions } from './db-writer.js';
import type { AssetDisk } from './disk.js';
import { navigationText } from './documents.js';
import type { KitTables } from './schema/tables.js';

/** Options of {@link createDbSource}. */
export interface DbSourceOptions {
  db: KitDatabase;
  /** The set whose rows this source reads; one database holds many sets. */
  setKey: string;
  /** Disks by name, for assets stored on a disk rather than in their row. */
  disks?: Record<string, AssetDisk>;
  /**
   * The disk the writer and the review store put new files on (the set's `source.disk`, else the
   * `local` disk): content-addressed under `<set>/<hash>`. Without one they are kept in their rows.
   * Several servers sharing the database must share this disk's folder too.
   */
  assetDisk?: AssetDisk;
  /** How often `watch` looks for new revisions, in milliseconds. @default 1000 */
  pollInterval?: number;
  /**
   * The set's cache store (`createCacheStore(cacheStoreFor(config, setKey).store)`): page lists
   * are kept there under the digest the database gives of what they hold, so every process
   * sharing the store (Redis) reuses a list another one read. Default: none.
   */
  cache?: CacheStore;
  /**
   * Also write every published change the {@link DbContentSource.writer} makes into the branch's
   * docs migration: one JSON file per set and branch in `folder`, named
   * `<YYYY_MM_DD_HHMMSS>_<set>_<branch>.json`, created at the branch's first change and appended
   * to afterwards, committed with the code and applied elsewhere by `kit migrate`
   * ({@link runDocsMigrations}). The file is written inside the change's transaction (a file that
   * cannot be written rolls the change back) and the migration is recorded as applied in this
   * database. Pass it for the local server only; a web server's changes are production's own.
   * Default: none (no docs migration; `docs_migration` is null in receipts).
   */
  migrations?: DocsMigrationOptions;
  /**
   * Where the one warning of each database outage goes (and the line saying it is back).
   * @default console.warn
   */
  warn?: (message: string) => void;
}

/** A database set's content source. */
export interface DbContentSource extends ContentSource {
  readonly kind: 'database';
  readonly shared: true;
  readonly setKey: string;
  readonly db: KitDatabase;
  /**
   * The write side the author tools use: one transaction per call, `expected` checked as compare
   * and swap, drafts kept as draft revisions, the branch's docs migration appended when the source
   * has `migrations`. Watch listeners of this source hear a committed change before the call returns.
   */
  readonly writer: ContentWriter;
  /** Drafts, revision history and restores (see `createDbReview`); changes that go live reach watch listeners like the writer's. */
  readonly review: ReviewStore;
  /** The names of the set's servable assets, sorted (see `ContentSource.listFiles`). */
  listFiles(): Promise<string[]>;
  /** The disk new files go on (`DbSourceOptions.assetDisk`); null keeps them in their rows. */
  readonly assetDisk: AssetDisk | null;
}

const SKILL_PREFIX = 'skills/';

/**
 * The content source of a database set: pages, navigation, manifest, skills and assets read from
 * Kit's tables for one set key. Deleted pages are not served (they stay in the revision history);
 * `watch` reports each published revision, also those written by other processes.
 * `writer` is the write side the author tools use (see {@link DbContentSource.writer}; with
 * `migrations`, published changes also go into the branch's docs migration).
 * `close` stops watching; the database stays open for its owner to close.
 *
 * Other processes may write the same rows at any moment, so the source is `shared` and never
 * answers from what it read before without asking the database: a page list is served from memory
 * or the cache store only under the digest the database gives, in the same call, of the scope's
 * pages (path, content hash, visibility, last change), so a write by any process is seen at once.
 *
 * @example
 * const db = await openDatabase({ dataDir: '.kit/db' });
 * const source = createDbSource({ db, setKey: 'docs' });
 * const pages = await source.listPages('current', 'en');
 */
export function createDbSource(options: DbSourceOptions): DbContentSource {
  const { db, setKey } = options;
  const warn = options.warn ?? ((message: string) => console.warn(message));
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
  const unguardedWriter = createDbWriter({
    db,
    setKey,
    ...(options.migrations ? { migrations: options.migrations } : {}),
    ...(options.assetDisk ? { disk: options.assetDisk } : {}),
    announce,
  });
  const review = guardDatabaseCalls(
    db,
    createDbReview({ db, setKey, announce, ...(options.assetDisk ? { disk: options.assetDisk } : {}) }),
    warn,
  );
  const writer = guardDatabaseCalls(db, unguardedWriter, warn);
  // The last list read of each version and locale, with the digest it was read under.
  const lists = new Map<string, { digest: string; pages: SourcePage[] }>();
  const cache = options.cache;

  const scopeOf = (version: string, locale: string) =>
    and(
      eq(t.pages.setKey, setKey),
      eq(t.pages.version, version),
      eq(t.pages.locale, locale),
      isNull(t.pages.deletedAt),
    );

  /** The digest of a scope's live pages: it changes with any page written, deleted or restored there. */
  const pagesDigest = async (executor: KitDatabase['orm'], version: string, locale: string) => {
    const p = t.pages;
    const [row] = await executor
      .select({
        count: sql<number>`count(*)::int`,
        digest: sql<string>`encode(sha256(convert_to(coalesce(string_agg(${p.path} || chr(9) || ${p.contentHash} || chr(9) || ${p.visibility} || chr(9) || (extract(epoch from ${p.updatedAt}) * 1000000)::bigint::text || chr(9) || coalesce(${p.updatedBy}, ''), chr(10) ORDER BY ${p.path} COLLATE "C"), ''), 'UTF8')), 'hex')`,
      })
      .from(p)
      .where(scopeOf(version, locale));
    return `${row!.count}-${row!.digest}`;
  };

  const readPages = async (executor: KitDatabase['orm'], version: string, locale: string) => {
    const rows = await executor.select().from(t.pages).where(scopeOf(version, locale));
    // Sorted here rather than by the database collation, so the order is the same on every server.
    return rows.map(toSourcePage).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  };

  const readAssetBytes = async (row: { bytes: Uint8Array | null; disk: string | null; diskPath: string | null }) => {
    if (row.bytes) return new Uint8Array(row.bytes);
    if (!row.disk || !row.diskPath) return null;
    const disk = options.disks?.[row.disk];
    return disk ? disk.read(row.diskPath) : null;
  };

  const source: DbContentSource = {
    kind: 'database',
    shared: true,
    setKey,
    db,
    writer,
    review,
    assetDisk: options.assetDisk ?? null,

    async readManifest(): Promise<SourceFile | null> {
      const [row] = await db.orm
        .select({ document: t.manifests.document })
        .from(t.manifests)
        .where(eq(t.manifests.setKey, setKey));
      return row ? { text: row.document } : null;
    },

    async listPages(version, locale) {
      const scope = `${version}\u0000${locale}`;
      const digest = await pagesDigest(db.orm, version, locale);
      const known = lists.get(scope);
      if (known?.digest === digest) return known.pages;
      // The list's shape is this code's: a list another release kept is not read as this one's.
      const storeKey = (of: string) => `v1:pages:${setKey}:${version}:${locale}:${PAGE_LIST_FORMAT}:${of}`;
      // The list a write replaced is never asked for again; removing it keeps a shared store from
      // holding a copy of every page per write for a day.
      const forget = (next: string) => {
        if (cache && known && known.digest !== next) return cache.delete(storeKey(known.digest)).catch(() => {});
      };
      if (cache) {
        const hit = await cache.get<SourcePage[]>(storeKey(digest)).catch(() => undefined);
        if (isPageList(hit)) {
          lists.set(scope, { digest, pages: hit });
          await forget(digest);
          return hit;
        }
      }
      // Digest and rows from one snapshot: a write landing between two reads must not file the
      // new rows under the old digest.
      const read = await db.orm.transaction(
        async (tx) => ({ digest: await pagesDigest(tx, version, locale), pages: await readPages(tx, version, locale) }),
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      );
      lists.set(scope, read);
      if (cache) await cache.set(storeKey(read.digest), read.pages).catch(() => {});
      await forget(read.digest);
      return read.pages;
    },

    async getPage(version, locale, path) {
      const [row] = await db.orm
        .select()
        .from(t.pages)
        .where(
          and(
            eq(t.pages.setKey, setKey),
            eq(t.pages.version, version),
            eq(t.pages.locale, locale),
            eq(t.pages.path, path),
            isNull(t.pages.deletedAt),
          ),
        );
      return row ? toSourcePage(row) : null;
    },

    async readNavigation(version, locale) {
      const n = t.navigations;
      const [row] = await db.orm
        .select({ text: sql<string>`${n.tree}::text`, contentHash: n.contentHash })
        .from(n)
        .where(and(eq(n.setKey, setKey), eq(n.version, version), eq(n.locale, locale)));
      if (!row) return null;
      // Served as written; a row stored before Kit kept the text (its hash is of the indented tree) as that.
      return { text: contentHash(row.text) === row.contentHash ? row.text : navigationText(JSON.parse(row.text)) };
    },

    async listSkills() {
      const a = t.assets;
      const rows = await db.orm
        .select({ name: a.name, bytes: a.bytes, disk: a.disk, diskPath: a.diskPath })
        .from(a)
        .where(and(eq(a.setKey, setKey), like(a.name, `${SKILL_PREFIX}%.md`)));
      const skills: SkillFile[] = [];
      for (const row of rows) {
        const name = row.name.slice(SKILL_PREFIX.length, -'.md'.length);
        if (name === '' || name.includes('/')) continue;
        const bytes = await readAssetBytes(row);
        if (bytes) skills.push({ name, content: new TextDecoder().decode(bytes) });
      }
      return skills.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
    },

    async readAsset(name) {
      if (safeAssetName(name) === null) return null;
      const a = t.assets;
      const [row] = await db.orm
        .select({ bytes: a.bytes, disk: a.disk, diskPath: a.diskPath })
        .from(a)
        .where(and(eq(a.setKey, setKey), eq(a.name, name)));
      return row ? readAssetBytes(row) : null;
    },

    async openFile(name): Promise<SourceFileContent | null> {
      if (!isServableFileName(name)) return null;
      const a = t.assets;
      const [row] = await db.orm
        .select({ contentHash: a.contentHash, size: a.size, disk: a.disk, diskPath: a.diskPath })
        .from(a)
        .where(and(eq(a.setKey, setKey), eq(a.name, name)));
      if (!row) return null;
      const disk = row.disk && row.diskPath ? options.disks?.[row.disk] : undefined;
      if (row.disk && !disk) return null; // reported by problems() as assets.missing
      return {
        size: row.size,
        contentHash: row.contentHash,
        open: async () => {
          if (disk && row.diskPath) {
            const bytes = disk.stream ? await disk.stream(row.diskPath) : await disk.read(row.diskPath);
            if (bytes) return bytes;
            throw new KitError('source.error', `Asset "${name}" is listed but its file on disk "${row.disk}" is gone.`);
          }
          // Read only when sent: a request answered 304 from the hash never loads the bytes.
          const [stored] = await db.orm
            .select({ bytes: a.bytes })
            .from(a)
            .where(and(eq(a.setKey, setKey), eq(a.name, name)));
          if (!stored?.bytes)
            throw new KitError('source.error', `Asset "${name}" was removed while it was being sent.`);
          return new Uint8Array(stored.bytes);
        },
      };
    },

    async listFiles() {
      const a = t.assets;
      const rows = await db.orm.select({ name: a.name }).from(a).where(eq(a.setKey, setKey));
      return rows
        .map((row) => row.name)
        .filter(isServableFileName)
        .sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    },

    async problems() {
      const a = t.assets;
      const rows = await db.orm
        .select({ name: a.name, disk: a.disk })
        .from(a)
        .where(and(eq(a.setKey, setKey), isNull(a.bytes)));
      const problems: SourceProblem[] = [];
      for (const row of rows) {
        if (row.disk && options.disks?.[row.disk]) continue;
        problems.push({
          rule: 'assets.missing',
          severity: 'error',
          message: `Asset "${row.name}" is stored on disk "${row.disk ?? '(none)'}", which this set is not configured with.`,
          fix: `Add the disk "${row.disk}" under \`disks\` and name it in \`source.disk\`, or write the asset again.`,
        });
      }
      // Pages stored before the page-path rule (every write refuses such paths now): reported so
      // they can be moved to a good path or deleted, which the author tools still allow.
      const pages = await db.orm
        .select({ version: t.pages.version, locale: t.pages.locale, path: t.pages.path })
        .from(t.pages)
        .where(and(eq(t.pages.setKey, setKey), isNull(t.pages.deletedAt)));
      for (const page of pages) {
        const refused = pagePathProblem(page.path);
        if (!refused) continue;
        problems.push({
          rule: 'source.page_path',
          severity: 'warning',
          message: `The page ${showPagePath(page.path)} (${page.version}/${page.locale}) breaks the page-path rule: ${refused}.`,
          fix: 'Move it to a path of letters, digits, "-" and "_" joined by "/" (move_page), or delete it.',
        });
      }
      return problems;
    },

    watch(listener) {
      const watcher = { listener, announced: new Set<number>() };
      watchers.add(watcher);
      const stopPolling = pollRevisions(db, t, setKey, options.pollInterval ?? 1000, listener, watcher.announced, warn);
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

    async close() {
      for (const stop of stops) stop();
      stops.clear();
      watchers.clear();
    },
  };
  // A lost connection reaches callers as `database.unavailable` (HTTP 503, an MCP tool error).
  return guardDatabaseCalls(db, source, warn);
}

type PageRow = KitTables['pages']['$inferSelect'];

/**
 * Part of every page-list key: a hash of the code that turns rows into pages, so a release that
 * reads other columns or fills other fields never takes a list an older one kept in a shared store.
 */
const PAGE_LIST_FORMAT = contentHash(`${toSourcePage}\n${isPageList}`).slice('sha256:'.length, 'sha256:'.length + 12);

/** Whether a value read from a cache store has the shape of a page list (a shared store may hold anything). */
function isPageList(value: unknown): value is SourcePage[] {
  return (
    Array.isArray(value) &&
    value.every(
      (page: Partial<SourcePage> | null) =>
        typeof page?.path === 'string' && typeof page.body === 'string' && typeof page.contentHash === 'string',
    )
  );
}

function toSourcePage(row: PageRow): SourcePage {
  const updatedAt = new Date(row.updatedAt).toISOString();
  return {
    path: row.path,
    version: row.version,
    locale: row.locale,
    frontmatter: row.frontmatter ?? {},
    body: row.body,
    title: row.title,
    ...(row.description === null ? {} : { description: row.description }),
    contentHash: row.contentHash,
    bodyLine: row.bodyLine,
    updatedAt,
    provenance: row.updatedBy ? { author: row.updatedBy, date: updatedAt } : { date: updatedAt },
    visibility: row.visibility === 'public' ? 'public' : 'private',
    problems: row.problems ?? [],
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
