import type { SkillFile, SourcePage, SourceProblem } from '../model/types.js';
import type { ContentWriter } from './content-writer.js';
import type { ReviewStore } from './review-store.js';

/** A raw file a source read: its text and, for repository sets, its path relative to the set folder. */
export interface SourceFile {
  text: string;
  file?: string;
}

/**
 * A static file of a set, opened for serving: its size and content hash at once, its bytes only
 * when asked, so a request answered 304 from the hash never reads them.
 */
export interface SourceFileContent {
  /** Size in bytes. */
  size: number;
  /** `sha256:<hex>` of the bytes. */
  contentHash: string;
  /** The bytes: a stream for a large file (never held whole in memory), else the bytes themselves. */
  open(): Promise<ReadableStream<Uint8Array> | Uint8Array>;
}

/** What changed in a source, so caches refresh only that. `path` is absent when the whole scope changed. */
export interface ContentChange {
  kind: 'page' | 'navigation' | 'manifest' | 'asset' | 'skill';
  version?: string;
  locale?: string;
  path?: string;
}

/**
 * The content-source port: where a set's Markdown, navigation and manifest come from.
 * `@kit/source-fs` (repository sets) and `@kit/source-db` (database sets) implement it; the same
 * contract suite (`runSourceContract`) checks both.
 *
 * Version and locale ids are those of the normalized manifest (`current` for an unversioned set,
 * `en` for a set without locales).
 */
export interface ContentSource {
  readonly kind: 'repository' | 'database';
  /**
   * True when other processes write this content (a database shared by several servers). Their
   * change notices reach `watch` listeners late, so a caller must not serve from a cache that only
   * a notice clears: it asks the source each time, and the source keeps reads cheap on its own.
   */
  readonly shared?: boolean;
  /** The manifest text (`kit.json`), or null when the set has none. */
  readManifest(): Promise<SourceFile | null>;
  /** Every page of one version and locale, in a stable order (by path). */
  listPages(version: string, locale: string): Promise<SourcePage[]>;
  /** One page, or null when there is none at that path. */
  getPage(version: string, locale: string, path: string): Promise<SourcePage | null>;
  /** The navigation file text of one version and locale, or null when it has none. */
  readNavigation(version: string, locale: string): Promise<SourceFile | null>;
  /** Hand-written skill files (`skills/*.md`). */
  listSkills(): Promise<SkillFile[]>;
  /** A stylesheet or other asset named relative to the manifest, or null when missing. */
  readAsset(name: string): Promise<Uint8Array | null>;
  /**
   * A static file (an image, PDF, download) named relative to the set folder, such as
   * `13.x/images/flow.png` beside the pages of version 13.x; null when there is none, or when the
   * name is not servable (`isServableFileName`: no `..`, dotfiles, `.md` sources or secret-looking
   * names) or leads out of the set's content (a symlink out of a repository set's folder).
   */
  openFile(name: string): Promise<SourceFileContent | null>;
  /**
   * The names of the set's static files, those {@link openFile} serves (images, PDFs, stylesheets;
   * no pages, no manifest or navigation files, nothing secret-looking), relative to the set folder
   * and sorted. Used to copy a set's files (`importFromSource`) and by `kit assets list`.
   */
  listFiles?(): Promise<string[]>;
  /** Problems found while reading that belong to no single page (unreadable folders, ...). */
  problems?(): Promise<SourceProblem[]>;
  /** Calls `listener` on every change (on a `shared` source, also a change another process made, late); returns a function that stops watching. */
  watch?(listener: (change: ContentChange) => void): () => void;
  /** The write side the author tools use; absent on a source that cannot be written. */
  readonly writer?: ContentWriter;
  /** Drafts, revision history and restores; only a database set keeps them (a repository set's history is git's). */
  readonly review?: ReviewStore;
  close?(): Promise<void>;
}
