import {
  type Kit,
  KitError,
  mergeValidationReports,
  type PageRenderer,
  type SearchBudgetCheck,
  type SearchDriver,
  type ValidationIssue,
  type ValidationRenderer,
  type ValidationReport,
  validateDocSet,
} from '@kit/core';
import { createClientSearch } from '@kit/search';
import { cachedBudget } from './render-cache.js';

/** What the validator needs from a loaded kit (a `LoadedKit` fits). */
export interface ValidatableKit extends Kit {
  readonly renderer?: PageRenderer;
  readonly searchDrivers?: ReadonlyMap<string, SearchDriver>;
}

export interface ValidateKitOptions {
  /** One set; default every set. */
  set?: string;
  /** One version; default every version. */
  version?: string;
  /** Origin the kit's sets were built with, so validation renders share their cache. */
  origin?: string;
  /**
   * Renders pages for validation; default the kit's renderer. `kit validate` passes a worker pool
   * (`createRenderPool`) behind the on-disk render cache.
   */
  renderer?: PageRenderer | ValidationRenderer;
  /** Folder to remember browser index sizes in between runs (`kit validate` uses `.kit/cache/validate`). */
  cacheDir?: string;
}

/**
 * Validates the sets of a kit and returns one report (`schemas/validate.json`): what
 * `kit validate --json` prints and what the `validate_docs` tool returns. A set whose search
 * driver ships a browser index is checked against `search.budget_kb`.
 *
 * @example
 * const report = await validateKit(kit, { set: 'docs' });
 * if (!report.ok) process.exitCode = 1;
 */
export async function validateKit(kit: ValidatableKit, options: ValidateKitOptions = {}): Promise<ValidationReport> {
  const keys = options.set !== undefined ? [kit.set(options.set).key] : [...kit.sets.keys()];
  if (keys.length === 0) {
    throw new KitError(
      'set.not_found',
      'No doc sets are configured. Add one under sets in kit.config.ts, or run kit init.',
    );
  }
  const reports: ValidationReport[] = [];
  for (const key of keys) {
    const docSet = kit.set(key);
    const driver = kit.searchDrivers?.get(key);
    reports.push(
      await validateDocSet({
        docSet,
        ...(options.version !== undefined ? { version: options.version } : {}),
        ...((options.renderer ?? kit.renderer) ? { renderer: (options.renderer ?? kit.renderer)! } : {}),
        ...(options.origin !== undefined ? { origin: options.origin } : {}),
        ...(driver && shipsBrowserIndex(driver)
          ? {
              searchBudget: options.cacheDir
                ? cachedBudget(clientBudget(docSet.config.search.budget_kb), options.cacheDir)
                : clientBudget(docSet.config.search.budget_kb),
            }
          : {}),
      }),
    );
  }
  return mergeValidationReports(reports);
}

/**
 * A `validate_docs` function for `@kit/mcp`: the same report as `kit validate --json`, for one set.
 */
export function validatorFor(kit: ValidatableKit, origin?: string) {
  return async (input: { set: string; version?: string }): Promise<Record<string, unknown>> => {
    const report = await validateKit(kit, {
      set: input.set,
      ...(input.version !== undefined ? { version: input.version } : {}),
      ...(origin !== undefined ? { origin } : {}),
    });
    return report as unknown as Record<string, unknown>;
  };
}

function shipsBrowserIndex(driver: SearchDriver): boolean {
  return typeof driver.clientIndex === 'function';
}

/**
 * Measures the index the `client` driver would ship, with a driver of its own so the running set's
 * index is left alone.
 */
function clientBudget(budgetKb: number): SearchBudgetCheck {
  return async (scope, sections) => {
    const driver = createClientSearch({ budgetKb });
    await driver.index(scope, sections);
    const report = await driver.clientIndexReport(scope);
    return report ? { gzipBytes: report.gzipBytes, budgetKb: report.budgetKb } : null;
  };
}

/**
 * The report for a person: issues grouped by file, each with its line, severity, rule and fix,
 * then a summary line.
 */
export function formatReport(report: ValidationReport, options: { color?: boolean } = {}): string {
  const paint = (code: number, text: string) => (options.color ? `\u001b[${code}m${text}\u001b[0m` : text);
  const lines: string[] = [];
  const groups = new Map<string, ValidationIssue[]>();
  for (const issue of report.issues) {
    const file = issue.file ?? '(set)';
    const label = issue.set && !report.set ? `${issue.set}: ${file}` : file;
    const group = groups.get(label) ?? [];
    group.push(issue);
    groups.set(label, group);
  }
  const labels = [...groups.keys()].sort((a, b) => a.localeCompare(b));
  for (const label of labels) {
    lines.push(paint(1, label));
    const group = groups.get(label)!.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
    for (const issue of group) {
      const at =
        issue.line !== undefined ? `${issue.line}${issue.column !== undefined ? `:${issue.column}` : ''}` : '-';
      const severity = issue.severity === 'error' ? paint(31, 'error  ') : paint(33, 'warning');
      lines.push(`  ${at.padEnd(7)} ${severity} ${issue.message} ${paint(2, issue.rule)}`);
      if (issue.fix) lines.push(`  ${''.padEnd(7)}         ${paint(2, `fix: ${issue.fix}`)}`);
    }
    lines.push('');
  }
  const { errors, warnings } = report.summary;
  const scope = report.set ? `the "${report.set}" docs` : 'the docs';
  lines.push(
    errors === 0 && warnings === 0
      ? `No problems found in ${scope}.`
      : `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'} in ${scope}.`,
  );
  return `${lines.join('\n')}\n`;
}
