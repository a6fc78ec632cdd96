import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { KitError } from '@kit/core';

/** The `$schema` of a docs migration file (`schemas/docs-migration.json`). */
export const DOCS_MIGRATION_SCHEMA_URL = 'https://kit.dev/schemas/3.x/docs-migration.json';

/** Where a page lives, as a docs migration names it. */
export interface DocsMigrationPage {
  version: string;
  locale: string;
  path: string;
}

/** What every change of a docs migration carries besides its addresses. */
interface ChangeCommon {
  /** Hash of the content the change was written against; null when it created the record. */
  based_on: string | null;
  /** Hash of what the change wrote (for `delete_page`: of the page it removed). */
  content_hash: string;
  summary?: string;
  author?: string;
  /** When the change was made (ISO 8601). */
  at: string;
}

/** One change of a docs migration, in the order it was made. */
export type DocsMigrationChange =
  | (ChangeCommon & DocsMigrationPage & { op: 'write_page'; text: string })
  | (ChangeCommon & { op: 'move_page'; from: DocsMigrationPage; to: DocsMigrationPage })
  | (ChangeCommon & DocsMigrationPage & { op: 'delete_page' })
  | (ChangeCommon & { op: 'write_navigation'; version: string; locale: string; text: string })
  | (ChangeCommon & { op: 'write_manifest'; text: string })
  /** A file of the set (`name` relative to the set folder), its bytes as standard base64. */
  | (ChangeCommon & { op: 'write_asset'; name: string; content: string })
  | (ChangeCommon & { op: 'delete_asset'; name: string });

/**
 * A docs migration file: the published changes one branch made to one database set, committed
 * with the code and applied by `kit migrate` (see {@link runDocsMigrations}).
 */
export interface DocsMigrationDocument {
  $schema?: string;
  kit: 'docs-migration';
  set: string;
  branch: string;
  changes: DocsMigrationChange[];
}

/** A docs migration file read from the migrations folder. */
export interface DocsMigrationFile {
  /** The migration's name: the file name without `.json` (`2025_01_10_120000_docs_main`). */
  name: string;
  /** Absolute path of the file. */
  file: string;
  document: DocsMigrationDocument;
}

const OPS = [
  'write_page',
  'move_page',
  'delete_page',
  'write_navigation',
  'write_manifest',
  'write_asset',
  'delete_asset',
] as const;

/**
 * A name part made of lower-case letters, digits and dashes (`feature/New Nav` → `feature-new-nav`);
 * a set key also keeps its underscores. A branch part never holds one, so the last underscore of a
 * file name always separates the set from the branch.
 */
