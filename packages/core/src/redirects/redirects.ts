import type { RedirectRule, SourceProblem } from '../model/types.js';
import { markdownUrl, pageUrl, parseSetUrl, type UrlLayout, type UrlTarget } from '../urls/set-urls.js';

/** A redirect rule read against a set's URL layout. */
interface ReadRule {
  rule: RedirectRule;
  index: number;
  /** Set when `from` names the version (rule 3: it matches that version only). */
  version: string | null;
  locale: string | null;
  path: string;
}

/** Where a matched redirect sends the reader. */
export interface RedirectMatch {
  location: string;
  status: RedirectRule['status'];
  rule: RedirectRule;
  /** The page inside the set the redirect lands on, when `to` is inside the set. */
  target: UrlTarget | null;
}

/** The request a redirect is matched against: a parsed page URL of the set. */
export interface RedirectRequest extends UrlTarget {
  markdown: boolean;
}

const absoluteUrl = /^[a-z][a-z0-9+.-]*:/i;

function readRules(rules: readonly RedirectRule[], layout: UrlLayout): ReadRule[] {
  const read: ReadRule[] = [];
  rules.forEach((rule, index) => {
    const parsed = parseSetUrl(stripSearch(rule.from).replace(/(.)\/+$/, '$1'), layout);
    if (parsed.kind !== 'page') return;
    read.push({
      rule,
      index,
      version: parsed.explicitVersion ? parsed.version : null,
      locale: parsed.explicitLocale ? parsed.locale : null,
      path: parsed.path,
    });
  });
  return read;
}

