import type { PageAddress } from './content-writer.js';

/**
 * Where a recorded change stands. `published`: live. `draft`: waiting for a person. `applied`: a
 * draft that was published (the change is recorded again as a `published` revision). `discarded`: a
 * draft a person threw away, kept so the history shows it.
 */
export type RevisionState = 'published' | 'draft' | 'applied' | 'discarded';

/** One recorded change of a database set, as the review store reports it. */
export interface RevisionEntry {
  id: string;
  kind: 'page' | 'navigation' | 'manifest' | 'asset';
  action: 'write' | 'delete' | 'restore';
  version: string | null;
  locale: string | null;
  /** Page path (asset name for an asset); null for navigation and the manifest. */
  path: string | null;
  /** Hash of what the change wrote; for a delete, of the page it removed. */
  contentHash: string;
  /**
   * The text the change wrote (page file, navigation JSON, manifest). For a drafted file
   * (`write_asset` where review is required): its bytes as a `data:<type>;base64,` URL, kept until a
   * person publishes them; null for other asset changes, whose bytes live with the asset.
   */
  snapshot: string | null;
  /** Hash of the content the change was written against; null when it created the record. */
  basedOn: string | null;
  summary: string | null;
  author: string | null;
  status: RevisionState;
  /** ISO 8601 time the change was recorded. */
  createdAt: string;
}

/**
 * One drafted change: a single draft revision, or the two of a drafted move (the page written at
 * its new place, then the deletion at its old one), which are published or discarded together.
 */
export interface DraftChange {
  /** The id a person names to publish or discard it: its first revision's. */
  id: string;
  revisions: RevisionEntry[];
}

/** What {@link ReviewStore.publish} did. */
export type PublishOutcome =
  | { outcome: 'published'; published: RevisionEntry[]; drafts: RevisionEntry[] }
  /** The change was published or discarded by someone else first. */
  | { outcome: 'decided'; status: 'applied' | 'discarded' };

/** What {@link ReviewStore.discard} did. */
export type DiscardOutcome =
  | { outcome: 'discarded'; drafts: RevisionEntry[] }
  | { outcome: 'decided'; status: 'applied' | 'discarded' };

/**
 * The review side of a database set: its drafts, its revision history and restores. `@kit/source-db`
 * implements it; the rules around it (who may, what an outcome is, the events) live in `@kit/core`'s
 * review functions. Every method is one transaction. A change that goes live is told to the
 * source's `watch` listeners before the method returns, as the writer's changes are.
 *
 * Refusals are `KitError`s: `argument.invalid` (no such revision), `content.conflict` (the content
 * moved on since the draft or `basedOn`; `details.currentHash` holds what is there now),
 * `page.not_found` (nothing to restore).
 */
export interface ReviewStore {
  /** Every pending drafted change of the set, oldest first. */
  drafts(): Promise<DraftChange[]>;
  /** The drafted change a revision id belongs to, whatever it has become since; null for none. */
  change(id: string): Promise<DraftChange | null>;
  /** Makes a drafted change live, all or nothing. `by` is recorded as the published revisions' author when given. */
  publish(id: string, by: string | null): Promise<PublishOutcome>;
  /** Throws a drafted change away; it stays in the history as `discarded`. */
  discard(id: string): Promise<DiscardOutcome>;
  /** Recorded changes, newest first, narrowed by each field given (`path` with `kind: 'page'` for a page's history). */
  history(query: {
    kind?: RevisionEntry['kind'];
    version?: string;
    locale?: string;
    path?: string;
    limit?: number;
  }): Promise<RevisionEntry[]>;
  /**
   * The live text and hash of what a revision changes: a page (its whole file), the navigation file
   * of a version and locale, or the manifest; null when there is none (a deleted or new page).
   */
  current(subject: {
    kind: 'page' | 'navigation' | 'manifest';
    version?: string | null;
    locale?: string | null;
    path?: string | null;
  }): Promise<{ text: string; contentHash: string } | null>;
  /** One revision by id; null when the set has none with that id. */
  revision(id: string): Promise<RevisionEntry | null>;
  /**
   * Brings a page back as a published revision holding `revisionId`'s content, or else the page's
   * latest published content (for a deleted page, what it held when deleted). `basedOn` is checked
   * against the live page (null: no live page may be there). `unchanged` when the page holds it already.
   */
  restore(
    page: PageAddress,
    options: { revisionId?: string; basedOn?: string | null; author?: string | null; summary?: string | null },
  ): Promise<{
    outcome: 'published' | 'unchanged';
    contentHash: string;
    /** Id of the revision whose content was brought back. */
    restoredFrom: string;
    revision: RevisionEntry | null;
  }>;
}
