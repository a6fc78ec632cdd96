import type { AuthorDocsMigration, AuthorRevision } from '../outcomes/outcomes.js';

/** The author tools, by the name an agent calls them. */
export type AuthorToolName =
  | 'write_page'
  | 'move_page'
  | 'delete_page'
  | 'update_navigation'
  | 'update_manifest'
  | 'write_asset'
  | 'delete_asset';

/** One page of a set, by version, locale and path (no `.md`; `index` is the landing page). */
export interface PageAddress {
  version: string;
  locale: string;
  path: string;
}

/** Who made a change, why and how it is recorded. */
export interface ChangeRecord {
  /** The tool that made the change. */
  tool: AuthorToolName;
  /** One line for the revision list and the pull request. */
  summary?: string;
  /** Who made it: a user id, or `agent:<client name>` for an MCP client. */
  author?: string;
  /**
   * Record the change as a draft a person publishes later; the live content stays as it is.
   * Only database sets keep drafts: a repository writer refuses a draft with `argument.invalid`.
   */
  draft: boolean;
}

/**
 * What a writer must find before it writes: the content hash the caller read (null: nothing is
 * there). A writer refuses with `content.conflict` when it finds anything else, so a change made
 * between the caller's read and the write is never overwritten.
 */
export type ExpectedContent = string | null;

/** What a writer did. */
export interface WriteReceipt {
  outcome: 'published' | 'drafted';
  /** The revision recorded; `content_hash` is the hash of what was written (of what was removed, for a delete). */
  revision: AuthorRevision;
  /** The docs migration the change was also written into (database sets, local server), else null. */
  docs_migration: AuthorDocsMigration | null;
}

/**
 * The write side of a content source, used by the author tools (`write_page`, `move_page`,
 * `delete_page`, `update_navigation`, `update_manifest`, `write_asset`, `delete_asset`). `@kit/source-fs` writes files in the
 * working tree; `@kit/source-db` writes rows and revisions, plus the branch's docs migration. Every
 * method is all or nothing, refuses with `content.conflict` when the current content is not
 * `expected`, and tells the source's `watch` listeners what changed before it returns, so the next
 * read sees the change.
 *
 * The rules of the tools (defaults, `based_on`, outcomes, what may be written) live in
 * `@kit/core`'s author tools; a writer only stores.
 */
export interface ContentWriter {
  /** Creates or replaces one page with `text`, the whole page file (frontmatter block and body). */
  writePage(page: PageAddress, text: string, expected: ExpectedContent, change: ChangeRecord): Promise<WriteReceipt>;
  /** Moves one page; refuses with `page.exists` when `to` holds a page. */
  movePage(from: PageAddress, to: PageAddress, expected: string, change: ChangeRecord): Promise<WriteReceipt>;
  /** Deletes one page (a database set keeps it in its revision history). */
  deletePage(page: PageAddress, expected: string, change: ChangeRecord): Promise<WriteReceipt>;
  /** Writes the navigation file of one version and locale (`text` is its whole JSON). */
  writeNavigation(
    scope: { version: string; locale: string },
    text: string,
    expected: ExpectedContent,
    change: ChangeRecord,
  ): Promise<WriteReceipt>;
  /** Writes the manifest (`kit.json`); `text` is its whole JSON. */
  writeManifest(text: string, expected: ExpectedContent, change: ChangeRecord): Promise<WriteReceipt>;
  /**
   * Creates or replaces one file of the set (an image, a PDF, a stylesheet), `name` relative to the
   * set folder (`13.x/images/flow.png`); `expected` is the `sha256:` hash of the bytes there now
   * (null: none). The author tools check the name and bytes first (`assetRefusal`). Absent on a
   * writer that cannot store files.
   */
  writeAsset?(name: string, bytes: Uint8Array, expected: ExpectedContent, change: ChangeRecord): Promise<WriteReceipt>;
  /** Removes one file of the set; `expected` is the hash of its bytes. Absent on a writer that cannot store files. */
  deleteAsset?(name: string, expected: string, change: ChangeRecord): Promise<WriteReceipt>;
}
