import { findRedirectLoops, findShadowedRedirects } from '../../redirects/redirects.js';
import { lineOf } from '../line-of.js';
import type { ValidationRun } from '../run.js';

/**
 * `redirects.loop` and `redirects.shadowed`, over every version (a redirect without a version
 * applies in all of them), whichever versions the run checks.
 */
export async function checkRedirects(run: ValidationRun): Promise<void> {
  const { layout, manifest } = run;
  const exists = new Set<string>();
  for (const version of layout.versions) {
    for (const locale of layout.locales) {
      for (const page of (await run.pagesOf({ version: version.id, locale: locale.code })).pages) {
        exists.add(`${version.id}\u0000${locale.code}\u0000${page.path}`);
      }
    }
  }
  const pageExists = (target: { version: string; locale: string; path: string }) =>
    exists.has(`${target.version}\u0000${target.locale}\u0000${target.path}`) ||
    (!target.path.endsWith('/index') &&
      exists.has(`${target.version}\u0000${target.locale}\u0000${target.path}/index`));
  for (const problem of [
    ...findRedirectLoops(manifest.redirects, layout, pageExists),
    ...findShadowedRedirects(manifest.redirects, layout, pageExists),
  ]) {
    const rule = manifest.redirects.find((candidate) => problem.message.includes(candidate.from));
    run.add({
      ...problem,
      file: run.manifestName,
      ...(rule ? lineOf(run.manifestText, JSON.stringify(rule.from)) : {}),
    });
  }
}
