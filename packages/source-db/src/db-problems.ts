import type { SourceProblem } from '@kit/core';
import { pagePathProblem, showPagePath } from '@kit/core/internal';
import { and, eq, isNull } from 'drizzle-orm';
import type { KitDatabase } from './database.js';
import type { AssetDisk } from './disk.js';

/**
 * The problems of a database set, for `kit validate`: files stored on a disk the set is not
 * configured with, and pages stored under a path the page-path rule now refuses.
 */
export async function dbSourceProblems(
  db: KitDatabase,
  setKey: string,
  disks: Record<string, AssetDisk> | undefined,
): Promise<SourceProblem[]> {
  const t = db.tables;
  const a = t.assets;
  const rows = await db.orm
    .select({ name: a.name, disk: a.disk })
    .from(a)
    .where(and(eq(a.setKey, setKey), isNull(a.bytes)));
  const problems: SourceProblem[] = [];
  for (const row of rows) {
    if (row.disk && disks?.[row.disk]) continue;
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
}
