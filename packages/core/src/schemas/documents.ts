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

/** How to repair each frontmatter key the schema names, for problems the schema gives no fix of its own. */
const FRONTMATTER_FIXES: Record<string, string> = {
  title: 'Write `title` as plain text (quoted if it holds a colon), or remove the key to use the first H1.',
  description: 'Write `description` as one sentence of plain text, or remove the key.',
  sources:
    'Write `sources` as a path or glob relative to the project root, or a list of them (`sources: [src/router/**]`).',
  inserts:
    'Write `inserts: false` to turn every insert point off, or map insert points to false (`inserts: { article.after: false }`).',
  visibility: 'Write `visibility: public` or `visibility: private`.',
};

/** Options of {@link validateFrontmatter}. */
export interface ValidateFrontmatterOptions {
  /** File line of a top-level key, so each problem points at the key it is about. */
  lineOf?: (key: string) => number;
}

/**
 * Checks page frontmatter against `schemas/frontmatter.json`. Problems carry rule
 * `frontmatter.schema` and are errors, each with a fix; keys the schema does not name are allowed.
 * Every content source applies it through `parsePageFile`, so `kit validate` and `validate_docs`
 * report it.
 *
 * @example
 * validateFrontmatter({ title: 'Routing', sources: 42 }, '3.x/routing.md')
 * // [{ rule: 'frontmatter.schema', severity: 'error', file: '3.x/routing.md',
 * //    message: '`sources` must be a string or a list (found 42).', fix: 'Write `sources` as ...' }]
 */
export function validateFrontmatter(
  frontmatter: unknown,
  file?: string,
  options: ValidateFrontmatterOptions = {},
): SourceProblem[] {
  return validateAgainstSchema('frontmatter', frontmatter).map((issue) => {
    const key = topLevelKey(issue.pointer);
    const fix = issue.fix ?? (key !== undefined ? FRONTMATTER_FIXES[key] : undefined);
    return {
      rule: 'frontmatter.schema',
      severity: 'error',
      message:
        issue.path === ''
          ? `Frontmatter: ${issue.message.replace('The document', 'the frontmatter block')}`
          : issue.message,
      ...(file !== undefined ? { file } : {}),
      ...(options.lineOf && key !== undefined ? { line: options.lineOf(key) } : {}),
      ...(fix ? { fix } : {}),
    };
  });
}

/** The first segment of a JSON Pointer (`/sources/0` → `sources`), or undefined for the document. */
function topLevelKey(pointer: string): string | undefined {
  if (pointer === '') return undefined;
  const segment = pointer.slice(1).split('/')[0]!;
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}
