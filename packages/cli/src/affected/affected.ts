import { execFile } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { basename, relative, resolve, sep } from 'node:path';
import { type Kit, type KitEnv, KitError } from '@kit/core';
import type { AffectedPagesInput } from '@kit/mcp';
import { type AffectedPage, matchAffectedPages, type SourcedPage, sourcesOf } from './match.js';

export interface AffectedPagesOptions {
  /** The loaded kit (its config root is the project root). */
  kit: Kit;
  /** Commit, branch or tag to compare with. Default: the default branch. */
  base?: string;
  /** Default `HEAD`. */
  head?: string;
  /** Count uncommitted work (staged, unstaged and untracked files). @default true */
  uncommitted?: boolean;
  /** Only this set. Default: every set. */
  set?: string;
  /** Also list pages that drifted before this change. @default false */
  drift?: boolean;
  /** The environment the config was resolved from, to say where a wrong default branch came from. Default `process.env`. */
  env?: KitEnv;
}

/** What `kit affected --json` prints and the `affected_pages` tool returns. */
export interface AffectedResult {
  /** The base as given or detected (e.g. `origin/main`). */
  base: string;
  head: string;
  uncommitted: boolean;
  /** Files changed between the merge base and head, plus uncommitted work, relative to the project root. */
  changed: string[];
  pages: AffectedPage[];
}

/**
 * Pages whose `sources:` match files changed between `base` (default: the default branch) and
 * `head`, plus uncommitted work; each `updated` (the page changed too) or `stale`. With `drift`,
 * pages whose sources changed in a commit after the page's own last change are listed as well.
 * The check behind `kit affected`, `kit hook` and the local `affected_pages` MCP tool.
 *
 * @example
 * const { pages } = await affectedPages({ kit, drift: true });
 * pages.filter((page) => page.status === 'stale');
 */
export async function affectedPages(options: AffectedPagesOptions): Promise<AffectedResult> {
  const { root, git, top, base, head, mergeBase, uncommitted } = await comparedRange(options);
  const fromTop = new Set<string>(lines(await git(['diff', '--name-only', '--no-renames', mergeBase, head, '--'])));
  if (uncommitted) {
    for (const file of lines(await git(['diff', '--name-only', '--no-renames', 'HEAD', '--']).catch(() => '')))
      fromTop.add(file);
    for (const file of lines(await git(['ls-files', '--others', '--exclude-standard', '--full-name'])))
      fromTop.add(file);
  }
  const toProject = projectRelative(top, root);
  const changed = [...fromTop].flatMap((file) => {
    const mapped = toProject(file);
    return mapped === null ? [] : [mapped];
  });

  const pages = await sourcedPages(options.kit, options.set, root);
  const affected = matchAffectedPages(pages, changed);

  if (options.drift) {
    const listed = new Set(affected.map(pageKey));
    const changedSince = new Map<string, Promise<string[]>>();
    for (const page of pages) {
      if (page.sources.length === 0 || page.file === undefined || listed.has(pageKey(page))) continue;
      const pageFile = fromProjectToTop(top, root, page.file);
      const last = (await git(['log', '-1', '--format=%H', head, '--', pageFile]).catch(() => '')).trim();
      if (last === '') continue;
      let files = changedSince.get(last);
      if (!files) {
        files = git(['diff', '--name-only', '--no-renames', last, head, '--']).then((out) =>
          lines(out).flatMap((file) => {
            const mapped = toProject(file);
            return mapped === null ? [] : [mapped];
          }),
        );
        changedSince.set(last, files);
      }
      const [drifted] = matchAffectedPages([page], await files);
      if (drifted) affected.push({ ...drifted, status: 'stale', drift: true });
    }
  }

  affected.sort(
    (a, b) =>
      a.set.localeCompare(b.set) ||
      a.version.localeCompare(b.version) ||
      a.locale.localeCompare(b.locale) ||
      a.path.localeCompare(b.path),
  );
  return { base, head, uncommitted, changed: changed.sort(), pages: affected };
}

/** The commits a check compares, verified: the base and head as given or detected, and their merge base. */
async function comparedRange(options: Pick<AffectedPagesOptions, 'kit' | 'base' | 'head' | 'uncommitted' | 'env'>) {
  const root = realPath(options.kit.config.root);
  const git = gitIn(root);
  const top = (await git(['rev-parse', '--show-toplevel']).catch(() => null))?.trim();
  if (!top) {
    throw new KitError(
      'source.error',
      `${root} is not inside a git repository; kit affected compares git commits. Run it inside the project's repository.`,
    );
  }
  const head = options.head ?? 'HEAD';
  const configured = options.kit.config.instructions.default_branch;
  const base = options.base ?? (await defaultBranch(git, configured));
  const uncommitted = options.uncommitted !== false;
  if (options.base === undefined && configured) {
    await verifyDefaultBranch(git, configured, options.env ?? process.env, options.kit.config.file ?? null);
  } else await verifyCommit(git, base, 'base');
  await verifyCommit(git, head, 'head');

  const mergeBase = (await git(['merge-base', base, head]).catch(() => null))?.trim() || base;
  return { root, git, top, base, head, mergeBase, uncommitted };
}

/**
 * The unified diff of the change `affectedPages` looks at, with the same options: from the merge
 * base of `base` and `head` to `head`, or to the working tree (staged and unstaged work) when
 * `uncommitted` is on and `head` is `HEAD`. Paths are relative to the project root; files outside
 * it are left out. Renames show as a deletion and an addition, so each side is one path.
 *
 * @example
 * const { text } = await changeDiff({ kit, base: 'main' });
 */
