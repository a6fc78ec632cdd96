import type { SourceProblem } from '../../model/types.js';
import type { DocSet } from '../../ports/docset.js';
import { contentFolder, type UrlLayout } from '../../urls/set-urls.js';
import { lineOf } from '../line-of.js';
import type { ValidationRun } from '../run.js';

/**
 * `locales.missing`: a locale the manifest declares that a version has no page in. Its readers'
 * version switcher sends them to the version's default locale instead, and every link into it is
 * a 404.
 */
export async function checkLocales(run: ValidationRun): Promise<void> {
  const { layout } = run;
  if (layout.locales.length <= 1) return;
  for (const version of run.versions) {
    const counts = await Promise.all(
      layout.locales.map(async (locale) => ({
        locale: locale.code,
        pages: (await run.pagesOf({ version, locale: locale.code })).pages.length,
      })),
    );
    const present = counts.filter((count) => count.pages > 0);
    // An empty version is reported by the rules that look at its pages; here only a gap counts.
    if (present.length === 0) continue;
    for (const { locale } of counts.filter((count) => count.pages === 0)) {
      run.add(
        missingLocale(
          layout,
          version,
          locale,
          run.docSet.source.kind,
          run.manifestName,
          run.manifestText,
          present[0]!.locale,
        ),
        { version, locale },
      );
    }
  }
}

/**
 * `locales.missing`: version `version` has no page in the declared locale `locale`. For a
 * repository set the fix names the folder to create, for a database set the pages to add.
 */
function missingLocale(
  layout: UrlLayout,
  version: string,
  locale: string,
  kind: DocSet['source']['kind'],
  manifestName: string,
  manifestText: string | undefined,
  example: string,
): SourceProblem {
  const where = kind === 'database' ? '' : ` (folder ${contentFolder(layout, version, locale) || '.'}/)`;
  const from =
    kind === 'database' ? `the ${example} pages of ${version}` : `${contentFolder(layout, version, example) || '.'}/`;
  return {
    rule: 'locales.missing',
    severity: 'warning',
    message: `The manifest declares the locale "${locale}", but version ${version} has no ${locale} pages${where}: readers of ${locale} who switch to ${version} land on its ${layout.defaultLocale} pages.`,
    file: manifestName,
    ...lineOf(manifestText, JSON.stringify(locale)),
    fix:
      kind === 'database'
        ? `Add ${locale} pages to version ${version} (translate ${from}), or ignore this warning if ${version} is not translated.`
        : `Create the folder ${contentFolder(layout, version, locale)}/ with ${locale} pages (translated from ${from}), or ignore this warning if ${version} is not translated.`,
  };
}
