import { lstat, readFile, realpath, rm, rmdir, stat } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import type {
  AuthorRevision,
  ChangeRecord,
  ContentChange,
  ContentWriter,
  ExpectedContent,
  PageAddress,
  WriteReceipt,
} from '@kit/core';
import { bytesContentHash, contentHash, isServableFileName, KitError, pagePathProblem, showPagePath } from '@kit/core';
import { writeFileAtomically } from '@kit/core/node';
import { MANIFEST_FILE, NAVIGATION_FILE, type SetLayout } from './layout.js';

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

interface FileState {
  /** Where to write: the file itself, or the file a link inside the set leads to. */
  absolute: string;
  /** The current text, or null when there is no file. */
  text: string | null;
  /** The current bytes, or null when there is no file. */
  bytes: Uint8Array | null;
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
  let queue: Promise<unknown> = Promise.resolve();

  /** Runs `task` after every call before it, turning unexpected file-system failures into `source.error`. */
  const serialized = <T>(what: string, task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task).catch((error: unknown) => {
      if (error instanceof KitError) throw error;
      const code = (error as NodeJS.ErrnoException)?.code;
      throw new KitError(
        'source.error',
        `Writing ${what} failed${code ? ` (${code})` : ''}; nothing was changed. Check that the server may write to ${host.root}.`,
        { cause: error },
      );
    });
    queue = run.catch(() => undefined);
    return run;
  };

  const setFolder = async (): Promise<string> => {
    const base = await host.realRoot();
    if (!base) {
      throw new KitError(
        'source.error',
        `The set folder ${host.root} does not exist, so nothing can be written to it. Create it, or point \`source.path\` of the set at the folder holding kit.json.`,
      );
    }
    return base;
  };

  /** Reads what stands at `file` now, refusing a link or a folder that leads outside the set folder. */
  const inspect = async (base: string, file: string, label: string): Promise<FileState> => {
    const absolute = join(base, file);
    if (await lstat(absolute).catch(() => null)) {
      const target = await realpath(absolute).catch(() => null);
      if (!target || !isInside(base, target)) throw escapeError(label, file);
      if (!(await stat(target)).isFile()) {
        throw new KitError(
          'page.invalid_path',
          `${capitalize(label)} cannot be written: ${file} is a folder. Choose another path, or move the folder away first.`,
        );
      }
      const bytes = await readFile(target);
      return { absolute: target, text: bytes.toString('utf8'), bytes };
    }
    // Nothing there yet: the nearest folder that exists must lie inside the set folder, or a link
    // on the way would carry the new file out of it.
    let folder = dirname(absolute);
    for (;;) {
      const real = await realpath(folder).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null;
        throw error;
      });
      if (real !== null) {
        if (!isInside(base, real)) throw escapeError(label, file);
        if (!(await stat(real)).isDirectory()) {
          throw new KitError(
            'page.invalid_path',
            `${capitalize(label)} cannot be written: ${file} would go inside a file. Choose another path.`,
          );
        }
        return { absolute, text: null, bytes: null };
      }
      if (folder === base || dirname(folder) === folder) throw escapeError(label, file);
      folder = dirname(folder);
    }
  };

  const pageFile = (layout: SetLayout, page: PageAddress): string => {
    checkPagePath(page?.path);
    const folder = scopeFolder(layout, page.version, page.locale);
    const file = folder ? `${folder}/${page.path}.md` : `${page.path}.md`;
    const located = layout.locate(file);
    if (!located || located.version !== page.version || located.locale !== page.locale || located.path !== page.path) {
      throw new KitError(
        'page.invalid_path',
        `The page path "${page.path}" is taken by the set's layout (a locale or skills folder), so the page could never be read. Choose another first segment.`,
      );
    }
    return file;
  };

  const removeFile = async (base: string, file: string, pageFolder: string): Promise<void> => {
    // The entry itself goes, not what a link leads to: the page is the name in its folder.
    await rm(join(base, file));
    let folder = parentOf(file);
    // Stop at the page folder: a version or locale folder stays even when it holds no page.
    while (folder !== pageFolder && folder !== '' && (pageFolder === '' || folder.startsWith(`${pageFolder}/`))) {
      try {
        await rmdir(join(base, folder));
      } catch {
        return;
      }
      folder = parentOf(folder);
    }
  };

  return {
    async writePage(page, text, expected, change) {
      refuseDraft(change);
      checkText(text);
      const label = pageLabel(page);
      return serialized(label, async () => {
        const base = await setFolder();
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
        const base = await setFolder();
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
        const base = await setFolder();
        const layout = await host.layout();
        const file = pageFile(layout, page);
        const current = await inspect(base, file, label);
        checkExpected(current.text, expected, label);
        await removeFile(base, file, scopeFolder(layout, page.version, page.locale));
        host.changed([file], [{ kind: 'page', version: page.version, locale: page.locale, path: page.path }]);
        return receipt('page', contentHash(current.text!), change, page);
      });
    },

    async writeNavigation(scope, text, expected, change) {
      refuseDraft(change);
      checkText(text);
      const label = `the navigation of version ${scope?.version}, locale ${scope?.locale}`;
      return serialized(label, async () => {
        const base = await setFolder();
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
        const base = await setFolder();
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
        const base = await setFolder();
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
        const base = await setFolder();
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

function refuseDraft(change: ChangeRecord): void {
  if (change?.draft === true) {
    throw new KitError(
      'argument.invalid',
      'Repository sets keep no drafts: a change to the files is reviewed in git, through a pull request. Write the change without `draft`, or keep the set in a database to have drafts.',
    );
  }
}

function checkText(text: string): void {
  if (typeof text !== 'string') {
    throw new KitError(
      'argument.invalid',
      `The text to write must be a string, not ${text === null ? 'null' : typeof text}.`,
    );
  }
}

/**
 * Refuses a page path that could name a file outside its page folder, or one the source never
 * reads: the page-path rule of every source (see `pagePathProblem`), and no `.md`.
 */
function checkPagePath(path: unknown): asserts path is string {
  const refuse = (reason: string) =>
    new KitError(
      'page.invalid_path',
      `The page path ${showPagePath(path)} ${reason}. Give the path relative to the version (and locale) folder, without \`.md\`, segments of letters, digits, "-" and "_" joined by "/", for example "guides/setup".`,
    );
  if (typeof path !== 'string' || path === '') throw refuse('is empty');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) throw refuse('is absolute');
  const problem = pagePathProblem(path);
  if (problem) throw refuse(`is refused: ${problem}`);
  if (path.endsWith('.md')) throw refuse('ends in `.md`');
}

function scopeFolder(layout: SetLayout, version: string, locale: string): string {
  if (!layout.versions.includes(version)) {
    throw new KitError(
      'version.not_found',
      `The set has no version ${JSON.stringify(version)}; it declares ${listOf(layout.versions)}. Use one of those, or add the version to \`versions\` in kit.json first.`,
    );
  }
  if (!layout.locales.includes(locale)) {
    throw new KitError(
      'locale.not_found',
      `The set has no locale ${JSON.stringify(locale)}; it declares ${listOf(layout.locales)}. Use one of those, or add the locale to \`locales\` in kit.json first.`,
    );
  }
  return layout.pageFolder(version, locale) ?? '';
}

function checkExpected(current: string | null, expected: ExpectedContent, label: string): void {
  const found = current === null ? null : contentHash(current);
  if (found === expected) return;
  const what = capitalize(label);
  const message =
    expected === null
      ? `${what} already exists (content hash ${found}). Read it again and pass its content hash to replace it.`
      : found === null
        ? `${what} no longer exists: it was moved or deleted since you read it. Read it again before changing it.`
        : `${what} changed since you read it (expected ${expected}, found ${found}). Read it again and make your change on the current text.`;
  throw new KitError('content.conflict', message, { details: { expected, found } });
}

/** A file name must be one the set serves: core's author tools check it, this writer keeps to it too. */
function checkFileName(name: string, label: string): void {
  if (!isServableFileName(name)) {
    throw new KitError(
      'page.invalid_path',
      `${capitalize(label)} cannot be written: the name is not a plain relative path the site serves (no "..", dotfiles, Markdown or secret-looking names).`,
    );
  }
}

function checkExpectedBytes(current: Uint8Array | null, expected: ExpectedContent, label: string): void {
  const found = current === null ? null : bytesContentHash(current);
  if (found === expected) return;
  const what = capitalize(label);
  throw new KitError(
    'content.conflict',
    expected === null
      ? `${what} already exists (content hash ${found}). Pass its hash as based_on to replace it.`
      : found === null
        ? `${what} no longer exists: it was removed since you saw it.`
        : `${what} changed since you saw it (expected ${expected}, found ${found}).`,
    { details: { expected, found, currentHash: found } },
  );
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

function escapeError(label: string, file: string): KitError {
  return new KitError(
    'page.invalid_path',
    `${capitalize(label)} cannot be written: ${file} leads outside the set folder through a symbolic link. Write it to a path inside the set folder, or replace the link with a folder.`,
  );
}

function pageLabel(page: PageAddress): string {
  return `page "${page?.path}" (version ${page?.version}, locale ${page?.locale})`;
}

function isInside(base: string, target: string): boolean {
  return target === base || target.startsWith(base + sep);
}

function parentOf(file: string): string {
  const slash = file.lastIndexOf('/');
  return slash === -1 ? '' : file.slice(0, slash);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function listOf(values: string[]): string {
  return values.length === 0 ? 'none' : values.map((value) => JSON.stringify(value)).join(', ');
}
