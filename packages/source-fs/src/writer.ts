import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { AuthorRevision, ChangeRecord, ContentChange, ContentWriter, WriteReceipt } from '@kit/core';
import { bytesContentHash, contentHash, KitError } from '@kit/core';
import { writeFileAtomically } from '@kit/core/node';
import { MANIFEST_FILE, NAVIGATION_FILE, type SetLayout } from './layout.js';
import {
  capitalize,
  checkExpected,
  checkExpectedBytes,
  checkFileName,
  checkText,
  pageFile,
  pageLabel,
  refuseDraft,
  scopeFolder,
} from './write-checks.js';
import { createWriteQueue, existingSetFolder, inspect, removeFile, type WriteQueue } from './write-files.js';

/** What a repository writer needs from the source it belongs to. */
export interface FsWriterHost {
  /** The set folder as configured, absolute. */
  readonly root: string;
  /** The set folder with links resolved, or null when it does not exist. */
  realRoot(): Promise<string | null>;
  /** The layout of the manifest as it is now. */
  layout(): Promise<SetLayout>;
  /**
   * Drops what the source cached for `files` (relative to the set folder) and tells its `watch`
   * listeners `changes`, synchronously, so a read right after the write sees it.
   */
  changed(files: string[], changes: ContentChange[]): void;
}

/**
 * The write side of a repository set: pages, navigation files and `kit.json` written as files in
 * the set folder, where git and pull requests review them. Every method compares the hash of the
 * file as it is now with `expected` and refuses with `content.conflict` when they differ; calls on
 * one writer run one at a time, so two of them can never both pass that check. Files are replaced
 * atomically (temporary file and rename), nothing is written outside the set folder (no `..`, no
 * link leading out), and a move or delete removes the folders it leaves empty. Repository sets keep
 * no drafts: a draft is refused with `argument.invalid`. Files (`writeAsset`, `deleteAsset`) are
 * written and removed under their name in the set folder, compared by the hash of their bytes.
 *
 * `createFsSource` attaches one as `writer`; build one directly only for a source of your own.
 *
 * @example
 * const source = createFsSource({ root: 'docs', setKey: 'docs' });
 * const page = await source.getPage('3.x', 'en', 'routing');
 * await source.writer.writePage({ version: '3.x', locale: 'en', path: 'routing' }, text, page.contentHash, {
 *   tool: 'write_page',
 *   draft: false,
 * });
 */
export function createFsWriter(host: FsWriterHost): ContentWriter {
  const serialized = createWriteQueue(host.root);
  return { ...pageWrites(host, serialized), ...fileWrites(host, serialized) };
}

type PageWrites = Pick<ContentWriter, 'writePage' | 'movePage' | 'deletePage'>;
type FileWrites = Omit<ContentWriter, keyof PageWrites>;

function setFolder(host: FsWriterHost): Promise<string> {
  return existingSetFolder(host.root, host.realRoot);
}

/** Writing, moving and deleting pages. */
function pageWrites(host: FsWriterHost, serialized: WriteQueue): PageWrites {
  return {
    async writePage(page, text, expected, change) {
      refuseDraft(change);
      checkText(text);
      const label = pageLabel(page);
      return serialized(label, async () => {
        const base = await setFolder(host);
        const file = pageFile(await host.layout(), page);
        const current = await inspect(base, file, label);
        checkExpected(current.text, expected, label);
        await writeFileAtomically(current.absolute, text);
        host.changed([file], [{ kind: 'page', version: page.version, locale: page.locale, path: page.path }]);
        return receipt('page', contentHash(text), change, page);
      });
    },

    async movePage(from, to, expected, change) {
      refuseDraft(change);
      const label = pageLabel(from);
      return serialized(label, async () => {
        const base = await setFolder(host);
        const layout = await host.layout();
        const fromFile = pageFile(layout, from);
        const toFile = pageFile(layout, to);
        if (fromFile === toFile) {
          throw new KitError('argument.invalid', `${capitalize(label)} cannot be moved onto itself. Give a new path.`);
        }
        const source = await inspect(base, fromFile, label);
        checkExpected(source.text, expected, label);
        const text = source.text!;
        const target = await inspect(base, toFile, pageLabel(to));
        if (target.text !== null) {
          throw new KitError(
            'page.exists',
            `${capitalize(pageLabel(to))} already exists, so ${label} cannot move there. Choose another path, or delete that page first.`,
          );
        }
        await writeFileAtomically(target.absolute, text);
        try {
          await removeFile(base, fromFile, scopeFolder(layout, from.version, from.locale));
        } catch (error) {
          // All or nothing: the page must not end up in both places.
          await removeFile(base, toFile, scopeFolder(layout, to.version, to.locale)).catch(() => undefined);
          host.changed([toFile], [{ kind: 'page', version: to.version, locale: to.locale, path: to.path }]);
          throw error;
        }
        host.changed(
          [fromFile, toFile],
          [
            { kind: 'page', version: from.version, locale: from.locale, path: from.path },
            { kind: 'page', version: to.version, locale: to.locale, path: to.path },
          ],
        );
        return receipt('page', contentHash(text), change, to);
      });
    },

    async deletePage(page, expected, change) {
      refuseDraft(change);
      const label = pageLabel(page);
      return serialized(label, async () => {
        const base = await setFolder(host);
        const layout = await host.layout();
        const file = pageFile(layout, page);
        const current = await inspect(base, file, label);
        checkExpected(current.text, expected, label);
        await removeFile(base, file, scopeFolder(layout, page.version, page.locale));
        host.changed([file], [{ kind: 'page', version: page.version, locale: page.locale, path: page.path }]);
        return receipt('page', contentHash(current.text!), change, page);
      });
    },
  };
}

