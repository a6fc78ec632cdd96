import { relative } from 'node:path';
import {
  createUrlLayout,
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
import { defaultComponents } from '@kit/render';
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
  /**
   * Also report the config's warnings (keys written where they have no effect) as `config.ignored`.
   * `kit validate` does; `validate_docs` does not, so a web caller never learns other sets' keys.
   * @default false
   */
  configWarnings?: boolean;
  /**
   * Names of the registered components, for the manifest's `inserts` (`components.unknown`).
   * @default the components of @kit/render's default registry, which kit.config.ts fills
   */
  components?: readonly string[];
  /** Only these pages get their own checks (`ValidateDocSetOptions.pages`); needs `set` and `version`. */
  pages?: readonly string[];
  /**
   * Loads the optional Ask AI package, to check sets with `ai.ask.enabled` (reported with the
   * config warnings, as `ai.ask.setup`). Default: `import('@kit/ai')`.
   */
  loadAsk?: () => Promise<AskPackage>;
}

/** What `kit validate` uses of `@kit/ai`. */
type AskPackage = Pick<typeof import('@kit/ai'), 'askSetupProblems' | 'ASK_INSTALL_COMMAND'>;

/**
 * Validates the sets of a kit and returns one report (`schemas/validate.json`): what
 * `kit validate --json` prints and what the `validate_docs` tool returns. A set whose search
 * driver ships a browser index is checked against `search.budget_kb`. With `version` and no `set`,
 * the sets that have that version are checked; none having it is a `version.not_found` error.
 *
 * @example
 * const report = await validateKit(kit, { set: 'docs' });
 * if (!report.ok) process.exitCode = 1;
 */
export async function validateKit(kit: ValidatableKit, options: ValidateKitOptions = {}): Promise<ValidationReport> {
  let keys = options.set !== undefined ? [kit.set(options.set).key] : [...kit.sets.keys()];
  if (keys.length === 0) {
    throw new KitError(
      'set.not_found',
      'No doc sets are configured. Add one under sets in kit.config.ts, or run kit init.',
    );
  }
  if (options.set === undefined && options.version !== undefined && keys.length > 1) {
    keys = await setsWithVersion(kit, keys, options.version);
  }
  const components = options.components ?? defaultComponents.names();
  const reports: ValidationReport[] = [];
  for (const key of keys) {
    const docSet = kit.set(key);
    const driver = kit.searchDrivers?.get(key);
    // Without a renderer of its own, a set renders through its caches (what its search index and
    // readers had rendered, or its cache store) instead of parsing again.
    const renderer = options.renderer ?? (docSet.renderForAgents ? undefined : kit.renderer);
    const budgetKb = docSet.config.search.budget_kb;
    reports.push(
      await validateDocSet({
        docSet,
        ...(options.version !== undefined ? { version: options.version } : {}),
        ...(renderer ? { renderer } : {}),
        ...(options.origin !== undefined ? { origin: options.origin } : {}),
        ...(options.pages !== undefined ? { pages: options.pages } : {}),
        components,
        // Links into the other sets of the site are checked against their pages.
        site: [...kit.sets.values()],
        ...(driver && shipsBrowserIndex(driver)
          ? {
              searchBudget: options.cacheDir
                ? cachedBudget(clientBudget(budgetKb), options.cacheDir, budgetKb)
                : clientBudget(budgetKb),
            }
          : {}),
      }),
    );
  }
  const report = mergeValidationReports(reports);
  if (!options.configWarnings) return report;
  const askIssues = await askSetupIssues(kit, keys, options.loadAsk ?? (() => import('@kit/ai')));
  return withConfigWarnings(report, kit, options.set, askIssues);
}

/** The command that installs Ask AI with its default provider (`ASK_INSTALL_COMMAND` of @kit/ai). */
const ASK_INSTALL = 'npm install @kit/ai ai @ai-sdk/openai';

/**
 * `ai.ask.setup` warnings for the sets among `keys` that turn Ask AI on: the optional package is
 * missing (so `ai.ask` has no effect), or a provider package or setting the failover order needs is.
 */
