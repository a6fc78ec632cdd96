import { createHash } from 'node:crypto';
import { createReadStream, type Dirent, type Stats } from 'node:fs';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { KitError, type SourceProblem } from '@kit/core';
import { isTransientFileError, mapConcurrently, withFileSlot } from '@kit/core/node';

/**
 * How a repository set reads its files: one call at a time through the process-wide file pool of
 * `@kit/core/node` (a few dozen files open at once, `EMFILE` and the like tried again), and with
 * one rule for a failure. A file that is not there (`ENOENT`, a path through a file, a link loop)
 * is absent, as when it was deleted between listing and reading; any other failure is an error
 * that names the file, never a page quietly left out.
 */

/** Pages, skills and files of one listing read at once; the pool bounds all listings together. */
export const READS_AT_ONCE = 32;

const GONE_CODES = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'ELOOP', 'ENAMETOOLONG']);

/** True when a failure says the file is not there (or can never be), rather than unreadable. */
export function isGoneError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && GONE_CODES.has(code);
}

/** What went wrong, without the absolute path Node.js puts in its messages: `EACCES: permission denied`. */
function causeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message.replace(/, \w+ '[^']*'(?: -> '[^']*')?$/, '') : String(error);
  return typeof code === 'string' && !message.startsWith(code) ? `${code}: ${message}` : message;
}

function fixFor(error: unknown, file: string): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'EACCES' || code === 'EPERM') {
    return `Give the server read permission on ${file} (e.g. chmod a+rX), or move it out of the set folder.`;
  }
  if (isTransientFileError(error)) {
    return 'Raise the open-file limit of the server (ulimit -n, LimitNOFILE in a systemd unit): Kit reads a few dozen files at a time and tried again for seconds, but other work holds the rest.';
  }
  return `Check that ${file} is a readable regular file under 2 GiB, or move it out of the set folder.`;
}

/** The `source.read` problem of a file or folder of the set that cannot be read. */
export function unreadableProblem(file: string, error: unknown, what = 'file'): SourceProblem {
  return {
    rule: 'source.read',
    severity: 'error',
    message: `The ${what} ${file} cannot be read (${causeOf(error)}).`,
    file,
    fix: fixFor(error, file),
  };
}

/**
 * The error of files of a set that cannot be read: one `source.error` naming every file (the first
 * few in the message, all in `details.problems` as `source.read` problems), so the server log,
 * `kit validate` and the other `kit` commands say what to fix.
 */
export function unreadableError(setKey: string, problems: readonly SourceProblem[], cause?: unknown): KitError {
  const shown = problems.slice(0, 5).map((problem) => lowerFirst(problem.message.replace(/\.$/, '')));
  const more = problems.length > shown.length ? ` (and ${problems.length - shown.length} more)` : '';
  return new KitError(
    'source.error',
    `Reading the "${setKey}" docs failed: ${shown.join('; ')}${more}. ${problems[0]?.fix ?? ''}`.trim(),
    { ...(cause === undefined ? {} : { cause }), details: { problems: [...problems] } },
  );
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** Reads, checks or lists one file of the set (`file` relative to the set folder, for messages). */
export interface SetFiles {
  /** `realpath`, or null when the path leads nowhere. */
  realpath(absolute: string, file: string): Promise<string | null>;
  /** `stat`, or null when the file is absent. */
  stat(absolute: string, file: string): Promise<Stats | null>;
  /** The file's text (UTF-8), or null when it is absent. */
  readText(absolute: string, file: string): Promise<string | null>;
  /** The file's bytes, or null when it is absent. */
  readBytes(absolute: string, file: string): Promise<Uint8Array | null>;
  /** The entries of a folder, or null when the folder is absent. */
  readdir(absolute: string, file: string): Promise<Dirent[] | null>;
  /** `sha256:<hex>` of a file read as a stream (never held whole in memory), or null when it is absent. */
  streamHash(absolute: string, file: string): Promise<string | null>;
}

/**
 * The file reads of one set, each through the process-wide pool; absent is null, anything else a
 * `source.error` naming the file.
 *
 * @example
 * const files = setFiles('docs');
 * const text = await files.readText('/srv/docs/guide.md', 'guide.md'); // null when gone
 */
export function setFiles(setKey: string): SetFiles {
  const orAbsent = async <T>(file: string, what: string, call: () => Promise<T>): Promise<T | null> => {
    try {
      return await withFileSlot(call);
    } catch (error) {
      if (isGoneError(error)) return null;
      throw unreadableError(setKey, [unreadableProblem(file, error, what)], error);
    }
  };
  return {
    realpath: (absolute, file) => orAbsent(file, 'path', () => realpath(absolute)),
    stat: (absolute, file) => orAbsent(file, 'file', () => stat(absolute)),
    readText: (absolute, file) => orAbsent(file, 'file', () => readFile(absolute, 'utf8')),
    async readBytes(absolute, file) {
      const bytes = await orAbsent(file, 'file', () => readFile(absolute));
      return bytes && new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    readdir: (absolute, file) => orAbsent(file, 'folder', () => readdir(absolute, { withFileTypes: true })),
    streamHash: (absolute, file) => orAbsent(file, 'file', () => streamHash(absolute)),
  };
}

/**
 * Reads every item, {@link READS_AT_ONCE} at a time, and keeps what `read` found (null is an
 * absent file, left out). Every failure is collected first, so the error names each unreadable
 * file, not only the first.
 */
export async function readEvery<T, R>(
  setKey: string,
  items: readonly T[],
  read: (item: T) => Promise<R | null>,
): Promise<R[]> {
  // By item, so the files are named in the order they were listed, whichever read failed first.
  const failed: SourceProblem[][] = [];
  const found = await mapConcurrently(
    items,
    (item, index) =>
      read(item).catch((error: unknown) => {
        failed[index] = problemsOf(error);
        return null;
      }),
    READS_AT_ONCE,
  );
  if (failed.length > 0) throw unreadableError(setKey, failed.flat());
  return found.filter((value): value is R => value !== null);
}

/** The `source.read` problems an error of this module stands for; another error is thrown on. */
export function problemsOf(error: unknown): SourceProblem[] {
  if (error instanceof KitError && error.code === 'source.error' && Array.isArray(error.details?.problems)) {
    return error.details.problems as SourceProblem[];
  }
  throw error;
}

function streamHash(absolute: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const hash = createHash('sha256');
    createReadStream(absolute)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolvePromise(`sha256:${hash.digest('hex')}`));
  });
}
