import type { RevisionEntry } from '@kit/core';
import type { PathScope } from '@kit/core/internal';
import type { RevisionKind, RevisionStatus } from './schema/tables.js';

// The arguments and results of the writes of a database set, shared by the public writes, the
// in-transaction writers, review and import.

/** How a change is recorded: who made it, why, against which content, published or as a draft. */
export interface ChangeOptions {
  /** Content hash the change was written against; a mismatch refuses the change (`content.conflict`). */
  basedOn?: string | null;
  /** One line for the revision list. */
  summary?: string | null;
  /** Who made the change (user id, e-mail, `agent:<name>`). */
  author?: string | null;
  /**
   * `draft` records the change as a revision only; the live content stays until
   * {@link publishRevision}. @default 'published'
   */
  status?: RevisionStatus;
}

/** One recorded change: the review store's entry, with the set it belongs to. */
export interface RevisionRecord extends RevisionEntry {
  setKey: string;
}

/** What a write did. `unchanged` wrote nothing; its `contentHash` is the current one, to chain on. */
export interface ChangeResult {
  outcome: 'published' | 'drafted' | 'unchanged';
  contentHash: string;
  revision: RevisionRecord | null;
}

/** A page to write: the whole page file as `text`, or `frontmatter` and `body` apart. */
export interface PageWrite {
  version: string;
  locale: string;
  /** Page path without `.md`; `index` is the landing page. */
  path: string;
  text?: string;
  frontmatter?: Record<string, unknown>;
  body?: string;
}

/** What {@link movePage} did: the page written at `to` (`revision`) and the deletion at `from`. */
export interface MoveResult extends ChangeResult {
  /** The `delete` revision of the page at `from` (kept in the history, restorable). */
  deleted: RevisionRecord;
}

/** A navigation file to write: the tree object, or its JSON text. */
export interface NavigationWrite {
  version: string;
  locale: string;
  tree?: unknown;
  text?: string;
}

/** The manifest to write: its text (kept as written) or an object (written as indented JSON). */
export type ManifestWrite = { text: string } | { manifest: Record<string, unknown> };

/** What {@link publishRevision} did: the change made live, with every revision it recorded. */
export interface PublishResult extends ChangeResult {
  outcome: 'published' | 'unchanged';
  /** The published revisions the change recorded, in order (a drafted move: the write at `to`, then the delete at `from`). */
  published: RevisionRecord[];
  /** The drafts that made up the change, now `applied`. */
  drafts: RevisionRecord[];
}

/** Filters of {@link listRevisions}; every field narrows the list. */
export interface RevisionQuery {
  kind?: RevisionKind;
  version?: string;
  locale?: string;
  path?: string;
  status?: RevisionStatus;
  /** Most revisions returned, newest first. @default 100 */
  limit?: number;
}

/**
 * Options of the in-transaction writers. `scope`: the set's versions and locales, when a caller
 * read them once for many writes; without it each write reads the stored manifest. `copy`: the
 * pages are copied from another source as they are there (an import), so a path the set could not
 * serve is kept rather than refused; `kit validate` reports it as it would in the source.
 */
export type InnerOptions = ChangeOptions & { scope?: PathScope; copy?: boolean };
