import { navigationPages } from '../../navigation/pages.js';
import { parseNavigation } from '../../navigation/parse.js';
import type { UrlLayout } from '../../urls/set-urls.js';
import { closest } from '../closest.js';
import { lineOf } from '../line-of.js';
import type { Scope, ValidationRun } from '../run.js';

/**
 * The navigation of one version and locale: its schema (`navigation.schema`), entries without pages
 * (`navigation.missing_page`) and pages in no navigation (`navigation.orphan`).
 */
export async function checkNavigation(run: ValidationRun, scope: Scope): Promise<void> {
  const { layout } = run;
  const { version, locale } = scope;
  const where = { version, locale };
  const navigationFile = await run.docSet.source.readNavigation(version, locale);
  if (navigationFile === null) return;
  const navFile = navigationFile.file ?? navigationFileName(layout, version, locale);
  const navigation = parseNavigation(navigationFile.text, navFile);
  for (const problem of navigation.problems) run.add({ ...problem, file: problem.file ?? navFile }, where);
  if (!navigation.navigation) return;
  const { pages, byPath } = await run.pagesOf(scope);
  const listedPaths = new Set<string>();
  for (const entry of navigationPages(navigation.navigation)) {
    listedPaths.add(entry.path);
    if (byPath.has(entry.path) || byPath.has(`${entry.path}/index`)) continue;
    const near = closest(entry.path, [...byPath.keys()]);
    run.add(
      {
        rule: 'navigation.missing_page',
        severity: 'error',
        message: `The navigation lists "${entry.path}" (group "${entry.group}"), but version ${version} (${locale}) has no such page.`,
        file: navFile,
        ...lineOf(navigationFile.text, JSON.stringify(entry.path)),
        fix: near
          ? `Point the entry at "${near}", or create the page ${entry.path}.md.`
          : `Create the page ${entry.path}.md, or remove the entry from the navigation.`,
      },
      where,
    );
  }
  for (const page of pages) {
    if (listedPaths.has(page.path) || page.path === layout.landing || page.path === 'index') continue;
    if (page.path.endsWith('/index') && listedPaths.has(page.path.slice(0, -'/index'.length))) continue;
    run.add(
      {
        rule: 'navigation.orphan',
        severity: 'warning',
        message: `The page "${page.path}" is in no navigation group, so readers reach it only through links.`,
        ...(page.file ? { file: page.file } : {}),
        fix: `Add "${page.path}" to a group in ${navFile}.`,
      },
      { ...where, page: page.path },
    );
  }
}

/** The navigation file's name when the source does not give one. */
function navigationFileName(layout: UrlLayout, version: string, locale: string): string {
  const parts: string[] = [];
  if (layout.versioned) parts.push(version);
  if (locale !== layout.defaultLocale) parts.push(locale);
  parts.push('navigation.json');
  return parts.join('/');
}