export function migrationSlug(value: string, kind: 'set' | 'branch'): string {
  const slug = value
    .toLowerCase()
    .replace(kind === 'set' ? /[^a-z0-9_]+/g : /[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug === '' ? 'x' : slug;
}

/** `2025_01_10_120000`: the UTC time a migration file is created, so names sort by age. */
export function migrationTimestamp(date: Date): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(date.getUTCFullYear(), 4)}_${pad(date.getUTCMonth() + 1)}_${pad(date.getUTCDate())}_${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}`;
}

/** The file name a set and branch's docs migration gets when created at `date`. */
export function migrationFileName(setKey: string, branch: string, date: Date): string {
  return `${migrationTimestamp(date)}_${migrationSlug(setKey, 'set')}_${migrationSlug(branch, 'branch')}.json`;
}

/** Whether `fileName` is the migration file of this set and branch (`<timestamp>_<set>_<branch>.json`). */
export function isBranchMigrationFile(fileName: string, setKey: string, branch: string): boolean {
  const tail = `_${migrationSlug(setKey, 'set')}_${migrationSlug(branch, 'branch')}.json`;
  return /^\d{4}_\d{2}_\d{2}_\d{6}_/.test(fileName) && fileName.length === 17 + tail.length && fileName.endsWith(tail);
}

/** The `.json` file names of a migrations folder, sorted; none when the folder does not exist. */
export async function migrationFileNames(folder: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new KitError(
      'source.error',
      `Cannot read the docs migrations folder ${folder} (${(error as Error).message}). Check migrations.path in kit.config.ts.`,
      { cause: error },
    );
  }
  return names.filter((name) => name.endsWith('.json')).sort();
}

/** Reads and checks one docs migration file; a file Kit cannot use is refused naming what is wrong. */
export async function readMigrationFile(file: string): Promise<DocsMigrationDocument> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new KitError('source.error', `Cannot read the docs migration ${file} (${(error as Error).message}).`, {
      cause: error,
    });
  }
  return parseMigrationText(text, file);
}

/** Checks the text of a docs migration file against its format (`schemas/docs-migration.json`). */
export function parseMigrationText(text: string, file: string): DocsMigrationDocument {
  const invalid = (problem: string) =>
    new KitError(
      'argument.invalid',
      `The docs migration ${file} is not valid: ${problem}. Kit's author tools write these files; restore the file from version control, or fix it by hand so it matches schemas/docs-migration.json.`,
    );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalid(`it is not JSON (${(error as Error).message})`);
  }
  if (!isObject(value)) throw invalid('it must be a JSON object');
  if (value.kit !== 'docs-migration') throw invalid('"kit" must be "docs-migration"');
  if (typeof value.set !== 'string' || value.set === '') throw invalid('"set" must name the set');
  if (typeof value.branch !== 'string') throw invalid('"branch" must be a string');
  if (!Array.isArray(value.changes)) throw invalid('"changes" must be a list');
  value.changes.forEach((change: unknown, index) => {
    const at = `changes[${index}]`;
    if (!isObject(change)) throw invalid(`${at} must be an object`);
    const op = change.op;
    if (typeof op !== 'string' || !(OPS as readonly string[]).includes(op)) {
      throw invalid(`${at}.op must be one of ${OPS.join(', ')}`);
    }
    const text = (key: string, where: Record<string, unknown> = change, label = `${at}.${key}`) => {
      if (typeof where[key] !== 'string') throw invalid(`${label} must be a string`);
    };
    const page = (where: Record<string, unknown>, label: string) => {
      for (const key of ['version', 'locale', 'path']) text(key, where, `${label}.${key}`);
    };
    if (op === 'move_page') {
      for (const end of ['from', 'to']) {
        if (!isObject(change[end])) throw invalid(`${at}.${end} must be a page ({version, locale, path})`);
        page(change[end] as Record<string, unknown>, `${at}.${end}`);
      }
    } else if (op === 'write_asset' || op === 'delete_asset') {
      text('name');
      if (op === 'write_asset') {
        text('content');
        if (!/^[A-Za-z0-9+/]*={0,2}$/.test(change.content as string)) throw invalid(`${at}.content must be base64`);
      }
    } else if (op !== 'write_manifest') {
      text('version');
      text('locale');
      if (op !== 'write_navigation') text('path');
    }
    if (op === 'write_page' || op === 'write_navigation' || op === 'write_manifest') text('text');
    if (change.based_on !== null && typeof change.based_on !== 'string') {
      throw invalid(`${at}.based_on must be a content hash or null`);
    }
    text('content_hash');
    text('at');
    for (const key of ['summary', 'author']) if (change[key] !== undefined) text(key);
  });
  return value as unknown as DocsMigrationDocument;
}

/** The docs migration files of one set in a folder, in name order. */
export async function setMigrationFiles(folder: string, setKey: string): Promise<DocsMigrationFile[]> {
  const files: DocsMigrationFile[] = [];
  for (const fileName of await migrationFileNames(folder)) {
    const file = join(folder, fileName);
    const document = await readMigrationFile(file);
    if (document.set === setKey) files.push({ name: fileName.slice(0, -'.json'.length), file, document });
  }
  return files;
}

/** The text a docs migration file is written as. */
export function migrationText(document: DocsMigrationDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
