import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { type FSWatcher, watch } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { withFileSlot, writeFileAtomically } from '@kit/core/node';

/** Where a folder sits in its git repository. */
export interface GitLocation {
  /** Absolute path of the git directory, whose `HEAD` and reflog change on every commit. */
  gitDir: string;
  /** The folder's path inside the repository, with a trailing `/` (empty at the top level). */
  prefix: string;
}

/** The last commit that touched a file. */
export interface LastChange {
  commit: string;
  author: string;
  date: string;
}

// Hooks and tools may export these; they would point git at another repository than the folder's.
const GIT_ENV_TO_DROP = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_PREFIX', 'GIT_COMMON_DIR'];

function runGit(cwd: string, args: string[]): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' };
  for (const name of GIT_ENV_TO_DROP) delete env[name];
  // A process start takes files (its pipes) like a read: a start refused for EMFILE or EAGAIN is
  // tried again, rather than a set served without provenance until the next commit.
  return withFileSlot(
    () =>
      new Promise((resolve, reject) => {
        execFile('git', args, { cwd, env, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' }, (error, stdout) =>
          error ? reject(error) : resolve(stdout),
        );
      }),
  );
}

/**
 * The `.git` entry (folder or file) in `folder` or the nearest folder above it, or null. Git finds
 * a repository the same way, so without one there is no repository and no `git` process to start.
 */
export async function findGitEntry(folder: string): Promise<string | null> {
  for (let current = folder; ; current = dirname(current)) {
    const entry = join(current, '.git');
    if (
      await stat(entry).then(
        () => true,
        () => false,
      )
    )
      return entry;
    if (dirname(current) === current) return null;
  }
}

/** The repository holding `folder`, or null when it is not in one (or git is not installed). */
export async function locateGitRepository(folder: string): Promise<GitLocation | null> {
  if ((await findGitEntry(folder)) === null) return null;
  try {
    const output = await runGit(folder, ['rev-parse', '--show-prefix', '--absolute-git-dir']);
    const [prefix = '', gitDir = ''] = output.replace(/\n$/, '').split('\n');
    return gitDir ? { gitDir, prefix } : null;
  } catch {
    return null;
  }
}

/**
 * A cheap fingerprint of the repository's history: `HEAD`, the branch it points at, packed refs and
 * the reflog change on every commit, checkout and reset, so provenance is recomputed only when one
 * of them moved.
 */
export async function historyFingerprint(location: GitLocation): Promise<string> {
  const head = await readFile(join(location.gitDir, 'HEAD'), 'utf8').catch(() => '');
  const branchRef = branchRefOf(head);
  const files = ['logs/HEAD', 'packed-refs', ...(branchRef ? [branchRef] : [])];
  const parts = await Promise.all(
    files.map((name) =>
      stat(join(location.gitDir, name)).then(
        (info) => `${info.mtimeMs}:${info.size}`,
        () => '-',
      ),
    ),
  );
  return [head.trim(), ...parts].join('|');
}

function branchRefOf(head: string): string | undefined {
  return /^ref: (\S+)/.exec(head)?.[1];
}

/** A running {@link watchHistory}. */
export interface HistoryWatcher {
  /** Resolves once the repository is watched and its current state is known. */
  ready: Promise<void>;
  close(): void;
}

/**
 * Tells `onMove` when the repository's history moved (a commit, checkout, reset, pull...): the
 * files {@link historyFingerprint} reads are watched (the git directory, its `logs/` folder and the
 * folder of the branch `HEAD` points at, one system watch each), and after a quiet `settleMs` the
 * fingerprint is compared with the last one. Git writes many other files there (the index, lock
 * files), so only a moved fingerprint is told: a `git status` or `git add` tells nothing. No git
 * process is started.
 *
 * @example
 * const watcher = watchHistory(location, () => caches.clear(), console.error);
 * await watcher.ready;
 */
