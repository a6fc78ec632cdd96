import { join, resolve } from 'node:path';
import type { ContentSource, ContentWriter, SkillFile, SourceFile, SourceProblem } from '@kit/core';
import { KitError, normalizeForHash } from '@kit/core';
import { pagePathProblem } from '@kit/core/internal';
import { createChangeListeners } from './change-listeners.js';
import { createChangeTracking } from './change-tracking.js';
import { createManifestReader } from './current-manifest.js';
import { readEvery, setFiles, unreadableError } from './file-reads.js';
import { listSetFiles } from './files.js';
import { createGitProvenance } from './git-provenance.js';
import { isIgnoredName, MANIFEST_FILE, NAVIGATION_FILE, SKILLS_FOLDER } from './layout.js';
import { createPageLister } from './page-listing.js';
import { createPageReader } from './page-reader.js';
import { isReadProblem, watchProblem } from './problems.js';
import { scanProblems } from './scan-problems.js';
import { createSetFolder } from './set-folder.js';
import { SourceState } from './source-state.js';
import { createStaticFiles } from './static-files.js';
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
  const { setKey } = options;
  const folder = createSetFolder(resolve(options.root), setFiles(setKey));
  const { root, disk } = folder;
  const state = new SourceState();
  const listeners = createChangeListeners();
  const onWatchError = (error: unknown) => {
    state.watchProblem = watchProblem(root, error);
  };
  const currentManifest = createManifestReader(folder, state, setKey);
  const pages = createPageLister(folder, state);
  const readPage = createPageReader(folder, state);
  const files = createStaticFiles(folder, state);
  const provenance = createGitProvenance({
    folder,
    state,
    useGit: options.git !== false,
    cacheDir: options.cacheDir,
    emit: listeners.emit,
    onWatchError,
  });
  const tracking = createChangeTracking({
    folder,
    state,
    currentManifest,
    pages,
    provenance,
    emit: listeners.emit,
    onWatchError,
  });
  const readyPromise: Promise<void> = options.watch ? tracking.start().catch(onWatchError) : Promise.resolve();

  const writer = createFsWriter({
    root,
    realRoot: folder.realRoot,
    layout: async () => (await currentManifest()).layout,
    changed: (changedFiles, changes) => tracking.ownWrite(changedFiles, changes),
  });

  const source: FsContentSource = {
    kind: 'repository',
    root,
    writer,
    ready: () => readyPromise,

    async readManifest(): Promise<SourceFile | null> {
      const manifest = await currentManifest();
      return manifest.text === null ? null : { text: manifest.text, file: MANIFEST_FILE };
    },

    async listPages(version, locale) {
      const manifest = await currentManifest();
      const [listing, changes] = await Promise.all([
        pages.list(manifest.layout, version, locale),
        provenance.lastChanges(manifest),
      ]);
      const unread = listing.problems.filter(isReadProblem);
      if (unread.length > 0) throw unreadableError(setKey, unread);
      return readEvery(setKey, listing.files, (ref) => readPage(manifest, ref, version, locale, changes));
    },

    async getPage(version, locale, path) {
      if (!isSafePagePath(path)) return null;
      const manifest = await currentManifest();
      const pageFolder = manifest.layout.pageFolder(version, locale);
      if (pageFolder === null) return null;
      const file = pageFolder ? `${pageFolder}/${path}.md` : `${path}.md`;
      const located = manifest.layout.locate(file);
      if (!located || located.version !== version || located.locale !== locale || located.path !== path) return null;
      return readPage(manifest, { file, path }, version, locale, await provenance.lastChanges(manifest));
    },

    async readNavigation(version, locale) {
      const manifest = await currentManifest();
      const pageFolder = manifest.layout.pageFolder(version, locale);
      if (pageFolder === null) return null;
      const file = pageFolder ? `${pageFolder}/${NAVIGATION_FILE}` : NAVIGATION_FILE;
      const absolute = await folder.resolveInside(file);
      const text = absolute && (await disk.readText(absolute, file));
      return text === null ? null : { text, file };
    },

    async listSkills(): Promise<SkillFile[]> {
      const base = await folder.realRoot();
      if (!base) return [];
      const entries = (await disk.readdir(join(base, SKILLS_FOLDER), SKILLS_FOLDER)) ?? [];
      const names = entries
        .map((entry) => entry.name)
        .filter((name) => !isIgnoredName(name) && name.endsWith('.md') && name !== '.md')
        .sort();
      return readEvery(setKey, names, async (name): Promise<SkillFile | null> => {
        const file = `${SKILLS_FOLDER}/${name}`;
        const absolute = await folder.resolveInside(file);
        const text = absolute && (await disk.readText(absolute, file));
        return text === null ? null : { name: name.slice(0, -'.md'.length), content: normalizeForHash(text) };
      });
    },

    readAsset: files.readAsset,
    openFile: files.openFile,

    async listFiles() {
      return listSetFiles(await folder.realRoot(), disk);
    },

    problems: () =>
      scanProblems({
        folder,
        state,
        setKey,
        currentManifest,
        pages,
        readPage,
        readNavigation: (version, locale) => source.readNavigation(version, locale),
        listSkills: () => source.listSkills(),
      }),

    async close() {
      state.closed = true;
      listeners.clear();
      tracking.close();
      provenance.close();
    },
  };

  if (options.watch) source.watch = listeners.add;
  return source;
}

/** A page path as the source accepts it: the page-path rule of every source (see `pagePathProblem`). */
function isSafePagePath(path: string): boolean {
  return typeof path === 'string' && pagePathProblem(path) === null;
}