function stripSearch(value: string): string {
  const cut = value.search(/[?#]/);
  return cut === -1 ? value : value.slice(0, cut);
}

/**
 * The first rule that applies to a request, following the redirect rules of the manifest:
 * a `from` naming a version matches that version only, a `from` without one applies in every
 * version (locales follow the same rule). A rule naming the version wins over one that does not;
 * otherwise the first in the list wins. The caller checks rule 1 (no page at `from`) first.
 */
function findRule(read: readonly ReadRule[], request: UrlTarget): ReadRule | undefined {
  let best: ReadRule | undefined;
  let bestScore = -1;
  for (const candidate of read) {
    if (candidate.path !== request.path) continue;
    if (candidate.version !== null && candidate.version !== request.version) continue;
    if (candidate.locale !== null && candidate.locale !== request.locale) continue;
    const score = (candidate.version !== null ? 2 : 0) + (candidate.locale !== null ? 1 : 0);
    if (score > bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}

/**
 * Where a `to` leads for a reader at `request`: a full URL or a path outside the set is used as
 * written; a path inside the set (or a bare page path like `new-page`) keeps the reader's version
 * and locale unless it names them, and a `.md` request lands on the target's `.md` twin.
 */
function destination(
  rule: RedirectRule,
  layout: UrlLayout,
  request: RedirectRequest,
): { location: string; target: UrlTarget | null } {
  const to = rule.to.trim();
  if (absoluteUrl.test(to) || to.startsWith('//')) return { location: to, target: null };
  const cut = to.search(/[?#]/);
  const pathPart = cut === -1 ? to : to.slice(0, cut);
  const suffix = cut === -1 ? '' : to.slice(cut);
  const pathname = pathPart.startsWith('/') ? pathPart : `${layout.prefix}/${pathPart}`;
  const parsed = parseSetUrl(pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname, layout);
  if (parsed.kind !== 'page') return { location: to, target: null };
  const target: UrlTarget = {
    version: parsed.explicitVersion ? parsed.version : request.version,
    locale: parsed.explicitLocale ? parsed.locale : request.locale,
    path: parsed.path,
  };
  const twin = request.markdown || parsed.markdown;
  const url = twin ? markdownUrl(layout, target) : pageUrl(layout, target);
  return { location: url + suffix, target };
}

/**
 * The redirect for a request under a set, or null. Call it only when no page the reader may see
 * lives at the request (rule 1); `layout` should be the reader's layout so a hidden version reads
 * exactly like an undeclared one.
 *
 * @example
 * matchRedirect(manifest.redirects, layout, { version: '12.x', locale: 'en', path: 'old', markdown: false });
 * // { location: '/docs/12.x/new', status: 301, ... } for { from: '/docs/old', to: '/docs/new' }
 */
export function matchRedirect(
  rules: readonly RedirectRule[],
  layout: UrlLayout,
  request: RedirectRequest,
): RedirectMatch | null {
  const found = findRule(readRules(rules, layout), request);
  if (!found) return null;
  const { location, target } = destination(found.rule, layout, request);
  return { location, status: found.rule.status, rule: found.rule, target };
}

/** Whether a page exists at a place in the set (sync: the validator builds it from page lists). */
export type PageExists = (target: UrlTarget) => boolean;

/**
 * `redirects.loop`: chains of redirects that come back to where they started, in any version and
 * locale. A chain stops at a page that exists (when `pageExists` is given), since a redirect runs
 * only where no page lives. Each loop is reported once.
 *
 * @example
 * findRedirectLoops([{ from: '/docs/a', to: '/docs/b', status: 301 }, { from: '/docs/b', to: '/docs/a', status: 301 }], layout);
 * // [{ rule: 'redirects.loop', severity: 'error', message: 'Redirects loop: /docs/a → /docs/b → /docs/a', ... }]
 */
export function findRedirectLoops(
  rules: readonly RedirectRule[],
  layout: UrlLayout,
  pageExists?: PageExists,
): SourceProblem[] {
  const read = readRules(rules, layout);
  const problems: SourceProblem[] = [];
  const reported = new Set<string>();
  const key = (target: UrlTarget) => `${target.version}\u0000${target.locale}\u0000${target.path}`;

  for (const version of layout.versions) {
    for (const locale of layout.locales) {
      for (const start of read) {
        if (start.version !== null && start.version !== version.id) continue;
        if (start.locale !== null && start.locale !== locale.code) continue;
        let current: UrlTarget = { version: version.id, locale: locale.code, path: start.path };
        const seen: string[] = [];
        const hops: ReadRule[] = [];
        while (true) {
          const at = seen.indexOf(key(current));
          if (at !== -1) {
            const loopRules = hops.slice(at);
            const signature = loopRules
              .map((hop) => hop.index)
              .sort((a, b) => a - b)
              .join(',');
            if (!reported.has(signature)) {
              reported.add(signature);
              problems.push(loopProblem(loopRules));
            }
            break;
          }
          if (pageExists?.(current)) break;
          const rule = findRule(read, current);
          if (!rule) break;
          const next = destination(rule.rule, layout, { ...current, markdown: false }).target;
          if (!next) break;
          seen.push(key(current));
          hops.push(rule);
          current = next;
        }
      }
    }
  }
  return problems;
}

function loopProblem(loop: ReadRule[]): SourceProblem {
  const chain = [...loop.map((hop) => hop.rule.from), loop[0]!.rule.from].join(' → ');
  return {
    rule: 'redirects.loop',
    severity: 'error',
    message: `Redirects loop: ${chain}. A reader following them never reaches a page.`,
    file: 'kit.json',
    fix: `Point the redirect from ${loop[loop.length - 1]!.rule.from} at a page that exists, or remove one redirect of the loop.`,
  };
}

/**
 * `redirects.shadowed`: redirects that never run because a page lives at their `from`. A `from`
 * naming a version is shadowed when that version has the page; one without a version is reported
 * only when every version has the page (a page kept in older versions while renamed in newer ones
 * is the usual reason for a version-less redirect).
 *
 * @example
 * findShadowedRedirects(manifest.redirects, layout, (t) => pages.has(`${t.version}/${t.path}`));
 */
export function findShadowedRedirects(
  rules: readonly RedirectRule[],
  layout: UrlLayout,
  pageExists: PageExists,
): SourceProblem[] {
  const problems: SourceProblem[] = [];
  for (const read of readRules(rules, layout)) {
    const versions = read.version !== null ? [read.version] : layout.versions.map((version) => version.id);
    const locales = read.locale !== null ? [read.locale] : layout.locales.map((locale) => locale.code);
    const shadowedEverywhere = versions.every((version) =>
      locales.every((locale) => pageExists({ version, locale, path: read.path })),
    );
    if (!shadowedEverywhere) continue;
    problems.push({
      rule: 'redirects.shadowed',
      severity: 'warning',
      message: `The redirect from ${read.rule.from} never runs: the page "${read.path}" exists there${
        read.version === null && layout.versioned ? ' in every version' : ''
      }, and a redirect runs only when no page lives at its from.`,
      file: 'kit.json',
      fix: `Remove the redirect from ${read.rule.from}, or move or delete the page "${read.path}".`,
    });
  }
  return problems;
}
