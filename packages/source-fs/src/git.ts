import { execFile } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

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
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, env, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
  });
}

/** The repository holding `folder`, or null when it is not in one (or git is not installed). */
export async function locateGitRepository(folder: string): Promise<GitLocation | null> {
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
  const branchRef = /^ref: (\S+)/.exec(head)?.[1];
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

/**
 * The last change of every file under `folder`, from ONE `git log` over the whole folder (newest
 * first, so the first time a file appears is its last change). Keys are paths relative to the
 * folder with `/` separators.
 */
export async function readLastChanges(folder: string, location: GitLocation): Promise<Map<string, LastChange>> {
  const output = await runGit(folder, [
    '-c',
    'core.quotepath=off',
    '-c',
    'log.showSignature=false',
    'log',
    '--no-color',
    '--no-renames',
    '--format=%x1e%H%x1f%an%x1f%aI',
    '--name-only',
    '-z',
    '--',
    '.',
  ]);
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
