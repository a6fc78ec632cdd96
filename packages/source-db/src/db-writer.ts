import type { ContentWriter, ExpectedContent, PageAddress } from '@kit/core';
import { isKitError, KitError } from '@kit/core';
import { deleteAsset, writeAsset } from './asset-writes.js';
import type { RevisionRecord } from './change-types.js';
import type { KitDatabase } from './database.js';
import type { AssetDisk } from './disk.js';
import type { DocsMigrationOptions } from './migration-append.js';
import { ABSENT } from './records.js';
import { createWriterTransaction, type PerformChange } from './writer-transaction.js';
import { deletePage, movePage, writeManifest, writeNavigation, writePage } from './writes.js';

export type { DocsMigrationOptions } from './migration-append.js';

/**
 * The {@link ContentWriter} of a database set: each call is one transaction over the write
 * functions, checks `expected` (compare and swap; null: nothing may be there), records drafts as
 * draft revisions, and, when `migrations` is given, appends each published change to the branch's
 * docs migration file in the same transaction. `announce` hears the revisions once committed.
 */
export function createDbWriter(input: {
  db: KitDatabase;
  setKey: string;
  migrations?: DocsMigrationOptions;
  /** Where new files go (`writeAsset`); without one they are kept in their rows. */
  disk?: AssetDisk;
  announce: (revisions: RevisionRecord[]) => void;
}): ContentWriter {
  const perform = createWriterTransaction(input);
  return { ...pageWrites(input.setKey, perform), ...fileWrites(input.setKey, perform, input.disk) };
}

type PageWrites = Pick<ContentWriter, 'writePage' | 'movePage' | 'deletePage'>;
type FileWrites = Omit<ContentWriter, keyof PageWrites>;

/** Writing, moving and deleting pages. */
function pageWrites(setKey: string, perform: PerformChange): PageWrites {
  return {
    writePage(page, text, expected, change) {
      const ref = pageRef(page);
      const basedOn = expectedBase(expected, 'writePage');
      return perform(change, { kind: 'page', ...ref }, async (tx, options) => {
        const result = await writePage(tx, setKey, { ...ref, text }, { ...options, basedOn });
        const revision = result.revision;
        return {
          result,
          revisions: revision ? [revision] : [],
          entry: revision && {
            op: 'write_page',
            ...ref,
            text: revision.snapshot ?? text,
            based_on: revision.basedOn,
            content_hash: result.contentHash,
          },
        };
      });
    },

    movePage(from, to, expected, change) {
      const source = pageRef(from);
      const target = pageRef(to);
      const basedOn = requiredBase(expected, 'movePage');
      return perform(change, { kind: 'page', ...target }, async (tx, options) => {
        const result = await movePage(tx, setKey, source, target, { ...options, basedOn }).catch(gone(source, basedOn));
        return {
          result,
          revisions: [...(result.revision ? [result.revision] : []), result.deleted],
          entry: { op: 'move_page', from: source, to: target, based_on: basedOn, content_hash: result.contentHash },
        };
      });
    },

    deletePage(page, expected, change) {
      const ref = pageRef(page);
      const basedOn = requiredBase(expected, 'deletePage');
      return perform(change, { kind: 'page', ...ref }, async (tx, options) => {
        const result = await deletePage(tx, setKey, ref, { ...options, basedOn }).catch(gone(ref, basedOn));
        return {
          result,
          revisions: result.revision ? [result.revision] : [],
          entry: { op: 'delete_page', ...ref, based_on: basedOn, content_hash: result.contentHash },
        };
      });
    },
  };
}

/** Writing navigation files, files of the set and the manifest. */
function fileWrites(setKey: string, perform: PerformChange, disk: AssetDisk | undefined): FileWrites {
  return {
    writeNavigation(scope, text, expected, change) {
      const where = { version: scope.version, locale: scope.locale };
      const basedOn = expectedBase(expected, 'writeNavigation');
      return perform(change, { kind: 'navigation', ...where }, async (tx, options) => {
        const result = await writeNavigation(tx, setKey, { ...where, text }, { ...options, basedOn });
        const revision = result.revision;
        return {
          result,
          revisions: revision ? [revision] : [],
          entry: revision && {
            op: 'write_navigation',
            ...where,
            text: revision.snapshot ?? text,
            based_on: revision.basedOn,
            content_hash: result.contentHash,
          },
        };
      });
    },

    writeAsset(name, bytes, expected, change) {
      const basedOn = expectedBase(expected, 'writeAsset');
      return perform(change, { kind: 'asset', path: name }, async (tx, options) => {
        const result = await writeAsset(
          tx,
          setKey,
          { name, content: bytes },
          { ...options, basedOn, ...(disk ? { disk } : {}) },
        );
        const revision = result.revision;
        return {
          result,
          revisions: revision ? [revision] : [],
          entry: revision && {
            op: 'write_asset',
            name,
            content: Buffer.from(bytes).toString('base64'),
            based_on: revision.basedOn,
            content_hash: result.contentHash,
          },
        };
      });
    },

    deleteAsset(name, expected, change) {
      const basedOn = requiredBase(expected, 'deleteAsset');
      return perform(change, { kind: 'asset', path: name }, async (tx, options) => {
        const result = await deleteAsset(tx, setKey, name, { ...options, basedOn });
        return {
          result,
          revisions: result.revision ? [result.revision] : [],
          entry: { op: 'delete_asset', name, based_on: basedOn, content_hash: result.contentHash },
        };
      });
    },

    writeManifest(text, expected, change) {
      const basedOn = expectedBase(expected, 'writeManifest');
      return perform(change, { kind: 'manifest' }, async (tx, options) => {
        const result = await writeManifest(tx, setKey, { text }, { ...options, basedOn });
        const revision = result.revision;
        return {
          result,
          revisions: revision ? [revision] : [],
          entry: revision && {
            op: 'write_manifest',
            text: revision.snapshot ?? text,
            based_on: revision.basedOn,
            content_hash: result.contentHash,
          },
        };
      });
    },
  };
}

/** A page the caller read (it passed its hash) that is gone now: a conflict, like any change since the read. */
function gone(page: PageAddress, expected: string) {
  return (error: unknown): never => {
    if (!isKitError(error, 'page.not_found')) throw error;
    throw new KitError(
      'content.conflict',
      `The page "${page.path}" in ${page.version}/${page.locale} no longer exists; it was removed or moved after you read it (based_on ${expected}). Read the pages again before changing it.`,
      { cause: error, details: { basedOn: expected, currentHash: null } },
    );
  };
}

function pageRef(page: PageAddress): PageAddress {
  return { version: page.version, locale: page.locale, path: page.path };
}

/** `expected` as a write's `basedOn`: null means nothing may be there. */
function expectedBase(expected: ExpectedContent, method: string): string {
  return expected === null ? ABSENT : requiredBase(expected, method);
}

function requiredBase(expected: string, method: string): string {
  if (typeof expected !== 'string' || expected === '') {
    throw new KitError(
      'argument.invalid',
      `${method} needs the content hash the change was written against (the content_hash read_page returned).`,
    );
  }
  return expected;
}
