import { type CacheStore, contentHash, type SourcePage } from '@kit/core';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { KitDatabase } from './database.js';
import type { KitTables } from './schema/tables.js';

/**
 * The page lists of a database set: the last list read of each version and locale is kept in
 * memory, and in the cache store when there is one, under the digest the database gives of the
 * scope's pages (path, content hash, visibility, last change), asked for on every call, so a write
 * by any process is seen at once.
 *
 * @example
 * const listPages = createPageLists(db, 'docs', cache);
 * const pages = await listPages('current', 'en');
 */
export function createPageLists(
  db: KitDatabase,
  setKey: string,
  cache: CacheStore | undefined,
): (version: string, locale: string) => Promise<SourcePage[]> {
  const t = db.tables;
  // The last list read of each version and locale, with the digest it was read under.
  const lists = new Map<string, { digest: string; pages: SourcePage[] }>();

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

  return async (version, locale) => {
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
  };
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

/** The `SourcePage` of a live page row; its code is part of {@link PAGE_LIST_FORMAT}. */
export function toSourcePage(row: PageRow): SourcePage {
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
