import { realpathSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { STALE_SOURCES_SHOWN, type SourceHistory, type SourcePage, type StaleSources } from '@kit/core';
import picomatch from 'picomatch';
import {
  type FileHistory,
  findGitEntry,
  type GitLocation,
  historyFingerprint,
  locateGitRepository,
  readFileHistory,
} from './git.js';

/**
 * The `sources:` frontmatter as a list of globs relative to the project root (picomatch syntax);
 * anything else is no sources. The one reading of `sources:` for `kit affected` and read-time
 * staleness.
 *
 * @example
 * sourcesOf({ sources: ['./src/queue/**', 'bin/worker.ts'] }); // ['src/queue/**', 'bin/worker.ts']
 */
export function sourcesOf(frontmatter: Record<string, unknown>): string[] {
  const raw = frontmatter.sources;
  const list = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : [];
  return list
    .filter((item): item is string => typeof item === 'string' && item.trim() !== '')
    .map((glob) => glob.trim().replace(/^\.\//, '').replace(/^\/+/, ''));
}

const matchers = new Map<string, (file: string) => boolean>();

/**
 * A test for files (relative to the project root, `/` separators) that any of `globs` matches,
 * dotfiles included. Compiled globs are kept, so pages sharing globs share the work.
 *
 * @example
 * sourcesMatcher(['src/queue/**'])('src/queue/retry.ts'); // true
 */
export function sourcesMatcher(globs: string[]): (file: string) => boolean {
  const tests = globs.map((glob) => {
    let test = matchers.get(glob);
    if (!test) {
      test = picomatch(glob, { dot: true });
      if (matchers.size > 5000) matchers.clear();
      matchers.set(glob, test);
    }
    return test;
  });
  return (file) => tests.some((test) => test(file));
}

/** Options of {@link createSourceHistory}. */
export interface SourceHistoryOptions {
  /** The project root: the folder `sources:` globs are relative to (the config file's folder). */
  root: string;
  /** The set folder of a repository set, to find each page's own file; none for a database set. */
  setFolder?: string;
}

interface HistoryState {
  fingerprint: string;
  history: Promise<FileHistory | null>;
  /** Answers by page, for this repository state. */
  answers: Map<string, StaleSources | null>;
}

/**
 * Read-time staleness from git: a page is stale when a file its `sources:` globs match changed in
 * a commit after the page's own last commit (for a page with no file of its own, a database set's,
 * after its `updatedAt`). The project's history is read with one `git log` per repository state
 * (the state is told by the files under `.git` that move on every commit, checkout and reset, read
 * without starting git), and each page's answer is kept for that state, so reading pages costs a
 * few `stat` calls. Outside a repository, or where git fails, every page answers null; a page
 * without `sources:` never starts git. A page file with uncommitted changes is judged by its last
 * commit.
 *
 * @example
 * const history = createSourceHistory({ root: '/repo', setFolder: '/repo/docs' });
 * await history.staleSources(page); // { sources: ['src/queue.ts'], total: 1, commit: '…', date: '…' } or null
 */
export function createSourceHistory(options: SourceHistoryOptions): SourceHistory {
  const root = realPath(options.root);
  const setFolder = options.setFolder === undefined ? undefined : realPath(options.setFolder);
  let location: Promise<GitLocation | null> | null = null;
  let state: HistoryState | null = null;

  const locate = async (): Promise<GitLocation | null> => {
    if ((await findGitEntry(root)) === null) return null;
    return locateGitRepository(root);
  };

  const current = async (): Promise<HistoryState | null> => {
    location ??= locate().catch(() => null);
    const where = await location;
    if (!where) return null;
    const fingerprint = await historyFingerprint(where);
    if (!state || state.fingerprint !== fingerprint) {
      state = { fingerprint, history: readFileHistory(root, where).catch(() => null), answers: new Map() };
    }
    return state;
  };

  return {
    async staleSources(page: SourcePage): Promise<StaleSources | null> {
      const globs = sourcesOf(page.frontmatter);
      if (globs.length === 0) return null;
      const at = await current();
      if (!at) return null;
      const pageFile =
        setFolder !== undefined && page.file !== undefined
          ? toSlashes(relative(root, resolve(setFolder, page.file)))
          : null;
      const key = JSON.stringify([pageFile ?? page.updatedAt ?? null, page.contentHash, globs]);
      if (at.answers.has(key)) return at.answers.get(key) ?? null;
      const history = await at.history;
      const answer = history ? judge(history, globs, pageFile, page.updatedAt) : null;
      if (at.answers.size > 10_000) at.answers.clear();
      at.answers.set(key, answer);
      return answer;
    },
  };
}

/** The stale sources of one page in a read history, or null when none changed after it. */
function judge(
  history: FileHistory,
  globs: string[],
  pageFile: string | null,
  updatedAt: string | undefined,
): StaleSources | null {
  // Newer commits have lower indexes. A page file never committed is newer than every commit.
  let newerThan: (index: number) => boolean;
  if (pageFile !== null && !pageFile.startsWith('../')) {
    const own = history.latest.get(pageFile);
    if (own === undefined) return null;
    newerThan = (index) => index < own;
  } else {
    const since = updatedAt ? Date.parse(updatedAt) : Number.NaN;
    if (Number.isNaN(since)) return null;
    newerThan = (index) => Date.parse(history.commits[index]!.date) > since;
  }
  const matches = sourcesMatcher(globs);
  const changed: Array<[file: string, index: number]> = [];
  for (const [file, index] of history.latest) {
    if (file !== pageFile && newerThan(index) && matches(file)) changed.push([file, index]);
  }
  if (changed.length === 0) return null;
  changed.sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));
  const newest = history.commits[changed[0]![1]]!;
  return {
    sources: changed.slice(0, STALE_SOURCES_SHOWN).map(([file]) => file),
    total: changed.length,
    commit: newest.commit,
    date: newest.date,
  };
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function toSlashes(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}
