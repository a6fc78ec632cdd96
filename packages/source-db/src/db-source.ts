import {
  type CacheStore,
  type ContentSource,
  type ContentWriter,
  contentHash,
  type ReviewStore,
  type SourceFile,
} from '@kit/core';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { KitDatabase } from './database.js';
import { guardDatabaseCalls } from './database-errors.js';
import { createDbFiles } from './db-files.js';
import { dbSourceProblems } from './db-problems.js';
import { createDbReview } from './db-review.js';
import { createDbWriter, type DocsMigrationOptions } from './db-writer.js';
import type { AssetDisk } from './disk.js';
import { navigationText } from './documents.js';
import { createPageLists, toSourcePage } from './page-lists.js';
import { createRevisionWatch } from './revision-watch.js';

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
   * The set's cache store (`createCacheStore(cacheStoreFor(config, setKey).store)` of `@kit/node`): page lists
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
  const revisions = createRevisionWatch(db, setKey, options.pollInterval ?? 1000, warn);
  const announce = revisions.announce;
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
  const listPages = createPageLists(db, setKey, options.cache);
  const files = createDbFiles(db, setKey, options.disks);

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

    listPages,

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

    listSkills: files.listSkills,
    readAsset: files.readAsset,
    openFile: files.openFile,
    listFiles: files.listFiles,
    problems: () => dbSourceProblems(db, setKey, options.disks),
    watch: revisions.watch,

    async close() {
      revisions.close();
    },
  };
  // A lost connection reaches callers as `database.unavailable` (HTTP 503, an MCP tool error).
  return guardDatabaseCalls(db, source, warn);
}
