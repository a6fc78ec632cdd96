import type { AuthorRevision, AuthorValidation } from '@kit/core';

/** A page the run may update: one that a code change made stale. */
export interface SyncPage {
  set: string;
  version: string;
  locale: string;
  /** Page path without `.md`. */
  path: string;
  title: string;
  /** The page's file relative to the project root, on a repository set. */
  file?: string;
  /** Changed files that matched the page's `sources:`. */
  matched: string[];
}

/** A page as the docs writer reads it: the text the model edits and the hash to write against. */
export interface SyncPageText {
  /** The page's Markdown (with its frontmatter block, where the writer has it). */
  text: string;
  /** The content hash of what was read: the `based_on` of a write. */
  contentHash: string;
}

/** A change the model asks for: the new body, and the frontmatter when it changes it. */
export interface SyncPageChange {
  /** Markdown without the frontmatter block. */
  body: string;
  /** Replaces the frontmatter; absent keeps the page's own. */
  frontmatter?: Record<string, unknown>;
  /** The content hash the change was written against; a page changed since is `conflicted`. */
  basedOn: string;
  /** One line describing the change, for the revision. */
  summary?: string;
}

/**
 * What a write did: an author-tool outcome (`published`, `drafted`, `conflicted`, `unchanged`,
 * `rejected`), or `proposed` from a dry run, which writes nothing.
 */
export interface SyncWriteResult {
  outcome: 'published' | 'drafted' | 'conflicted' | 'unchanged' | 'rejected' | 'proposed';
  message: string;
  revision: AuthorRevision | null;
  /** Validation of the touched page after the change; null when nothing was written. */
  validation: AuthorValidation | null;
}

/**
 * Where the docs agent reads and changes pages. Every write goes through the author tools' rules
 * (`write_page` with `based_on`): the local kit's `writePageTool`, a set's web MCP endpoint, or a
 * dry run that only records what would change.
 */
export interface SyncDocsWriter {
  read(page: SyncPage): Promise<SyncPageText | null>;
  write(page: SyncPage, change: SyncPageChange): Promise<SyncWriteResult>;
}

/** Read access to the project's code, inside the deny rules. */
export interface SyncCodeReader {
  /** A file's text (cut at a size limit), or an error message the model can act on. */
  read(path: string): Promise<{ text: string; truncated: boolean } | { error: string }>;
  /** The entries of a folder (folders end with `/`), denied ones left out. */
  list(path: string): Promise<{ entries: string[] } | { error: string }>;
}
