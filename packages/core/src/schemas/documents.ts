import type { SourceProblem } from '../model/types.js';
import { validateAgainstSchema } from './registry.js';

/** One issue of a validation report (`schemas/validate.json`). */
export interface ValidationIssue {
  /** Stable rule id, e.g. `manifest.schema`, `links.unsafe`, `redirects.loop`. */
  rule: string;
  severity: 'error' | 'warning';
  message: string;
  /** File relative to the set folder, e.g. `13.x/routing.md` or `kit.json`. */
  file?: string;
  line?: number;
  column?: number;
  fix?: string;
  set?: string;
  version?: string;
  locale?: string;
  /** Page path without `.md`. */
  page?: string;
}

/** What `kit validate --json` prints and `validate_docs` returns (`schemas/validate.json`). */
export interface ValidationReport {
  /** False when at least one issue is an error. */
  ok: boolean;
  set?: string;
  /** The version validated; null when every version was. */
  version?: string | null;
  summary: { errors: number; warnings: number };
  /** Errors first, then warnings. */
  issues: ValidationIssue[];
}

/**
 * Checks page frontmatter against `schemas/frontmatter.json`. Problems carry rule
 * `frontmatter.schema` and are errors; keys the schema does not name are allowed.
 *
 * @example
 * validateFrontmatter({ title: 'Routing', sources: 42 }, '3.x/routing.md')
 * // [{ rule: 'frontmatter.schema', severity: 'error', file: '3.x/routing.md',
 * //    message: '`sources` must be a string or a list (found 42).' }]
 */
export function validateFrontmatter(frontmatter: unknown, file?: string): SourceProblem[] {
  return validateAgainstSchema('frontmatter', frontmatter).map((issue) => ({
    rule: 'frontmatter.schema',
    severity: 'error',
    message:
      issue.path === ''
        ? `Frontmatter: ${issue.message.replace('The document', 'the frontmatter block')}`
        : issue.message,
    ...(file !== undefined ? { file } : {}),
    ...(issue.fix ? { fix: issue.fix } : {}),
  }));
}
