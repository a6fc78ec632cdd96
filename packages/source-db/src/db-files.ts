import { KitError, type SkillFile, type SourceFileContent } from '@kit/core';
import { isServableFileName } from '@kit/core/internal';
import { and, eq, like } from 'drizzle-orm';
import { safeAssetName } from './asset-writes.js';
import type { KitDatabase } from './database.js';
import type { AssetDisk } from './disk.js';

/** Where a database set keeps its skills: assets named `skills/<name>.md`. */
export const SKILL_PREFIX = 'skills/';

/** The skills and files of a database set; see the methods of the same names on `ContentSource`. */
export interface DbFiles {
  listSkills(): Promise<SkillFile[]>;
  readAsset(name: string): Promise<Uint8Array | null>;
  openFile(name: string): Promise<SourceFileContent | null>;
  listFiles(): Promise<string[]>;
}

/**
 * Reads a database set's files: from their row, or from the disk the row names (one of `disks`).
 *
 * @example
 * const files = createDbFiles(db, 'docs', { local: createLocalDisk('.kit/assets') });
 * const logo = await files.openFile('images/logo.png');
 */
export function createDbFiles(db: KitDatabase, setKey: string, disks: Record<string, AssetDisk> | undefined): DbFiles {
  const t = db.tables;
  const readAssetBytes = async (row: { bytes: Uint8Array | null; disk: string | null; diskPath: string | null }) => {
    if (row.bytes) return new Uint8Array(row.bytes);
    if (!row.disk || !row.diskPath) return null;
    const disk = disks?.[row.disk];
    return disk ? disk.read(row.diskPath) : null;
  };

  return {
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
      const disk = row.disk && row.diskPath ? disks?.[row.disk] : undefined;
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
  };
}