async function askSetupIssues(kit: Kit, keys: string[], load: () => Promise<AskPackage>): Promise<ValidationIssue[]> {
  const asking = keys.filter((key) => kit.set(key).config.ai.ask.enabled);
  if (asking.length === 0) return [];
  const file = kit.config.file ? relative(kit.config.root, kit.config.file).split('\\').join('/') : undefined;
  const where = file !== undefined ? { file } : {};
  let ask: AskPackage;
  try {
    ask = await load();
  } catch {
    return asking.map((key) => ({
      rule: 'ai.ask.setup',
      severity: 'warning' as const,
      message: `Ask AI is on for the set "${key}" (ai.ask.enabled), but the optional package @kit/ai is not installed, so ai.ask has no effect.`,
      ...where,
      fix: `Install it with its default provider: ${ASK_INSTALL}. Or turn ai.ask.enabled off.`,
    }));
  }
  const issues: ValidationIssue[] = [];
  for (const key of asking) {
    for (const problem of await ask.askSetupProblems(kit.set(key).config.ai.ask, null)) {
      issues.push({
        rule: 'ai.ask.setup',
        severity: 'warning',
        message: `Ask AI on the set "${key}" cannot answer as configured: ${problem}`,
        ...where,
        fix: 'Install the package or set the key the message names; until then Ask AI answers 503 for this set.',
      });
    }
  }
  return issues;
}

/**
 * The sets among `keys` that have `version`. A set whose manifest cannot be read stays in, so its
 * own problems are reported.
 */
async function setsWithVersion(kit: Kit, keys: string[], version: string): Promise<string[]> {
  const versionsOf = new Map<string, string[] | null>();
  for (const key of keys) {
    const docSet = kit.set(key);
    const manifest = await docSet.manifest().catch(() => null);
    versionsOf.set(
      key,
      manifest ? createUrlLayout(docSet.config.route.prefix, manifest).versions.map((entry) => entry.id) : null,
    );
  }
  const having = keys.filter((key) => {
    const versions = versionsOf.get(key);
    return versions === null || versions?.includes(version);
  });
  if (having.length > 0) return having;
  const listed = keys.map((key) => `${key} (${(versionsOf.get(key) ?? []).join(', ')})`).join('; ');
  throw new KitError(
    'version.not_found',
    `No doc set has version "${version}". The sets and their versions: ${listed}. Pass one of those versions, name a set with --set, or leave --version out to check every version.`,
    { details: { version, versions: Object.fromEntries(versionsOf) } },
  );
}

/**
 * Adds the config's warnings as `config.ignored` issues naming the config file. With one set
 * chosen, warnings about other sets are left out.
 */
function withConfigWarnings(
  report: ValidationReport,
  kit: Kit,
  set: string | undefined,
  more: ValidationIssue[] = [],
): ValidationReport {
  const file = kit.config.file ? relative(kit.config.root, kit.config.file).split('\\').join('/') : undefined;
  const extra: ValidationIssue[] = [...more];
  for (const warning of kit.config.warnings ?? []) {
    const about = /`sets\.([^.`]+)/.exec(warning)?.[1];
    if (set !== undefined && about !== undefined && about !== set) continue;
    extra.push({
      rule: 'config.ignored',
      severity: 'warning',
      message: warning,
      ...(file !== undefined ? { file } : {}),
      fix: configWarningFix(warning),
    });
  }
  if (extra.length === 0) return report;
  const issues = [...report.issues, ...extra].sort((a, b) =>
    a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1,
  );
  const errors = issues.filter((issue) => issue.severity === 'error').length;
  return { ...report, ok: errors === 0, summary: { errors, warnings: issues.length - errors }, issues };
}

/** How to act on one config warning (the warnings are sentences of `resolveConfig`). */
function configWarningFix(warning: string): string {
  if (warning.includes('only the top-level value is read')) {
    return 'Write the key at the top level of the config, where it applies to every set, or remove it from the set.';
  }
  if (warning.includes('author_tools')) {
    return 'Turn `mcp.web.author_tools` on in database sets only (`sets.<key>.mcp.web.author_tools: true`), or remove it.';
  }
  if (warning.includes('read for database sets only')) {
    return "Remove the key from the repository set, or make the set a database set (`source.driver: 'database'`).";
  }
  if (warning.includes('a database set')) return 'Remove the key from the database set: it never reads it.';
  return 'Remove the key where the warning says it has no effect.';
}

/**
 * A `validate_docs` function for `@kit/mcp`: the same report as `kit validate --json`, for one set.
 */
export function validatorFor(kit: ValidatableKit, origin?: string) {
  return async (input: {
    set: string;
    version?: string;
    pages?: readonly string[];
  }): Promise<Record<string, unknown>> => {
    const report = await validateKit(kit, {
      set: input.set,
      ...(input.version !== undefined ? { version: input.version } : {}),
      ...(input.pages !== undefined ? { pages: input.pages } : {}),
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
  const scope = report.set ? `the docs set "${report.set}"` : 'the docs';
  const counted = [
    ...(errors > 0 ? [`${errors} error${errors === 1 ? '' : 's'}`] : []),
    ...(warnings > 0 ? [`${warnings} warning${warnings === 1 ? '' : 's'}`] : []),
  ];
  lines.push(counted.length === 0 ? `No problems found in ${scope}.` : `${counted.join(' and ')} in ${scope}.`);
  return `${lines.join('\n')}\n`;
}
