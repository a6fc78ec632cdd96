import { searchSectionsOf } from '../../docset/search-sections.js';
import type { SourcePage } from '../../model/types.js';
import type { RenderedPage } from '../../ports/renderer.js';
import type { SearchSection } from '../../ports/search-driver.js';
import { markdownUrl, pageUrl } from '../../urls/set-urls.js';
import type { Scope, ValidationRun } from '../run.js';

/**
 * The sections of `page` a guest may search, exactly what the `client` driver indexes; none when
 * the run does not check `search.budget` or a guest cannot read the page.
 */
export function guestSearchSections(
  run: ValidationRun,
  scope: Scope,
  page: SourcePage,
  rendered: RenderedPage,
): SearchSection[] {
  const { layout } = run;
  const versionInfo = layout.versions.find((candidate) => candidate.id === scope.version);
  if (!run.options.searchBudget || versionInfo?.visibility !== 'public' || page.visibility !== 'public') return [];
  const target = { version: scope.version, locale: scope.locale, path: page.path };
  return searchSectionsOf(page, rendered.sections, {
    url: pageUrl(layout, target),
    markdownUrl: markdownUrl(layout, target),
  });
}

/**
 * `search.budget`: the browser search index of one version and locale is over `search.budget_kb`
 * gzipped, so the `client` driver serves readers through the server instead (see
 * `createClientSearch` of @kit/search). Not checked when only some pages are.
 */
export async function checkSearchBudget(run: ValidationRun, scope: Scope, sections: SearchSection[]): Promise<void> {
  const { searchBudget } = run.options;
  if (!searchBudget || run.focused || sections.length === 0) return;
  const report = await searchBudget(
    { set: run.docSet.key, version: scope.version, locale: scope.locale, audience: 'public' },
    sections,
  );
  if (!report || !(report.gzipBytes > report.budgetKb * 1024)) return;
  run.add(
    {
      rule: 'search.budget',
      severity: 'warning',
      message: `The browser search index of version ${scope.version} (${scope.locale}) is ${(report.gzipBytes / 1024).toFixed(1)} KB gzipped, over search.budget_kb (${report.budgetKb} KB); browsers are not sent it, and readers' searches go to the server, one request per query.`,
      fix: "Raise search.budget_kb to send browsers the index again, or set search.driver to 'server' for this set to stop building it.",
    },
    { version: scope.version, locale: scope.locale },
  );
}