/** Writing navigation files, `kit.json` and other files of the set folder. */
function fileWrites(host: FsWriterHost, serialized: WriteQueue): FileWrites {
  return {
    async writeNavigation(scope, text, expected, change) {
      refuseDraft(change);
      checkText(text);
      const label = `the navigation of version ${scope?.version}, locale ${scope?.locale}`;
      return serialized(label, async () => {
        const base = await setFolder(host);
        const folder = scopeFolder(await host.layout(), scope.version, scope.locale);
        const file = folder ? `${folder}/${NAVIGATION_FILE}` : NAVIGATION_FILE;
        const current = await inspect(base, file, label);
        checkExpected(current.text, expected, label);
        await writeFileAtomically(current.absolute, text);
        host.changed([file], [{ kind: 'navigation', version: scope.version, locale: scope.locale }]);
        return receipt('navigation', contentHash(text), change, { version: scope.version, locale: scope.locale });
      });
    },

    async writeAsset(name, bytes, expected, change) {
      refuseDraft(change);
      const label = `the file "${name}"`;
      checkFileName(name, label);
      return serialized(label, async () => {
        const base = await setFolder(host);
        const current = await inspect(base, name, label);
        checkExpectedBytes(current.bytes, expected, label);
        await writeFileAtomically(current.absolute, bytes);
        host.changed([name], [{ kind: 'asset', path: name }]);
        return receipt('asset', bytesContentHash(bytes), change, { path: name });
      });
    },

    async deleteAsset(name, expected, change) {
      refuseDraft(change);
      const label = `the file "${name}"`;
      checkFileName(name, label);
      return serialized(label, async () => {
        const base = await setFolder(host);
        const current = await inspect(base, name, label);
        checkExpectedBytes(current.bytes, expected, label);
        // The name goes, not what a link leads to; its folder stays, as a page's does.
        await rm(join(base, name));
        host.changed([name], [{ kind: 'asset', path: name }]);
        return receipt('asset', bytesContentHash(current.bytes!), change, { path: name });
      });
    },

    async writeManifest(text, expected, change) {
      refuseDraft(change);
      checkText(text);
      const label = `the manifest (${MANIFEST_FILE})`;
      return serialized(label, async () => {
        const base = await setFolder(host);
        const current = await inspect(base, MANIFEST_FILE, label);
        checkExpected(current.text, expected, label);
        await writeFileAtomically(current.absolute, text);
        // The source derives its layout from the manifest again before its next read.
        host.changed([MANIFEST_FILE], [{ kind: 'manifest' }]);
        return receipt('manifest', contentHash(text), change, {});
      });
    },
  };
}

function receipt(
  kind: NonNullable<AuthorRevision['kind']>,
  hash: string,
  change: ChangeRecord,
  scope: { version?: string; locale?: string; path?: string },
): WriteReceipt {
  const revision: AuthorRevision = { content_hash: hash, kind };
  if (scope.version !== undefined) revision.version = scope.version;
  if (scope.locale !== undefined) revision.locale = scope.locale;
  if (scope.path !== undefined) revision.path = scope.path;
  if (change.summary !== undefined) revision.summary = change.summary;
  revision.created_at = new Date().toISOString();
  // No revision id: git keeps the history of a repository set.
  return { outcome: 'published', revision, docs_migration: null };
}
