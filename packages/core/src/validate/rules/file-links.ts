import { isServableFileName, looksLikeFile } from '../../files/file-names.js';
import type { SourcePage, SourceProblem } from '../../model/types.js';
import type { DocSet } from '../../ports/docset.js';
import type { RenderedPage } from '../../ports/renderer.js';
import {
  fileCandidates,
  linkBaseOf,
  parseSetUrl,
  rebaseLink,
  resolveFilePath,
  type UrlLayout,
  type UrlTarget,
} from '../../urls/set-urls.js';
import type { Scope, ScopePages } from '../run.js';

/**
 * `assets.missing` for an image, or a link to a file (`./guide.pdf`), that names no file beside the
 * pages of its version (and locale, falling back to the default locale's as the server does); null
 * when the file is there; undefined when the link is no file link (a page, another site), which
 * the page-link checks take.
 */
export async function checkFileLink(
  link: RenderedPage['links'][number],
  page: SourcePage,
  layout: UrlLayout,
  source: DocSet['source'],
  pagesOf: (scope: Scope) => Promise<ScopePages>,
): Promise<SourceProblem | null | undefined> {
  const written = link.href.trim().replace(/\{\{\s*version\s*\}\}/g, page.version);
  if (written === '' || written.startsWith('#') || written.startsWith('//') || /^[a-z][a-z\d+.-]*:/i.test(written)) {
    return undefined;
  }
  const cut = written.search(/[?#]/);
  const pathPart = cut === -1 ? written : written.slice(0, cut);
  if (pathPart === '') return undefined;
  const what = link.image ? 'image' : 'file';
  let target: UrlTarget;
  if (pathPart.startsWith('/')) {
    const parsed = parseSetUrl(rebaseLink(pathPart, linkBaseOf(layout)), layout);
    if (parsed.kind !== 'page' || parsed.markdown || parsed.root) return undefined;
    target = { version: parsed.version, locale: parsed.locale, path: parsed.path };
  } else {
    const path = resolveFilePath(page.path, pathPart);
    if (path === null) {
      if (!link.image) return undefined;
      return {
        rule: 'assets.missing',
        severity: 'error',
        message: `The image ${JSON.stringify(link.href)} climbs out of version ${page.version} (${page.locale}) of the docs, where no file is served.`,
        fix: 'Keep images inside the version folder, next to the pages that show them, and link them relative to the page.',
      };
    }
    target = { version: page.version, locale: page.locale, path };
  }
  if (!link.image) {
    if (!looksLikeFile(target.path)) return undefined;
    // A page may look like a file (`v1.2`): then the link is a page link.
    const { byPath } = await pagesOf({ version: target.version, locale: target.locale });
    if (byPath.has(target.path) || byPath.has(`${target.path}/index`)) return undefined;
  }
  const names = fileCandidates(layout, target);
  for (const name of names) {
    if (isServableFileName(name) && (await source.openFile(name)) !== null) return null;
  }
  const name = names[0]!;
  if (!isServableFileName(name)) {
    return {
      rule: 'assets.missing',
      severity: 'error',
      message: `The ${what} ${JSON.stringify(link.href)} names ${name}, which Kit never serves: dotfiles, Markdown sources, kit.json, navigation files and secret-looking names (keys, .env, credentials) stay private.`,
      fix: `Rename the ${what} to a plain name (for example images/diagram.png) and link that.`,
    };
  }
  return {
    rule: 'assets.missing',
    severity: 'error',
    message: `The ${what} ${JSON.stringify(link.href)} points at ${name}, which does not exist, so readers get a 404.`,
    fix: `Add the file ${name} next to the pages of version ${page.version}, or fix the path.`,
  };
}
