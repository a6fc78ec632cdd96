import type { SourcePage, SourceProblem } from '../../model/types.js';
import { LOCAL } from '../render-page.js';
import type { ValidationRun } from '../run.js';
import type { SiteSet } from '../site-sets.js';

/**
 * `links.broken` for a site-absolute link that leaves this set: it must reach a page, `.md` twin or
 * redirect of the set mounted there. A path under no set is the application's, and is reported
 * only when written with `{{version}}` (only a docs link carries it). Another set is named by its
 * mount, never by its key, and none of its pages is suggested: `validate_docs` on the web answers
 * the managers of one set.
 */
export async function checkSiteLink(
  href: string,
  path: string,
  versioned: boolean,
  from: SourcePage,
  serving: SiteSet | null,
  context: ValidationRun,
): Promise<SourceProblem | null> {
  if (serving) {
    const match = await serving.set.resolveUrl(path.length > 1 ? path.replace(/\/+$/, '') : path, LOCAL);
    if (match.kind !== 'none') return null;
  } else if (!versioned) {
    return null;
  }
  const mount = serving ? `the doc set mounted at ${serving.prefix || '/'}` : 'no doc set of this site';
  const own = await ownPageFor(href, from, context);
  const key = context.docSet.key;
  return {
    rule: 'links.broken',
    severity: 'error',
    message: serving
      ? `The link ${JSON.stringify(href)} leads to ${path}, in ${mount}, which has no page there, so readers get a 404.`
      : `The link ${JSON.stringify(href)} leads to ${path}, a path ${mount} serves, so readers get a 404.`,
    fix: own
      ? `This set has the page "${own.page}". If the pages were written for a site that mounts this set at ${own.base || '/'}, set sets.${key}.route.link_prefix: '${own.base.replace(/^\//, '')}' in kit.config.ts; otherwise link to ${own.url}.`
      : serving
        ? `Point the link at a page of ${mount}, or at a page of this set (${context.layout.prefix}/...).`
        : `Point the link at a page of a doc set (this set is mounted at ${context.layout.prefix || '/'}).`,
  };
}

/**
 * When a broken site link reads as a page of this set written under another mount
 * (`/docs/{{version}}/routing` in a set mounted at `/laravel`): that page, the mount the link was
 * written for and the link as this set serves it.
 */
async function ownPageFor(
  href: string,
  from: SourcePage,
  context: ValidationRun,
): Promise<{ page: string; base: string; url: string } | null> {
  const match = WRITTEN_BASE.exec(href.trim());
  if (!match) return null;
  const base = match[1]!;
  const rest = (match[2] ?? '').replace(/^\/+|\/+$/g, '').replace(/\.md$/, '');
  const { byPath } = await context.pagesOf(from);
  const path = rest === '' ? context.layout.landing : rest;
  const page = byPath.get(path) ?? byPath.get(`${path}/index`);
  if (!page) return null;
  return {
    page: page.path,
    base,
    url: `${context.layout.prefix}/{{version}}${rest === '' ? '' : `/${rest}`}`,
  };
}

/** `/base/{{version}}/rest`: the mount a `{{version}}` link was written for, and the page part. */
const WRITTEN_BASE = /^(\/[^?#]*?|)\/\{\{\s*version\s*\}\}((?:\/[^?#]*)?)(?:[?#].*)?$/;
