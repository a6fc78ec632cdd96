import type { PageAddress } from '@kit/core';
import { KitError } from '@kit/core';
import type {
  ChangeOptions,
  ChangeResult,
  ManifestWrite,
  MoveResult,
  NavigationWrite,
  PageWrite,
} from './change-types.js';
import type { KitDatabase } from './database.js';
import { manifestDocument, navigationDocument, pageText } from './documents.js';
import { ABSENT, checkBase, checkChange, checkRef, checkText } from './records.js';
import {
  deleteLivePageInTransaction,
  livePage,
  requireLivePage,
  writeManifestInTransaction,
  writeNavigationInTransaction,
  writePageInTransaction,
} from './transaction-writes.js';

/**
 * Creates or replaces one page, in one transaction with its revision. Refuses a stale `basedOn`
 * with `content.conflict`; writing exactly what is there is `unchanged` and records nothing.
 *
 * @example
 * const { contentHash } = await writePage(db, 'docs', { version: '3.x', locale: 'en', path: 'routing', frontmatter: { title: 'Routing' }, body: '# Routing\n' });
 * await writePage(db, 'docs', { ...page, body: '# Routing\n\nMore.\n' }, { basedOn: contentHash, author: 'ada' });
 */
export async function writePage(
  db: KitDatabase,
  setKey: string,
  page: PageWrite,
  options: ChangeOptions = {},
): Promise<ChangeResult> {
  checkChange(setKey, options);
  checkRef(page);
  const text = pageText(page);
  return db.orm.transaction((tx) => writePageInTransaction(tx, db.tables, setKey, page, text, 'write', options));
}

/**
 * Deletes one page: the row is kept with `deleted_at` set and a `delete` revision records its last
 * content, so {@link restorePage} can bring it back. Throws `page.not_found` when no live page is there.
 */
export async function deletePage(
  db: KitDatabase,
  setKey: string,
  ref: PageAddress,
  options: ChangeOptions = {},
): Promise<ChangeResult> {
  checkChange(setKey, options);
  checkRef(ref);
  return db.orm.transaction(async (tx) => {
    const t = db.tables;
    const current = await requireLivePage(tx, t, setKey, ref, 'delete');
    checkBase(options.basedOn, current.contentHash, `page "${ref.path}"`);
    const revision = await deleteLivePageInTransaction(tx, t, setKey, ref, current, options);
    return {
      outcome: options.status === 'draft' ? 'drafted' : 'published',
      contentHash: current.contentHash,
      revision,
    };
  });
}

/**
 * Moves one page, in one transaction: the page's file is written at `to` and the page at `from` is
 * deleted (kept in the revision history, so {@link restorePage} can bring it back), each with its
 * revision. `basedOn` is checked against the page at `from`. Refuses with `page.not_found` when no
 * live page is at `from`, and with `page.exists` when one is at `to`. A draft (`status: 'draft'`)
 * records both revisions as drafts and leaves both paths as they are.
 *
 * @example
 * const moved = await movePage(db, 'docs', { version: '3.x', locale: 'en', path: 'routing' }, { version: '3.x', locale: 'en', path: 'basics/routing' }, { basedOn: hash });
 * moved.revision.path; // 'basics/routing'
 */
export async function movePage(
  db: KitDatabase,
  setKey: string,
  from: PageAddress,
  to: PageAddress,
  options: ChangeOptions = {},
): Promise<MoveResult> {
  checkChange(setKey, options);
  checkRef(from);
  checkRef(to);
  if (from.version === to.version && from.locale === to.locale && from.path === to.path) {
    throw new KitError(
      'argument.invalid',
      `The page "${from.path}" would move onto itself. Give a different \`to\` path, version or locale.`,
    );
  }
  return db.orm.transaction(async (tx) => {
    const t = db.tables;
    const current = await requireLivePage(tx, t, setKey, from, 'move');
    checkBase(options.basedOn, current.contentHash, `page "${from.path}"`);
    const taken = await livePage(tx, t, setKey, to);
    if (taken) {
      throw new KitError(
        'page.exists',
        `A page already lives at "${to.path}" in ${to.version}/${to.locale} of set "${setKey}". Choose another path, or move or delete that page first.`,
        { details: { currentHash: taken.contentHash } },
      );
    }
    const target = { version: to.version, locale: to.locale, path: to.path };
    const written = await writePageInTransaction(tx, t, setKey, target, current.document, 'write', {
      ...options,
      basedOn: ABSENT,
    });
    const deleted = await deleteLivePageInTransaction(tx, t, setKey, from, current, options);
    return { ...written, deleted };
  });
}

/**
 * Replaces the navigation file of one version and locale, with its revision, in one transaction.
 * The tree must be a usable navigation file (`{groups}` or `{tabs}`), else `navigation.invalid`.
 */
export async function writeNavigation(
  db: KitDatabase,
  setKey: string,
  input: NavigationWrite,
  options: ChangeOptions = {},
): Promise<ChangeResult> {
  checkChange(setKey, options);
  checkText(input.version, 'The version');
  checkText(input.locale, 'The locale');
  const document = navigationDocument(input);
  return db.orm.transaction((tx) => writeNavigationInTransaction(tx, db.tables, setKey, input, document, options));
}

/**
 * Replaces the set's manifest (`kit.json`), with its revision, in one transaction. The text is
 * kept as written so unknown keys and their order survive; it must be a JSON object, else
 * `manifest.invalid`.
 */
export async function writeManifest(
  db: KitDatabase,
  setKey: string,
  input: ManifestWrite,
  options: ChangeOptions = {},
): Promise<ChangeResult> {
  checkChange(setKey, options);
  const document = manifestDocument(input);
  return db.orm.transaction((tx) => writeManifestInTransaction(tx, db.tables, setKey, document, options));
}

/** A revision in the shape author tools return: core's rule, for the records this package reads. */
export { toAuthorRevision } from '@kit/core/internal';