export function watchHistory(
  location: GitLocation,
  onMove: () => void,
  onError: (error: unknown) => void,
  settleMs = 50,
): HistoryWatcher {
  const watchers = new Map<string, FSWatcher>();
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last: string | null = null;
  let checking: Promise<void> = Promise.resolve();

  const watchFolder = (folder: string) => {
    if (closed || watchers.has(folder)) return;
    try {
      const watcher = watch(folder, { persistent: true }, () => schedule());
      watcher.on('error', (error) => {
        watcher.close();
        watchers.delete(folder);
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT' && code !== 'EPERM') onError(error);
      });
      watchers.set(folder, watcher);
    } catch (error) {
      // A repository without reflogs has no logs/; a worktree keeps its branches in the common directory.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') onError(error);
    }
  };

  /** Watches the folder of the branch HEAD points at now; a checkout may have moved it. */
  const watchBranchFolder = async () => {
    const head = await readFile(join(location.gitDir, 'HEAD'), 'utf8').catch(() => '');
    const branchRef = branchRefOf(head);
    if (branchRef) watchFolder(dirname(join(location.gitDir, branchRef)));
  };

  const check = () => {
    checking = checking.then(async () => {
      if (closed) return;
      await watchBranchFolder();
      const now = await historyFingerprint(location);
      if (closed || now === last) return;
      const moved = last !== null;
      last = now;
      if (moved) onMove();
    });
    return checking;
  };

  const schedule = () => {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(() => void check(), settleMs);
  };

  watchFolder(location.gitDir);
  watchFolder(join(location.gitDir, 'logs'));
  const ready = check().catch(onError);
  return {
    ready,
    close() {
      closed = true;
      clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}

/** `git log` of `folder` in `format`, each commit followed by the files it touched (NUL-separated). */
function logFileNames(folder: string, format: string): Promise<string> {
  return runGit(folder, [
    '-c',
    'core.quotepath=off',
    '-c',
    'log.showSignature=false',
    'log',
    '--no-color',
    '--no-renames',
    `--format=${format}`,
    '--name-only',
    '-z',
    '--',
    '.',
  ]);
}

/**
 * The last change of every file under `folder`, from ONE `git log` over the whole folder (newest
 * first, so the first time a file appears is its last change). Keys are paths relative to the
 * folder with `/` separators.
 */
export async function readLastChanges(folder: string, location: GitLocation): Promise<Map<string, LastChange>> {
  const output = await logFileNames(folder, '%x1e%H%x1f%an%x1f%aI');
  return parseLastChanges(output, location.prefix);
}

/** Parses the `git log` output of {@link readLastChanges}; exported for its tests. */
export function parseLastChanges(output: string, prefix: string): Map<string, LastChange> {
  const changes = new Map<string, LastChange>();
  for (const record of output.split('\x1e')) {
    const headerEnd = record.indexOf('\0');
    if (headerEnd === -1) continue;
    const [commit, author, date] = record.slice(0, headerEnd).split('\x1f');
    if (!commit || author === undefined || !date) continue;
    for (const name of record
      .slice(headerEnd + 1)
      .replace(/^\n/, '')
      .split('\0')) {
      if (!name?.startsWith(prefix)) continue;
      const file = name.slice(prefix.length);
      if (!changes.has(file)) changes.set(file, { commit, author, date });
    }
  }
  return changes;
}

/** The git history of one set folder, read once per repository state. */
export interface GitHistory {
  /** Where the folder sits in its repository, or null when it is in none (found once). */
  location(): Promise<GitLocation | null>;
  /** The last change of every file under the folder, or null when the folder is in no repository. */
  lastChanges(): Promise<Map<string, LastChange> | null>;
}

interface HistoryCacheFile {
  version: 1;
  folder: string;
  /** The `.git` entry found above the folder when the cache was written. */
  entry: string;
  location: GitLocation;
  fingerprint: string;
  changes: Array<[file: string, commit: string, author: string, date: string]>;
}

const HISTORY_CACHE_VERSION = 1;

/**
 * The history of `folder`: {@link readLastChanges} again only when {@link historyFingerprint} moved.
 * With `cacheDir`, the result is also kept on disk keyed by the repository's state, so a restart
 * without new commits, checkouts or resets reads it back without starting `git` at all (the
 * repository is found by its `.git` entry, and the history state from files under it).
 *
 * @example
 * const history = createGitHistory('/repo/docs', '/repo/.kit/cache');
 * (await history.lastChanges())?.get('index.md'); // { commit, author, date }
 */
export function createGitHistory(folder: string, cacheDir?: string): GitHistory {
  const cacheFile = cacheDir
    ? join(cacheDir, 'git', `${createHash('sha256').update(folder).digest('hex').slice(0, 24)}.json`)
    : null;
  let stored: Promise<HistoryCacheFile | null> | null = null;
  let location: Promise<{ entry: string; location: GitLocation } | null> | null = null;
  let current: { fingerprint: string; changes: Promise<Map<string, LastChange>> } | null = null;

  const readStored = () => {
    stored ??= cacheFile
      ? readFile(cacheFile, 'utf8').then(
          (text) => {
            const parsed = JSON.parse(text) as HistoryCacheFile;
            return parsed.version === HISTORY_CACHE_VERSION && parsed.folder === folder ? parsed : null;
          },
          () => null,
        )
      : Promise.resolve(null);
    return stored;
  };

  const locate = async () => {
    const entry = await findGitEntry(folder);
    if (entry === null) return null;
    // The same `.git` entry as when the cache was written: the repository and the folder's place in
    // it are the same, no need to ask git again.
    const known = await readStored();
    if (known && known.entry === entry) return { entry, location: known.location };
    const found = await locateGitRepository(folder);
    return found ? { entry, location: found } : null;
  };

  const read = async (entry: string, where: GitLocation, fingerprint: string) => {
    const known = await readStored();
    if (
      known &&
      known.fingerprint === fingerprint &&
      known.location.gitDir === where.gitDir &&
      known.location.prefix === where.prefix
    ) {
      return new Map(known.changes.map(([file, commit, author, date]) => [file, { commit, author, date }]));
    }
    const changes = await readLastChanges(folder, where);
    if (cacheFile) {
      const record: HistoryCacheFile = {
        version: HISTORY_CACHE_VERSION,
        folder,
        entry,
        location: where,
        fingerprint,
        changes: [...changes].map(([file, change]) => [file, change.commit, change.author, change.date]),
      };
      stored = Promise.resolve(record);
      // A cache that cannot be written only costs the next start a `git log`.
      void writeFileAtomically(cacheFile, JSON.stringify(record)).catch(() => undefined);
    }
    return changes;
  };

  return {
    async location() {
      location ??= locate();
      return (await location)?.location ?? null;
    },
    async lastChanges() {
      location ??= locate();
      const found = await location;
      if (!found) return null;
      const fingerprint = await historyFingerprint(found.location);
      if (!current || current.fingerprint !== fingerprint) {
        current = {
          fingerprint,
          changes: read(found.entry, found.location, fingerprint).catch(() => new Map<string, LastChange>()),
        };
      }
      return current.changes;
    },
  };
}

/** Every commit touching files under a folder, newest first, and the newest commit of each file. */
export interface FileHistory {
  /** Commits in `git log` order (newest first): full hash and commit date (ISO 8601). */
  commits: Array<{ commit: string; date: string }>;
  /** Each file (relative to the folder, `/` separators) and the index in `commits` of its newest change. */
  latest: Map<string, number>;
}

/**
 * The history of every file under `folder` from ONE `git log` (commit dates, which order commits
 * as they landed, unlike author dates a rebase keeps). A file deleted since is listed too: its
 * deletion is its newest change.
 */
export async function readFileHistory(folder: string, location: GitLocation): Promise<FileHistory> {
  const output = await logFileNames(folder, '%x1e%H%x1f%cI');
  return parseFileHistory(output, location.prefix);
}

/** Parses the `git log` output of {@link readFileHistory}; exported for its tests. */
export function parseFileHistory(output: string, prefix: string): FileHistory {
  const commits: FileHistory['commits'] = [];
  const latest = new Map<string, number>();
  for (const record of output.split('\x1e')) {
    const headerEnd = record.indexOf('\0');
    const header = headerEnd === -1 ? record.replace(/\n+$/, '') : record.slice(0, headerEnd);
    const [commit, date] = header.split('\x1f');
    if (!commit || !date) continue;
    const index = commits.push({ commit, date: date.trim() }) - 1;
    if (headerEnd === -1) continue;
    for (const name of record
      .slice(headerEnd + 1)
      .replace(/^\n/, '')
      .split('\0')) {
      if (!name?.startsWith(prefix)) continue;
      const file = name.slice(prefix.length);
      if (file !== '' && !latest.has(file)) latest.set(file, index);
    }
  }
  return { commits, latest };
}
