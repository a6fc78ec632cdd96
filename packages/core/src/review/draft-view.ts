/** A page, navigation file, manifest or file of the set (`asset`) a draft changes, as a reviewer sees it. */
export interface DraftView {
  /** The id to publish or discard it by. */
  id: string;
  kind: 'page' | 'navigation' | 'manifest' | 'asset';
  /** `move`: the page at `from` goes to `path` (both halves publish together). */
  action: 'write' | 'delete' | 'move' | 'restore';
  version: string | null;
  locale: string | null;
  /** The page the draft writes or deletes (for a move, where the page goes), or the file's name in the set; null for navigation and the manifest. */
  path: string | null;
  /** A move's old place. */
  from?: { version: string; locale: string; path: string };
  author: string | null;
  summary: string | null;
  /** ISO 8601 time the draft was written. */
  created_at: string;
  /** Content hash the draft was written against; null when it creates the page or file. */
  based_on: string | null;
  /** Content hash live now (for a move, of the page at `from`); null when there is none. */
  current_hash: string | null;
  /** True when the live content moved on since the draft was written: publishing it would conflict. */
  stale: boolean;
  /** The live text the draft replaces (for a move, the page at `from`; for a file, a line naming its type, size and hash); null when there is none. */
  before: string | null;
  /** The text the draft makes live (for a file, a line naming its type, size and hash); null for a deletion. */
  after: string | null;
  /** Unified diff of `after` against `before`. */
  diff: string;
  /** `draft` while waiting; `applied` once published; `discarded`. */
  status: 'draft' | 'applied' | 'discarded';
}
