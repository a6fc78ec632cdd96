import { createHash } from 'node:crypto';
import { createReadStream, type Dirent, type Stats } from 'node:fs';
import { readFile, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import type {
  ContentChange,
  ContentSource,
  ContentWriter,
  NormalizedManifest,
  Provenance,
  SkillFile,
  SourceFile,
  SourceFileContent,
  SourcePage,
  SourceProblem,
} from '@kit/core';
import {
  isServableFileName,
  KitError,
  normalizeForHash,
  normalizeManifest,
  type ParsedPageFile,
  pagePathProblem,
  parseManifestText,
  parsePageFile,
  showPagePath,
} from '@kit/core';
import { withFileSlot } from '@kit/core/node';
import { problemsOf, readEvery, setFiles, unreadableError } from './file-reads.js';
import { listSetFiles } from './files.js';
import { createGitHistory, type GitHistory, type HistoryWatcher, type LastChange, watchHistory } from './git.js';
import { isIgnoredName, MANIFEST_FILE, NAVIGATION_FILE, type SetLayout, SKILLS_FOLDER, setLayout } from './layout.js';
import { type FolderWatcher, watchFolder } from './watch.js';
import { createFsWriter } from './writer.js';

/** Options of {@link createFsSource}. */
export interface FsSourceOptions {
  /** The set folder: the one holding `kit.json` (`source.path` in the configuration). */
  root: string;
  /** The set key, used for manifest defaults such as the set name. */
  setKey: string;
  /**
   * Read page provenance (last author, date, commit) from git when the folder is in a repository.
   * @default true
   */
  git?: boolean;
  /**
   * Watch the folder and refresh only what changed, telling `watch()` listeners. For development.
   * @default false
   */
  watch?: boolean;
  /**
   * A folder to keep what is slow to find out between runs: the git history of the set, keyed by
   * the repository's state, so a restart without new commits starts no `git` process. The CLI
   * and the reference server pass `<project>/.kit/cache`.
   */
  cacheDir?: string;
}

/** A repository set's content source. */
export interface FsContentSource extends ContentSource {
  readonly kind: 'repository';
  /** The set folder, absolute. */
  readonly root: string;
  /**
   * Writes pages, navigation files and `kit.json` into the set folder for the author tools; see
   * `ContentWriter`. A read right after a write sees it, with or without `watch`.
   */
  readonly writer: ContentWriter;
  /** Resolves once the folder is being watched (at once when `watch` is off). */
  ready(): Promise<void>;
  problems(): Promise<SourceProblem[]>;
  close(): Promise<void>;
}

interface CachedPage {
  fingerprint: string;
  parsed: ParsedPageFile;
  /** The count of disk changes when the file was last checked under a healthy watch (see `diskChanges`). */
  checkedAt?: number;
}

interface ManifestState {
  fingerprint: string;
  /** As for {@link CachedPage.checkedAt}. */
  checkedAt?: number;
  text: string | null;
  manifest: NormalizedManifest;
  layout: SetLayout;
}

interface PageFileRef {
  file: string;
  path: string;
}

/**
 * Serves a repository set: the Markdown files, navigation, skills and stylesheets of one folder.
 *
 * Pages are cached in memory by file modification time and size, so listing a version twice reads
 * only files that changed. Where the folder is in a git repository, each page carries its last
 * change (one `git log` for the whole folder, kept in `cacheDir` between runs) as its provenance
 * and update date; outside git a page has neither. When the manifest names a repository, pages
 * carry an edit link of the shape `{docsUrl}/edit/{branch}/{docsPath}/{file}`. With `watch: true`
 * the folder is watched (one system watch per folder), and so is the repository's HEAD while
 * provenance is on (a commit re-dates pages without touching them); every change is told to
 * `watch()` listeners. No file is read through a link that leads out of the set folder.
 *
 * `writer` writes pages, navigation files and `kit.json` back into the folder for the author tools
 * (compare-and-swap on the content hash, atomic files, never outside the set folder, no drafts);
 * it refreshes what the source cached and tells `watch()` listeners before it returns.
 *
 * @example
 * const source = createFsSource({ root: 'docs', setKey: 'docs', watch: process.env.NODE_ENV !== 'production' });
 * const pages = await source.listPages('3.x', 'en');
 */
export function createFsSource(options: FsSourceOptions): FsContentSource {
  if (typeof options?.root !== 'string' || options.root.trim() === '') {
    throw new KitError('argument.invalid', 'createFsSource needs `root`: the folder holding the set (kit.json).');
  }
  if (typeof options.setKey !== 'string' || options.setKey.trim() === '') {
    throw new KitError('argument.invalid', 'createFsSource needs `setKey`: the key of the set in the configuration.');
  }
  const root = resolve(options.root);
  const disk = setFiles(options.setKey);
  const useGit = options.git !== false;
  const pageCache = new Map<string, CachedPage>();
  // Only trusted while the watcher keeps it honest.
  const listingCache = new Map<string, Promise<{ files: PageFileRef[]; problems: SourceProblem[] }>>();
  const listeners = new Set<(change: ContentChange) => void>();
  let manifestState: ManifestState | null = null;
  let realRootPromise: Promise<string | null> | null = null;
  let gitHistory: GitHistory | null = null;
  let watcher: FolderWatcher | null = null;
  let historyWatcher: HistoryWatcher | null = null;
  let closed = false;
  // Content hashes of served files by absolute path, kept while the file's size and mtime stay.
  const fileHashes = new Map<string, { fingerprint: string; hash: string }>();
  let watchProblem: SourceProblem | null = null;
  // Every watch event and own write counts here. A file checked on disk (link target, size, mtime)
  // under a healthy watch with no change counted since needs no checking again: the watch tells of
  // any change to it, a file replaced by a link out of the set folder included. Reads then cost no
  // system call, which is what lets a server answer a signed-in reader's page from memory.
  let diskChanges = 0;
  let watchHealthy = false;
  const checkedWhile = (at: number | undefined) =>
    at !== undefined && at === diskChanges && watchHealthy && watchProblem === null && !closed;
  const recordWatchError = (error: unknown) => {
    watchProblem = {
      rule: 'source.watch',
      severity: 'warning',
      message: `Watching ${root} failed (${error instanceof Error ? error.message : String(error)}); changes show up on the next request instead of at once.`,
      fix: 'On Linux, raise fs.inotify.max_user_watches, or turn watching off.',
    };
  };

  const realRoot = (): Promise<string | null> => {
    realRootPromise ??= withFileSlot(() => realpath(root)).catch(() => {
      realRootPromise = null;
      return null;
    });
    return realRootPromise;
  };

  const isInside = (base: string, target: string) => target === base || target.startsWith(base + sep);

  /** Resolves a set-relative file, refusing anything a symlink leads outside the set folder. */
  const resolveInside = async (file: string): Promise<string | null> => {
    const base = await realRoot();
    if (!base) return null;
    const target = await disk.realpath(join(base, file), file);
    return target !== null && isInside(base, target) ? target : null;
  };

  const fingerprintOf = async (absolute: string, file: string): Promise<string | null> => {
    const info = await disk.stat(absolute, file);
    return info?.isFile() ? `${info.mtimeMs}:${info.size}` : null;
  };

  const currentManifest = async (): Promise<ManifestState> => {
    if (manifestState && checkedWhile(manifestState.checkedAt)) return manifestState;
    const checkedAt = watchHealthy ? diskChanges : undefined;
    // A kit.json that links out of the set folder is as good as missing, like any other file.
    const absolute = await resolveInside(MANIFEST_FILE);
    const fingerprint = (absolute && (await fingerprintOf(absolute, MANIFEST_FILE))) ?? 'missing';
    if (manifestState && manifestState.fingerprint === fingerprint) {
      manifestState.checkedAt = checkedAt;
      return manifestState;
    }
    const text = absolute && fingerprint !== 'missing' ? await disk.readText(absolute, MANIFEST_FILE) : null;
    // Manifest problems are the manifest's to report (kit validate parses readManifest() itself).
    const { manifest } =
      text === null ? normalizeManifest(undefined, options.setKey) : parseManifestText(text, options.setKey);
    // Versions and locales may have changed, and with them every folder listing.
    if (manifestState) listingCache.clear();
    manifestState = {
      fingerprint,
      text,
      manifest,
      layout: setLayout(manifest),
      ...(checkedAt !== undefined ? { checkedAt } : {}),
    };
    return manifestState;
  };

  const scopeKey = (version: string, locale: string) => `${version}\0${locale}`;

  const walkPages = async (
    layout: SetLayout,
    version: string,
    locale: string,
  ): Promise<{ files: PageFileRef[]; problems: SourceProblem[] }> => {
    const folder = layout.pageFolder(version, locale);
    const base = await realRoot();
    const files: PageFileRef[] = [];
    const problems: SourceProblem[] = [];
    if (folder === null || !base) return { files, problems };
    // A version or locale folder that is a link out of the set is as good as missing.
    if (folder !== '' && !(await resolveInside(folder))) return { files, problems };
    const reserved = layout.reservedNames(version, locale);
    const visited = new Set<string>();

    // What cannot be read is told as a `source.read` problem, which listPages turns into an error.
    const visit = async (dir: string, top: boolean): Promise<void> => {
      let entries: Dirent[] | null;
      try {
        // None when the folder is gone: a version without its folder, or one deleted meanwhile.
        entries = await disk.readdir(join(base, dir), dir || '.');
      } catch (error) {
        problems.push(...problemsOf(error));
        return;
      }
      for (const entry of entries ?? []) {
        if (isIgnoredName(entry.name) || (top && reserved.has(entry.name))) continue;
        const file = dir ? `${dir}/${entry.name}` : entry.name;
        let isDirectory = entry.isDirectory();
        let isFile = entry.isFile();
        if (entry.isSymbolicLink()) {
          let target: string | null;
          let info: Stats | null = null;
          try {
            target = await resolveInside(file);
            if (target) info = await disk.stat(target, file);
          } catch (error) {
            problems.push(...problemsOf(error));
            continue;
          }
          if (!target) {
            problems.push(symlinkProblem(file));
            continue;
          }
          isDirectory = info?.isDirectory() ?? false;
          isFile = info?.isFile() ?? false;
          if (isDirectory) {
            if (visited.has(target)) continue;
            visited.add(target);
          }
        }
        if (isDirectory) await visit(file, false);
        else if (isFile && entry.name.endsWith('.md')) {
          const located = layout.locate(file);
          if (located && located.version === version && located.locale === locale) {
            files.push({ file, path: located.path });
          } else if (!located) {
            const refused = pagePathProblem(file.slice(0, -'.md'.length));
            if (refused) problems.push(pagePathFileProblem(file, refused));
          }
        }
      }
    };
    await visit(folder, true);
    files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { files, problems };
  };

  const pageFiles = (layout: SetLayout, version: string, locale: string) => {
    if (!options.watch || !watcher) return walkPages(layout, version, locale);
    const key = scopeKey(version, locale);
    let listing = listingCache.get(key);
    if (!listing) {
      const walking = walkPages(layout, version, locale);
      listing = walking;
      listingCache.set(key, walking);
      // A listing that could not read everything is walked again next time, not kept as it is.
      const forget = () => {
        if (listingCache.get(key) === walking) listingCache.delete(key);
      };
      walking.then(({ problems }) => problems.some(isReadProblem) && forget(), forget);
    }
    return listing;
  };

  const history = async (): Promise<GitHistory | null> => {
    const base = await realRoot();
    if (!base) return null;
    gitHistory ??= createGitHistory(base, options.cacheDir);
    return gitHistory;
  };

  const lastChanges = async (state: ManifestState): Promise<Map<string, LastChange> | null> => {
    if (!useGit || !state.manifest.provenance) return null;
    return (await history())?.lastChanges() ?? null;
  };

  /**
   * Watches the repository's HEAD while provenance is shown: a commit changes no file of the set
   * folder (and `.git` is never watched with it), yet it changes the provenance and update date of
   * the committed pages, so listeners must hear of it to drop what they built from the old history.
   */
  const watchRepository = async (): Promise<void> => {
    if (!useGit || historyWatcher || closed || !manifestState?.manifest.provenance) return;
    const location = await (await history())?.location();
    if (!location || historyWatcher || closed) return;
    const started = watchHistory(
      location,
      () => {
        if (!closed && manifestState?.manifest.provenance) emit({ kind: 'page' });
      },
      recordWatchError,
    );
    historyWatcher = started;
    await started.ready;
  };

  const readPage = async (
    state: ManifestState,
    ref: PageFileRef,
    version: string,
    locale: string,
    changes: Map<string, LastChange> | null,
  ): Promise<SourcePage | null> => {
    let cached = pageCache.get(ref.file);
    if (cached && checkedWhile(cached.checkedAt)) {
      return toSourcePage(state.manifest, ref, version, locale, cached.parsed, changes?.get(ref.file));
    }
    const checkedAt = watchHealthy ? diskChanges : undefined;
    // Checked on every read the watch cannot vouch for, not only when listing: a listing kept while
    // watching may be older than the link that now stands where the page was.
    // Absent is a page deleted meanwhile; a file that cannot be read throws, never drops the page.
    const absolute = await resolveInside(ref.file);
    if (!absolute) return null;
    const info = await disk.stat(absolute, ref.file);
    if (!info?.isFile()) return null;
    const fingerprint = `${info.mtimeMs}:${info.size}`;
    cached = pageCache.get(ref.file);
    if (!cached || cached.fingerprint !== fingerprint) {
      const text = await disk.readText(absolute, ref.file);
      if (text === null) return null;
      cached = { fingerprint, parsed: parsePageFile(text, ref.file) };
      pageCache.set(ref.file, cached);
    }
    cached.checkedAt = checkedAt;
    return toSourcePage(state.manifest, ref, version, locale, cached.parsed, changes?.get(ref.file));
  };

  const emit = (change: ContentChange) => {
    for (const listener of listeners) {
      try {
        listener(change);
      } catch {
        // One failing listener must not keep the others from hearing about the change.
      }
    }
  };

  const onFileEvent = async (event: string, absolute: string) => {
    const base = await realRoot();
    if (!base || closed) return;
    const file = relative(base, absolute).split(sep).join('/');
    if (file === MANIFEST_FILE) {
      await currentManifest();
      listingCache.clear();
      emit({ kind: 'manifest' });
      // The new manifest may turn provenance on.
      void watchRepository().catch(recordWatchError);
      return;
    }
    const { layout } = manifestState ?? (await currentManifest());
    if (event === 'addDir' || event === 'unlinkDir') {
      for (const key of pageCache.keys()) if (key.startsWith(`${file}/`)) pageCache.delete(key);
      listingCache.clear();
      if (file === SKILLS_FOLDER) emit({ kind: 'skill' });
      const scope = layout.locate(`${file}/page.md`);
      if (scope) emit({ kind: 'page', version: scope.version, locale: scope.locale });
      return;
    }
    pageCache.delete(file);
    const segments = file.split('/');
    if (basename(file) === NAVIGATION_FILE) {
      const scope = layout.navigationScope(segments.length > 1 ? dirname(file) : '');
      if (scope) {
        emit({ kind: 'navigation', ...scope });
        return;
      }
    }
    if (segments.length === 2 && segments[0] === SKILLS_FOLDER && file.endsWith('.md')) {
      emit({ kind: 'skill', path: segments[1]!.slice(0, -'.md'.length) });
      return;
    }
    const located = layout.locate(file);
    if (located) {
      const key = scopeKey(located.version, located.locale);
      const listing = listingCache.get(key);
      // A changed file keeps the listing only while it is still the listed page: replacing a file with
      // a link out of the set folder (or a skipped link with a file) is a "change" too.
      if (listing && (event !== 'change' || !(await stillListed(listing, file)))) {
        if (listingCache.get(key) === listing) listingCache.delete(key);
      }
      emit({ kind: 'page', ...located });
      return;
    }
    if (!file.endsWith('.md')) emit({ kind: 'asset', path: file });
  };

  const stillListed = async (listing: ReturnType<typeof walkPages>, file: string): Promise<boolean> => {
    const { files } = await listing.catch(() => ({ files: [] as PageFileRef[] }));
    return files.some((ref) => ref.file === file) && (await resolveInside(file)) !== null;
  };

  const readyPromise: Promise<void> = options.watch
    ? (async () => {
        const base = await realRoot();
        if (!base || closed) return;
        await currentManifest();
        if (closed) return;
        const started = watchFolder(base, {
          ignored: isIgnoredName,
          onEvent: (event, path) => {
            diskChanges += 1;
            // A file that cannot be read now fails the next read, which names it; listeners reload.
            void onFileEvent(event, path).catch(() => {
              listingCache.clear();
              emit({ kind: 'manifest' });
            });
          },
          onError: recordWatchError,
        });
        watcher = started;
        await Promise.all([started.ready, watchRepository()]);
        watchHealthy = !closed;
      })().catch(recordWatchError)
    : Promise.resolve();

  const writer = createFsWriter({
    root,
    realRoot,
    layout: async () => (await currentManifest()).layout,
    changed(files, changes) {
      diskChanges += 1;
      for (const file of files) pageCache.delete(file);
      for (const change of changes) {
        if (change.kind === 'manifest') {
          // Versions and locales may have changed: derive the layout again on the next read.
          manifestState = null;
          listingCache.clear();
          if (watcher) void currentManifest().then(watchRepository).catch(recordWatchError);
        } else if (change.kind === 'page' && change.version !== undefined && change.locale !== undefined) {
          listingCache.delete(scopeKey(change.version, change.locale));
        }
      }
      for (const change of changes) emit(change);
    },
  });

  const source: FsContentSource = {
    kind: 'repository',
    root,
    writer,

    ready: () => readyPromise,

    async readManifest(): Promise<SourceFile | null> {
      const state = await currentManifest();
      return state.text === null ? null : { text: state.text, file: MANIFEST_FILE };
    },

    async listPages(version, locale) {
      const state = await currentManifest();
      const [listing, changes] = await Promise.all([pageFiles(state.layout, version, locale), lastChanges(state)]);
      const unread = listing.problems.filter(isReadProblem);
      if (unread.length > 0) throw unreadableError(options.setKey, unread);
      return readEvery(options.setKey, listing.files, (ref) => readPage(state, ref, version, locale, changes));
    },

    async getPage(version, locale, path) {
      if (!isSafePagePath(path)) return null;
      const state = await currentManifest();
      const folder = state.layout.pageFolder(version, locale);
      if (folder === null) return null;
      const file = folder ? `${folder}/${path}.md` : `${path}.md`;
      const located = state.layout.locate(file);
      if (!located || located.version !== version || located.locale !== locale || located.path !== path) return null;
      return readPage(state, { file, path }, version, locale, await lastChanges(state));
    },

    async readNavigation(version, locale) {
      const state = await currentManifest();
      const folder = state.layout.pageFolder(version, locale);
      if (folder === null) return null;
      const file = folder ? `${folder}/${NAVIGATION_FILE}` : NAVIGATION_FILE;
      const absolute = await resolveInside(file);
      const text = absolute && (await disk.readText(absolute, file));
      return text === null ? null : { text, file };
    },

    async listSkills(): Promise<SkillFile[]> {
      const base = await realRoot();
      if (!base) return [];
      const entries = (await disk.readdir(join(base, SKILLS_FOLDER), SKILLS_FOLDER)) ?? [];
      const names = entries
        .map((entry) => entry.name)
        .filter((name) => !isIgnoredName(name) && name.endsWith('.md') && name !== '.md')
        .sort();
      return readEvery(options.setKey, names, async (name): Promise<SkillFile | null> => {
        const file = `${SKILLS_FOLDER}/${name}`;
        const absolute = await resolveInside(file);
        const text = absolute && (await disk.readText(absolute, file));
        return text === null ? null : { name: name.slice(0, -'.md'.length), content: normalizeForHash(text) };
      });
    },

    async readAsset(name) {
      if (!isSafeAssetName(name)) return null;
      const absolute = await resolveInside(name);
      if (!absolute) return null;
      const info = await disk.stat(absolute, name);
      return info?.isFile() ? disk.readBytes(absolute, name) : null;
    },

    async openFile(name): Promise<SourceFileContent | null> {
      if (!isServableFileName(name)) return null;
      const base = await realRoot();
      const absolute = await resolveInside(name);
      if (!base || !absolute) return null;
      // A symlink inside the folder that points at a dotfile or a key is as refused as the file itself.
      if (!isServableFileName(relative(base, absolute).split(sep).join('/'))) return null;
      const info = await disk.stat(absolute, name);
      if (!info?.isFile()) return null;
      const fingerprint = `${info.ino}:${info.mtimeMs}:${info.size}`;
      const known = fileHashes.get(absolute);
      const remember = (hash: string) => {
        if (fileHashes.size >= FILE_HASHES_KEPT) fileHashes.delete(fileHashes.keys().next().value!);
        fileHashes.set(absolute, { fingerprint, hash });
      };
      const small = info.size <= STREAM_THRESHOLD;
      const read = async () => {
        const bytes = await withFileSlot(() => readFile(absolute));
        return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      };
      if (known?.fingerprint === fingerprint) {
        // Known bytes: a request answered 304 from the hash reads nothing more.
        return {
          size: info.size,
          contentHash: known.hash,
          open: async () =>
            small ? read() : (Readable.toWeb(createReadStream(absolute)) as ReadableStream<Uint8Array>),
        };
      }
      if (small) {
        const bytes = await disk.readBytes(absolute, name);
        if (!bytes) return null;
        const hash = bytesHash(bytes);
        remember(hash);
        return { size: bytes.byteLength, contentHash: hash, open: async () => bytes };
      }
      const hash = await disk.streamHash(absolute, name);
      if (hash === null) return null;
      remember(hash);
      return {
        size: info.size,
        contentHash: hash,
        open: async () => Readable.toWeb(createReadStream(absolute)) as ReadableStream<Uint8Array>,
      };
    },

    async listFiles() {
      return listSetFiles(await realRoot(), disk);
    },

    async problems() {
      const base = await realRoot();
      if (!base) {
        return [
          {
            rule: 'source.read',
            severity: 'error',
            message: `The set folder ${root} does not exist or cannot be read.`,
            fix: 'Create the folder, or point `source.path` of the set at the folder holding kit.json.',
          },
        ];
      }
      const state = await currentManifest();
      const problems: SourceProblem[] = watchProblem ? [watchProblem] : [];
      for (const version of state.layout.versions) {
        const folder = state.layout.pageFolder(version, state.layout.locales[0] ?? 'en');
        if (folder && state.manifest.versioned && !(await resolveInside(folder))) {
          problems.push({
            rule: 'source.missing_folder',
            severity: 'warning',
            message: `The manifest declares version ${version}, but the set folder has no ${version}/ folder, so it has no pages.`,
            file: MANIFEST_FILE,
            fix: `Create the folder ${version}/ next to kit.json, or remove the version from \`versions\`.`,
          });
        }
        for (const locale of state.layout.locales) {
          const listing = await walkPages(state.layout, version, locale);
          problems.push(...listing.problems);
          // Each file read as a page is, so validation names every file a reader would miss.
          await readEvery(options.setKey, listing.files, (ref) => readPage(state, ref, version, locale, null)).catch(
            (error: unknown) => problems.push(...problemsOf(error)),
          );
          await source.readNavigation(version, locale).catch((error: unknown) => problems.push(...problemsOf(error)));
        }
      }
      await source.listSkills().catch((error: unknown) => problems.push(...problemsOf(error)));
      return problems;
    },

    async close() {
      closed = true;
      listeners.clear();
      const running = watcher;
      watcher = null;
      running?.close();
      historyWatcher?.close();
      historyWatcher = null;
    },
  };

  if (options.watch) {
    source.watch = (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    };
  }
  return source;
}

function pagePathFileProblem(file: string, refused: string): SourceProblem {
  return {
    rule: 'source.page_path',
    severity: 'warning',
    message: `The file ${showPagePath(file)} is not read as a page: its path breaks the page-path rule (${refused}).`,
    file,
    fix: 'Rename the file (and its folders) with letters, digits, "-" and "_", e.g. "guides/setup.md".',
  };
}

function symlinkProblem(file: string): SourceProblem {
  return {
    rule: 'source.symlink',
    severity: 'warning',
    message: `The symbolic link ${file} leads outside the set folder (or nowhere) and is ignored.`,
    file,
    fix: 'Copy the file into the set folder, or point the link at a file inside it.',
  };
}

function isReadProblem(problem: SourceProblem): boolean {
  return problem.rule === 'source.read';
}

/** A page path as the source accepts it: the page-path rule of every source (see `pagePathProblem`). */
function isSafePagePath(path: string): boolean {
  return typeof path === 'string' && pagePathProblem(path) === null;
}

/** Asset names stay inside the set folder and never reach page sources, which go through access checks. */
/** Files larger than this are hashed and sent as streams, never held whole in memory. */
const STREAM_THRESHOLD = 1024 * 1024;
const FILE_HASHES_KEPT = 4096;

function bytesHash(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

function isSafeAssetName(name: string): boolean {
  if (typeof name !== 'string' || name === '' || isAbsolute(name) || name.includes('\\') || name.includes('\0')) {
    return false;
  }
  if (name.endsWith('.md')) return false;
  return name.split('/').every((segment) => segment !== '' && segment !== '..' && !isIgnoredName(segment));
}

function toSourcePage(
  manifest: NormalizedManifest,
  ref: PageFileRef,
  version: string,
  locale: string,
  parsed: ParsedPageFile,
  change: LastChange | undefined,
): SourcePage {
  const links = repositoryLinks(manifest);
  const provenance: Provenance | undefined =
    change && manifest.provenance
      ? {
          author: change.author,
          date: isoDate(change.date),
          commit: change.commit,
          ...(links ? { commitUrl: `${links.base}/commit/${change.commit}` } : {}),
        }
      : undefined;
  return {
    path: ref.path,
    version,
    locale,
    frontmatter: structuredClone(parsed.frontmatter),
    body: parsed.body,
    title: parsed.title ?? ref.path.slice(ref.path.lastIndexOf('/') + 1),
    ...(parsed.description === undefined ? {} : { description: parsed.description }),
    contentHash: parsed.contentHash,
    bodyLine: parsed.bodyLine,
    file: ref.file,
    ...(links ? { editUrl: links.edit(ref.file) } : {}),
    // Only a commit dates a change: a file's time is when it was checked out or copied, so a fresh
    // clone would mark every page as just updated. Without git history a page has no update date.
    ...(change ? { updatedAt: isoDate(change.date) } : {}),
    ...(provenance ? { provenance } : {}),
    visibility: parsed.visibility,
    problems: parsed.problems.map((problem) => ({ ...problem })),
  };
}

function isoDate(date: string): string {
  const parsed = new Date(date);
  return Number.isNaN(parsed.getTime()) ? date : parsed.toISOString();
}

/** Edit and commit links from the manifest's `repository`, or null when it names no http(s) repository. */
function repositoryLinks(manifest: NormalizedManifest): { base: string; edit(file: string): string } | null {
  const repository = manifest.repository;
  const base = (repository?.docsUrl ?? repository?.url)?.replace(/\/+$/, '');
  if (!repository || !base || !/^https?:\/\//i.test(base)) return null;
  const docsPath = repository.docsPath.replace(/^\/+|\/+$/g, '');
  const prefix = `${base}/edit/${repository.branch}${docsPath && docsPath !== '.' ? `/${encodePath(docsPath)}` : ''}`;
  return { base, edit: (file) => `${prefix}/${encodePath(file)}` };
}

function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}
