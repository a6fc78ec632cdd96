import type { SearchSection } from '../../ports/search-driver.js';
import type { Scope, ValidationRun } from '../run.js';
import { checkMarkdownSize } from './markdown-size.js';
import { checkPageLinks } from './page-links.js';
import { checkSearchBudget, guestSearchSections } from './search-budget.js';

/**
 * Every checked page of one version and locale: the problems its source and its render report,
 * `markdown.size`, the links out of it, then the browser search index the guest pages make.
 */
export async function checkPages(run: ValidationRun, scope: Scope): Promise<void> {
  const { pages } = await run.pagesOf(scope);
  const publicSections: SearchSection[] = [];
  for (const page of pages) {
    if (!run.checked(page)) continue;
    const at = { version: scope.version, locale: scope.locale, page: page.path };
    for (const problem of page.problems) run.add({ ...problem, file: problem.file ?? page.file }, at);
    const rendered = await run.renderOf(page);
    if (!rendered) continue;
    for (const problem of rendered.problems) run.add({ ...problem, file: problem.file ?? page.file }, at);
    checkMarkdownSize(run, page, rendered, at);
    await checkPageLinks(run, page, rendered, at);
    publicSections.push(...guestSearchSections(run, scope, page, rendered));
  }
  await checkSearchBudget(run, scope, publicSections);
}