export async function changeDiff(
  options: Pick<AffectedPagesOptions, 'kit' | 'base' | 'head' | 'uncommitted' | 'env'>,
): Promise<{ base: string; head: string; text: string }> {
  const { git, base, head, mergeBase, uncommitted } = await comparedRange(options);
  const toWorkingTree = uncommitted && head === 'HEAD';
  // git runs in the project root: --relative keeps the diff to it, with paths relative to it.
  const text = await git([
    'diff',
    '--no-color',
    '--no-renames',
    '--no-ext-diff',
    '--relative',
    mergeBase,
    ...(toWorkingTree ? [] : [head]),
    '--',
  ]);
  return { base, head, text };
}

/** Every page of the kit (or one set) that declares `sources:`, in every version and locale. */
export async function sourcedPages(
  kit: Kit,
  setKey?: string,
  root = realPath(kit.config.root),
): Promise<SourcedPage[]> {
  const sets = setKey !== undefined ? [kit.set(setKey)] : [...kit.sets.values()];
  const found: SourcedPage[] = [];
  for (const docSet of sets) {
    const versions = await docSet.versions({ user: null, local: true });
    const locales = await docSet.locales();
    for (const version of versions) {
      for (const locale of locales) {
        for (const page of await docSet.source.listPages(version.id, locale.code)) {
          const sources = sourcesOf(page.frontmatter);
          if (sources.length === 0) continue;
          const file =
            page.file !== undefined && docSet.source.kind === 'repository'
              ? toSlashes(relative(root, resolve(realPath(docSet.config.source.path), page.file)))
              : undefined;
          found.push({
            set: docSet.key,
            version: version.id,
            locale: locale.code,
            path: page.path,
            title: page.title,
            ...(file !== undefined ? { file } : {}),
            sources,
          });
        }
      }
    }
  }
  return found;
}

type Git = (args: string[]) => Promise<string>;

function gitIn(cwd: string): Git {
  return (args) =>
    new Promise((resolvePromise, reject) => {
      execFile(
        'git',
        args,
        { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } },
        (error, stdout, stderr) => {
          if (error) reject(new Error(stderr.trim() || error.message));
          else resolvePromise(stdout);
        },
      );
    });
}

/**
 * The branch changes are compared with: `instructions.default_branch`, else the remote's HEAD
 * (`origin/main`), else a local `main` or `master`.
 */
export async function defaultBranch(git: Git, configured: string | null): Promise<string> {
  if (configured) return configured;
  const remote = (await git(['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD']).catch(() => '')).trim();
  if (remote.startsWith('refs/remotes/')) return remote.slice('refs/remotes/'.length);
  for (const candidate of ['main', 'master']) {
    const found = await git(['rev-parse', '--verify', '--quiet', `refs/heads/${candidate}`]).catch(() => '');
    if (found.trim() !== '') return candidate;
  }
  throw new KitError(
    'argument.invalid',
    'Cannot tell the default branch: no origin/HEAD and no main or master branch. Pass --base <branch>, or set instructions.default_branch (env KIT_DEFAULT_BRANCH).',
  );
}

async function verifyCommit(git: Git, ref: string, what: string): Promise<void> {
  const found = await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).catch(() => '');
  if (found.trim() === '') {
    throw new KitError(
      'argument.invalid',
      `The ${what} "${ref}" is not a commit, branch or tag of this repository. Pass an existing one with --${what}.`,
    );
  }
}

/** A configured default branch that does not exist, named with where it was set. */
async function verifyDefaultBranch(git: Git, branch: string, env: KitEnv, configFile: string | null): Promise<void> {
  const found = await git(['rev-parse', '--verify', '--quiet', `${branch}^{commit}`]).catch(() => '');
  if (found.trim() !== '') return;
  const fromEnv = env.KIT_DEFAULT_BRANCH?.trim() === branch;
  const where = fromEnv
    ? 'the KIT_DEFAULT_BRANCH environment variable (instructions.default_branch)'
    : `instructions.default_branch in ${configFile ? basename(configFile) : 'the config'}`;
  throw new KitError(
    'argument.invalid',
    `The default branch "${branch}" from ${where} is not a commit, branch or tag of this repository. ${fromEnv ? 'Set KIT_DEFAULT_BRANCH to an existing branch or unset it' : 'Set instructions.default_branch to an existing branch, or null to detect it'}, or pass --base <branch>.`,
    { details: { branch, source: fromEnv ? 'KIT_DEFAULT_BRANCH' : 'instructions.default_branch' } },
  );
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function lines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

function toSlashes(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/** Maps a path relative to the git top level onto the project root; null when outside the project. */
function projectRelative(top: string, root: string): (file: string) => string | null {
  return (file) => {
    const path = toSlashes(relative(root, resolve(top, file)));
    return path.startsWith('../') || path === '..' ? null : path;
  };
}

function fromProjectToTop(top: string, root: string, file: string): string {
  return toSlashes(relative(top, resolve(root, file)));
}

function pageKey(page: { set: string; version: string; locale: string; path: string }): string {
  return `${page.set}\u0000${page.version}\u0000${page.locale}\u0000${page.path}`;
}

/**
 * An `affected_pages` function for the local MCP server: the same check as `kit affected --json`,
 * bound to a kit.
 *
 * @example
 * const affected = affectedFor(kit);
 * await affected({ drift: true });
 */
export function affectedFor(kit: Kit): (input: AffectedPagesInput) => Promise<AffectedResult> {
  return (input) => affectedPages({ kit, ...input });
}
