import type { ReviewMode } from '../config/types.js';
import type { SourceProblem } from '../model/types.js';

/** The outcome of every author tool (`write_page`, `move_page`, `delete_page`, `update_navigation`, `update_manifest`, `write_asset`, `delete_asset`). */
export type AuthorOutcome = 'published' | 'drafted' | 'conflicted' | 'unchanged' | 'rejected';

export const authorOutcomes: readonly AuthorOutcome[] = ['published', 'drafted', 'conflicted', 'unchanged', 'rejected'];

/** The revision a change recorded. `content_hash` is what the change wrote, to pass as the next `based_on`. */
export interface AuthorRevision {
  content_hash: string;
  /** Revision id on a database set; absent on a repository set (git keeps history). */
  id?: string;
  /** What the revision covers: a page, a navigation file, the manifest or a file of the set (`asset`). */
  kind?: 'page' | 'navigation' | 'manifest' | 'asset';
  version?: string;
  locale?: string;
  path?: string;
  summary?: string;
  created_at?: string;
}

/** Validation of what the change touched, run after writing. */
export interface AuthorValidation {
  errors: number;
  warnings: number;
  issues: SourceProblem[];
}

/** The docs migration a database-set change was written into, so it ships with the code. */
export interface AuthorDocsMigration {
  /** Migration file path relative to the project root. */
  file: string;
  id?: string;
}

/**
 * What every author tool returns. `revision`, `validation` and `docs_migration` are null when the
 * change wrote nothing (or, for `docs_migration`, on a repository set).
 */
export interface AuthorToolResult {
  outcome: AuthorOutcome;
  message: string;
  revision: AuthorRevision | null;
  validation: AuthorValidation | null;
  docs_migration: AuthorDocsMigration | null;
}

/**
 * Whether a change that went through is `published` or `drafted`: with `review: 'required'` an
 * agent's change outside a pull request (web MCP author tools) waits as a draft until a person
 * publishes it; changes that travel in a pull request (files in the working tree, the local
 * server's docs migrations) and every change under `review: 'auto'` publish at once.
 *
 * @example
 * outcomeForChange({ review: 'required', outsidePullRequest: true }); // 'drafted'
 */
export function outcomeForChange(input: { review: ReviewMode; outsidePullRequest: boolean }): 'published' | 'drafted' {
  return input.review === 'required' && input.outsidePullRequest ? 'drafted' : 'published';
}

/**
 * The refusal for a stale `based_on`, or null when the change may go ahead. A missing `based_on`
 * changes the current state; a `based_on` for something that no longer exists is stale too.
 *
 * @example
 * const refusal = checkBasedOn(input.based_on, current?.contentHash ?? null, 'page "routing"');
 * if (refusal) return refusal;
 */
export function checkBasedOn(
  basedOn: string | undefined | null,
  currentHash: string | null,
  what: string,
): AuthorToolResult | null {
  if (basedOn === undefined || basedOn === null || basedOn === '') return null;
  if (basedOn === currentHash) return null;
  return conflicted(
    currentHash === null
      ? `The ${what} no longer exists; it was removed after you read it (based_on ${basedOn}). Read it again before writing.`
      : `The ${what} changed since you read it (based_on ${basedOn}, now ${currentHash}). Read it again, merge your change into the new content, and pass the new content_hash as based_on.`,
    currentHash,
  );
}

/** A change refused because the content moved on since `based_on`; `revision` carries the current hash. */
export function conflicted(message: string, currentHash: string | null): AuthorToolResult {
  return {
    outcome: 'conflicted',
    message,
    revision: currentHash === null ? null : { content_hash: currentHash },
    validation: null,
    docs_migration: null,
  };
}

/** A change refused for its input (path taken, foreign set, forbidden manifest key, ...); nothing written. */
export function rejected(message: string): AuthorToolResult {
  return { outcome: 'rejected', message, revision: null, validation: null, docs_migration: null };
}

/** A change that would write exactly what is there already; the current hash lets the caller chain on. */
export function unchanged(message: string, currentHash: string): AuthorToolResult {
  return {
    outcome: 'unchanged',
    message,
    revision: { content_hash: currentHash },
    validation: null,
    docs_migration: null,
  };
}

/** A change that was written, published or drafted. */
export function applied(input: {
  outcome: 'published' | 'drafted';
  message: string;
  revision: AuthorRevision;
  validation?: AuthorValidation | null;
  docs_migration?: AuthorDocsMigration | null;
}): AuthorToolResult {
  return {
    outcome: input.outcome,
    message: input.message,
    revision: input.revision,
    validation: input.validation ?? null,
    docs_migration: input.docs_migration ?? null,
  };
}

/** Counts problems into the `validation` field of an author-tool result. */
export function summarizeValidation(issues: readonly SourceProblem[]): AuthorValidation {
  return {
    errors: issues.filter((issue) => issue.severity === 'error').length,
    warnings: issues.filter((issue) => issue.severity === 'warning').length,
    issues: [...issues],
  };
}
