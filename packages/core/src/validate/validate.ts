import type { ValidationReport } from '../schemas/documents.js';
import type { ValidateDocSetOptions } from './options.js';
import { createIssueList, reportOf } from './report.js';
import { checkLocales } from './rules/locales.js';
import { checkManifest } from './rules/manifest.js';
import { checkMcpPath } from './rules/mcp-path.js';
import { checkNavigation } from './rules/navigation.js';
import { checkPages } from './rules/pages.js';
import { checkRedirects } from './rules/redirects.js';
import { createValidationRun, requestRendersEarly } from './run.js';

export type {
  RenderContextInput,
  SearchBudgetCheck,
  SearchBudgetReport,
  ValidateDocSetOptions,
  ValidationRenderer,
} from './options.js';
export { mergeValidationReports } from './report.js';

/** Rules the engine reports, in the order a person fixes them. Documented under `kit validate` in apps/site/reference/cli.md. */
export const VALIDATION_RULES = [
  'manifest.schema',
  'manifest.integrations',
  'assets.missing',
  'links.unsafe',
  'links.broken',
  'links.anchor',
  'redirects.loop',
  'redirects.shadowed',
  'mcp.path_page',
  'navigation.schema',
  'navigation.missing_page',
  'navigation.orphan',
  'frontmatter.schema',
  'components.unknown',
  'components.invalid',
  'references.unknown',
  'references.denied',
  'html.filtered',
  'snippets.missing',
  'anchors.duplicate',
  'markdown.size',
  'markdown.complexity',
  'search.budget',
] as const;

/**
 * Validates one doc set: the manifest (`manifest.schema`, `manifest.integrations`,
 * `assets.missing`, `links.unsafe`), redirects (`redirects.loop`, `redirects.shadowed`), locales a
 * version has no pages in (`locales.missing`), the
 * navigation of each version and locale (`navigation.schema`, `navigation.missing_page`,
 * `navigation.orphan`), every page (`frontmatter.schema`, `links.broken`, `links.anchor`,
 * `components.unknown`, `snippets.missing`, `markdown.size`) and the browser search index
 * (`search.budget`). Pure composition over the `DocSet` and `ContentSource` ports, so
 * `kit validate --json` and the `validate_docs` tool return the same report.
 *
 * @example
 * const report = await validateDocSet({ docSet: kit.set('docs'), renderer });
 * report.ok; // false when any issue is an error
 */
export async function validateDocSet(options: ValidateDocSetOptions): Promise<ValidationReport> {
  const { docSet } = options;
  const { issues, add } = createIssueList(docSet.key);
  const manifest = await checkManifest(docSet, options.components, add);
  // Pages the source cannot read would be checked as missing (every link to them broken): until
  // they can be read, the read errors are the report.
  if (issues.some((issue) => issue.rule === 'source.read' && issue.severity === 'error')) {
    return reportOf(issues, docSet.key, options.version ?? null);
  }
  const run = createValidationRun(options, manifest, add);
  await requestRendersEarly(run);
  await checkRedirects(run);
  await checkLocales(run);
  for (const version of run.versions) {
    for (const locale of run.layout.locales) {
      const scope = { version, locale: locale.code };
      await checkNavigation(run, scope);
      await checkMcpPath(run, scope);
      await checkPages(run, scope);
    }
  }
  return reportOf(issues, docSet.key, options.version ?? null);
}
