import type { SourceProblem } from '../model/types.js';
import { type AuthorValidation, summarizeValidation } from '../outcomes/outcomes.js';
import type { WriteReceipt } from '../ports/content-writer.js';
import type { DocSet } from '../ports/docset.js';
import type { ValidationIssue } from '../schemas/documents.js';
import type { AuthorCall } from './author-call.js';

/**
 * The validation issues of what a change touched (`touches`), or only the written text's own
 * problems (`own`) for a draft or a call without `validate`.
 */
export async function validationAfter(
  docSet: DocSet,
  call: AuthorCall,
  version: string,
  touches: (issue: ValidationIssue) => boolean,
  own: readonly SourceProblem[],
  receipt: WriteReceipt,
  pages?: readonly string[],
): Promise<AuthorValidation> {
  // A draft is not live, so the set's validation would not see it: only the text's own checks apply.
  if (!call.validate || receipt.outcome === 'drafted') return summarizeValidation(own);
  // `pages` names every page whose own issues `touches` can keep (none when it keeps only
  // manifest or navigation issues), so the other pages are not rendered or checked.
  const report = await call.validate({ set: docSet.key, version, ...(pages ? { pages } : {}) });
  return summarizeValidation(report.issues.filter(touches));
}

/** Whether an issue's message names the page `path` (a link or navigation entry to it). */
export function mentions(issue: ValidationIssue, path: string): boolean {
  return (
    issue.message.includes(`"${path}"`) || issue.message.includes(`/${path}`) || issue.message.includes(`${path}.md`)
  );
}

/** The sentence a result's message ends with when validation found issues in what changed. */
export function validationNote(validation: AuthorValidation): string {
  if (validation.errors === 0 && validation.warnings === 0) return '';
  const parts = [
    validation.errors > 0 ? `${validation.errors} error${validation.errors === 1 ? '' : 's'}` : null,
    validation.warnings > 0 ? `${validation.warnings} warning${validation.warnings === 1 ? '' : 's'}` : null,
  ].filter(Boolean);
  return ` Validation found ${parts.join(' and ')} in what changed: see validation.issues and fix them.`;
}
