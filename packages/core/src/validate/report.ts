import type { SourceProblem } from '../model/types.js';
import type { ValidationIssue, ValidationReport } from '../schemas/documents.js';

/** Where an issue was found, beyond its set: the version, locale and page it belongs to. */
export type IssuePlace = Partial<Pick<ValidationIssue, 'version' | 'locale' | 'page'>>;

/** Records a problem as an issue of the set being validated. */
export type AddIssue = (problem: SourceProblem, where?: IssuePlace) => void;

/** The issues of one validation run, in the order the rules found them. */
export interface IssueList {
  readonly issues: ValidationIssue[];
  add: AddIssue;
}

/** An empty issue list for the set `set`. */
export function createIssueList(set: string): IssueList {
  const issues: ValidationIssue[] = [];
  return {
    issues,
    add: (problem, where = {}) => {
      issues.push(toIssue(problem, set, where));
    },
  };
}

/** The report of one set: its issues without repeats, errors first. */
export function reportOf(issues: ValidationIssue[], set: string, version: string | null): ValidationReport {
  return buildReport(dedupe(issues), { set, version });
}

/**
 * Combines the reports of several sets into one (each issue names its set), for `kit validate`
 * over every set. One report passes through unchanged.
 */
export function mergeValidationReports(reports: ValidationReport[]): ValidationReport {
  if (reports.length === 1) return reports[0]!;
  const version = reports.every((report) => report.version === reports[0]?.version)
    ? (reports[0]?.version ?? null)
    : null;
  return buildReport(
    reports.flatMap((report) => report.issues),
    { version },
  );
}

function buildReport(issues: ValidationIssue[], head: { set?: string; version: string | null }): ValidationReport {
  const sorted = [...issues].sort(
    (a, b) =>
      (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1) ||
      (a.set ?? '').localeCompare(b.set ?? '') ||
      (a.file ?? '').localeCompare(b.file ?? '') ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0),
  );
  const errors = sorted.filter((issue) => issue.severity === 'error').length;
  return {
    ok: errors === 0,
    ...(head.set !== undefined ? { set: head.set } : {}),
    version: head.version,
    summary: { errors, warnings: sorted.length - errors },
    issues: sorted,
  };
}

function toIssue(
  problem: SourceProblem,
  set: string,
  where: Partial<Pick<ValidationIssue, 'version' | 'locale' | 'page'>>,
): ValidationIssue {
  const issue: ValidationIssue = {
    rule: problem.rule,
    severity: problem.severity,
    message: problem.message || problem.rule,
    set,
  };
  if (problem.file !== undefined) issue.file = problem.file;
  if (problem.line !== undefined && problem.line >= 1) issue.line = problem.line;
  if (problem.column !== undefined && problem.column >= 1) issue.column = problem.column;
  if (problem.fix !== undefined) issue.fix = problem.fix;
  if (where.version !== undefined) issue.version = where.version;
  if (where.locale !== undefined) issue.locale = where.locale;
  if (where.page !== undefined) issue.page = where.page;
  return issue;
}

/** One issue per rule, file, line and message (a manifest problem seen twice is reported once). */
function dedupe(issues: ValidationIssue[]): ValidationIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = [issue.rule, issue.file, issue.line, issue.column, issue.message, issue.version, issue.locale].join(
      '\u0000',
    );
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
