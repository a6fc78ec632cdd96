import type { ContentChange, ContentSource, SkillFile, SourceFile, SourcePage, SourceProblem } from '@kit/core';
import { and, asc, desc, eq, gt, isNull, like } from 'drizzle-orm';
import type { KitDatabase } from './database.js';
import type { AssetDisk } from './disk.js';
import type { KitTables } from './schema/tables.js';
import { navigationText, safeAssetName } from './writes.js';

/** Options of {@link createDbSource}. */
export interface DbSourceOptions {
  db: KitDatabase;
  /** The set whose rows this source reads; one database holds many sets. */
  setKey: string;
  /** Disks by name, for assets stored on a disk rather than in their row. */
  disks?: Record<string, AssetDisk>;
  /** How often `watch` looks for new revisions, in milliseconds. @default 1000 */
  pollInterval?: number;
}

/** A database set's content source. */
export interface DbContentSource extends ContentSource {
  readonly kind: 'database';
  readonly setKey: string;
  readonly db: KitDatabase;
}

const SKILL_PREFIX = 'skills/';

/**
 * The content source of a database set: pages, navigation, manifest, skills and assets read from
 * Kit's tables for one set key. Deleted pages are not served (they stay in the revision history);
 * `watch` reports each published revision, also those written by other processes.
 * `close` stops watching; the database stays open for its owner to close.
 *
 * @example
 * const db = await openDatabase({ dataDir: '.kit/db' });
 * const source = createDbSource({ db, setKey: 'docs' });
 * const pages = await source.listPages('current', 'en');
 */
export function createDbSource(options: DbSourceOptions): DbContentSource {
  const { db, setKey } = options;
  const t = db.tables;
  const stops = new Set<() => void>();

  const readAssetBytes = async (row: { bytes: Uint8Array | null; disk: string | null; diskPath: string | null }) => {
    if (row.bytes) return new Uint8Array(row.bytes);
    if (!row.disk || !row.diskPath) return null;
    const disk = options.disks?.[row.disk];
    return disk ? disk.read(row.diskPath) : null;
  };

  return {
    kind: 'database',
    setKey,
    db,

    async readManifest(): Promise<SourceFile | null> {
      const [row] = await db.orm
        .select({ document: t.manifests.document })
        .from(t.manifests)
        .where(eq(t.manifests.setKey, setKey));
      return row ? { text: row.document } : null;
    },

    async listPages(version, locale) {
      const rows = await db.orm
        .select()
        .from(t.pages)
        .where(
          and(
            eq(t.pages.setKey, setKey),
            eq(t.pages.version, version),
            eq(t.pages.locale, locale),
            isNull(t.pages.deletedAt),
          ),
        );
      // Sorted here rather than by the database collation, so the order is the same on every server.
      return rows.map(toSourcePage).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
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
        .select({ tree: n.tree })
        .from(n)
        .where(and(eq(n.setKey, setKey), eq(n.version, version), eq(n.locale, locale)));
      return row ? { text: navigationText(row.tree) } : null;
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
      return problems;
    },

    watch(listener) {
      const stop = pollRevisions(db, t, setKey, options.pollInterval ?? 1000, listener);
      stops.add(stop);
      return () => {
        stops.delete(stop);
        stop();
      };
    },

    async close() {
      for (const stop of stops) stop();
      stops.clear();
    },
  };
}

type PageRow = KitTables['pages']['$inferSelect'];

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

// Ids are taken when a row is inserted but become visible at commit, so a slower transaction can
// show up below the highest id already seen; polls look back this many ids to catch it.
const LOOKBACK = 50;

/**
 * Polls the revision table: every change Kit writes records a revision in the same transaction,
 * so new revision ids are a change counter every process sees, on PostgreSQL and PGlite alike.
 * Changes committed after `watch` was called are reported, each once.
 */
function pollRevisions(
  db: KitDatabase,
  t: KitTables,
  setKey: string,
  interval: number,
  listener: (change: ContentChange) => void,
): () => void {
  const r = t.revisions;
  const since = Date.now();
  const seen = new Set<number>();
  let floor: number | null = null;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const tick = async () => {
    try {
      const first = floor === null;
      if (floor === null) {
        const [latest] = await db.orm
          .select({ id: r.id })
          .from(r)
          .where(eq(r.setKey, setKey))
          .orderBy(desc(r.id))
          .limit(1);
        floor = (latest?.id ?? 0) - LOOKBACK;
      }
      const rows = await db.orm
        .select({
          id: r.id,
          kind: r.kind,
          version: r.version,
          locale: r.locale,
          path: r.path,
          status: r.status,
          createdAt: r.createdAt,
        })
        .from(r)
        .where(and(eq(r.setKey, setKey), gt(r.id, floor)))
        .orderBy(asc(r.id));
      for (const row of rows) {
        if (seen.has(row.id)) continue;
        seen.add(row.id);
        if (row.status !== 'published') continue;
        // On the first poll the look-back window also holds older changes; only newer ones are news.
        if (first && new Date(row.createdAt).getTime() < since) continue;
        if (stopped) return;
        listener(toChange(row));
      }
      const highest = Math.max(floor + LOOKBACK, ...seen);
      floor = highest - LOOKBACK;
      for (const id of seen) if (id <= floor) seen.delete(id);
    } catch {
      // A failed poll (database restarting) is retried on the next tick.
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
