import type { SourcePage, SourceProblem } from '../../model/types.js';
import type { RenderedPage } from '../../ports/renderer.js';
import { matchRedirect } from '../../redirects/redirects.js';
import type { UrlLayout } from '../../urls/set-urls.js';
import { closest } from '../closest.js';
import { hasAnchor, isRawHtmlLink, type LinkTarget, resolveLinkTarget } from '../links.js';
import type { IssuePlace } from '../report.js';
import type { ValidationRun } from '../run.js';
import { servingSet } from '../site-sets.js';
import { checkFileLink } from './file-links.js';
import { checkSiteLink } from './site-links.js';
import { unsafeLink } from './unsafe-links.js';

/**
 * The links out of one page: files and images (`assets.missing`), unsafe schemes (`links.unsafe`),
 * pages and redirects (`links.broken`) and their anchors (`links.anchor`).
 */
export async function checkPageLinks(
  run: ValidationRun,
  page: SourcePage,
  rendered: RenderedPage,
  at: IssuePlace,
): Promise<void> {
  const { layout } = run;
  const { linkPrefix: _rebased, ...writtenLayout } = layout;
  for (const link of rendered.links) {
    const fileProblem = await checkFileLink(link, page, layout, run.docSet.source, run.pagesOf);
    if (fileProblem !== undefined) {
      if (fileProblem) {
        run.add(
          {
            ...fileProblem,
            ...(page.file ? { file: page.file } : {}),
            ...(link.line ? { line: link.line } : {}),
          },
          at,
        );
      }
      continue;
    }
    // An `<a href>` tag that raw HTML serves is served as written: `route.link_prefix` moves
    // only the links the renderer writes, so the tag is checked where it really leads.
    const servedRaw =
      layout.linkPrefix !== undefined &&
      run.rawHtml === 'allow' &&
      isRawHtmlLink(page.body, link.href, link.line === undefined ? undefined : link.line - page.bodyLine);
    const target = resolveLinkTarget(link.href, page, servedRaw ? writtenLayout : layout);
    const problem = await checkLink(target, link, page, run);
    if (problem) {
      run.add({ ...problem, ...(page.file ? { file: page.file } : {}), ...(link.line ? { line: link.line } : {}) }, at);
    }
  }
}

async function checkLink(
  target: LinkTarget,
  link: RenderedPage['links'][number],
  from: SourcePage,
  context: ValidationRun,
): Promise<SourceProblem | null> {
  const { href } = link;
  if (target.kind === 'external') return null;
  if (target.kind === 'site') {
    if (!context.site) return null;
    return checkSiteLink(href, target.path, target.versioned, from, servingSet(context.site, target.path), context);
  }
  if (target.kind === 'page' && target.site !== undefined && context.site) {
    // Another set mounted under this set's prefix (`/docs/api` beside `/docs`) serves its own paths.
    const serving = servingSet(context.site, target.site);
    if (serving && serving.set.key !== context.docSet.key) {
      return checkSiteLink(href, target.site, false, from, serving, context);
    }
  }
  if (target.kind === 'unsafe') {
    const raw = isRawHtmlLink(from.body, href, link.line === undefined ? undefined : link.line - from.bodyLine);
    return unsafeLink(href, target.scheme, raw ? context.rawHtml : null);
  }
  if (target.kind === 'invalid') {
    return {
      rule: 'links.broken',
      severity: 'error',
      message: `The link ${JSON.stringify(href)} leads out of ${scopeName(context.layout, from)}, so no page answers it.`,
      fix: 'Link to pages of another version by URL (/docs/<version>/<page>), and to this version relative to the page (./page.md).',
    };
  }
  const { layout } = context;
  const known =
    layout.versions.some((version) => version.id === target.version) &&
    layout.locales.some((locale) => locale.code === target.locale);
  const scopePages = known ? await context.pagesOf(target) : null;
  const page = scopePages ? target.paths.map((path) => scopePages.byPath.get(path)).find((found) => found) : undefined;
  if (!page) {
    const redirect =
      target.paths[0] !== undefined
        ? matchRedirect(context.manifest.redirects, layout, {
            version: target.version,
            locale: target.locale,
            path: target.paths[0],
            markdown: false,
          })
        : null;
    if (redirect) return null;
    const near = scopePages && target.paths[0] ? closest(target.paths[0], [...scopePages.byPath.keys()]) : null;
    return {
      rule: 'links.broken',
      severity: 'error',
      message: `The link ${JSON.stringify(href)} points at "${target.paths[0] ?? target.shown}", which is not a page of ${scopeName(layout, target)}.`,
      fix: near
        ? `Point the link at "${near}".`
        : 'Fix the link, create the page, or add a redirect for the old path in kit.json.',
    };
  }
  if (target.anchor === null) return null;
  const key = `${page.version}\u0000${page.locale}\u0000${page.path}`;
  let anchors = context.anchorsOf.get(key);
  if (!anchors) {
    const rendered = await context.renderOf(page);
    anchors = new Set(rendered?.anchors ?? []);
    context.anchorsOf.set(key, anchors);
  }
  if (hasAnchor(anchors, target.anchor)) return null;
  const near = closest(target.anchor, [...anchors]);
  const samePage = page.path === from.path && page.version === from.version && page.locale === from.locale;
  return {
    rule: 'links.anchor',
    severity: 'warning',
    message: `The link ${JSON.stringify(href)} points at the anchor #${target.anchor}, which ${samePage ? 'this page' : `the page "${page.path}"`} does not have.`,
    fix: near ? `Use #${near}.` : 'Link to a heading of that page, or add an anchor such as <a name="...">.',
  };
}

/**
 * A version and locale as people say them, naming only what the set has more than one of:
 * `the docs` for an unversioned single-locale set, `version 3.x of the docs`, `the fr docs`,
 * `version 3.x of the fr docs`.
 */
function scopeName(layout: UrlLayout, scope: { version: string; locale: string }): string {
  const docs = layout.locales.length > 1 ? `the ${scope.locale} docs` : 'the docs';
  return layout.versioned ? `version ${scope.version} of ${docs}` : docs;
}
