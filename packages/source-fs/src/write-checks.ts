import type { ChangeRecord, ExpectedContent, PageAddress } from '@kit/core';
import { bytesContentHash, contentHash, KitError } from '@kit/core';
import { isServableFileName, pagePathProblem, showPagePath } from '@kit/core/internal';
import type { SetLayout } from './layout.js';

/*
 * The checks of a repository write that need no disk: arguments, paths and the compare-and-swap on
 * the content hash. Each refuses with a \`KitError\` whose message says how to fix the call.
 */

/** Refuses a draft: a repository set has none (git and pull requests review its changes). */
export function refuseDraft(change: ChangeRecord): void {
  if (change?.draft === true) {
    throw new KitError(
      'argument.invalid',
      'Repository sets keep no drafts: a change to the files is reviewed in git, through a pull request. Write the change without `draft`, or keep the set in a database to have drafts.',
    );
  }
}

/** Refuses text to write that is not a string. */
export function checkText(text: string): void {
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

/** The file of a page (relative to the set folder), refusing a path the layout would never read as that page. */
export function pageFile(layout: SetLayout, page: PageAddress): string {
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
}

/** The page folder of a version and locale, refusing one the layout does not declare. */
export function scopeFolder(layout: SetLayout, version: string, locale: string): string {
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

/** Refuses with `content.conflict` when the text on disk is not the one `expected` names. */
export function checkExpected(current: string | null, expected: ExpectedContent, label: string): void {
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
export function checkFileName(name: string, label: string): void {
  if (!isServableFileName(name)) {
    throw new KitError(
      'page.invalid_path',
      `${capitalize(label)} cannot be written: the name is not a plain relative path the site serves (no "..", dotfiles, Markdown or secret-looking names).`,
    );
  }
}

/** As {@link checkExpected}, for a file compared by the hash of its bytes. */
export function checkExpectedBytes(current: Uint8Array | null, expected: ExpectedContent, label: string): void {
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

/** How messages name a page. */
export function pageLabel(page: PageAddress): string {
  return `page "${page?.path}" (version ${page?.version}, locale ${page?.locale})`;
}

/** The text with its first letter in upper case, for a label at the start of a message. */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function listOf(values: string[]): string {
  return values.length === 0 ? 'none' : values.map((value) => JSON.stringify(value)).join(', ');
}
