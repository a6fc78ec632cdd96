import { KitError } from '../errors/kit-error.js';
import type { NormalizedManifest, SourcePage } from '../model/types.js';
import type { DocSet } from '../ports/docset.js';
import type { RenderedPage } from '../ports/renderer.js';
import { createUrlLayout, type UrlLayout } from '../urls/set-urls.js';
import type { ValidateDocSetOptions } from './options.js';
import { renderPage } from './render-page.js';
import type { AddIssue } from './report.js';
import type { CheckedManifest } from './rules/manifest.js';
import { type SiteSet, siteSetsOf } from './site-sets.js';

/** One version and locale of the set. */
export interface Scope {
  version: string;
  locale: string;
}

/** The pages of one scope, as listed and by path. */
export interface ScopePages {
  pages: SourcePage[];
  byPath: Map<string, SourcePage>;
}

/** How a set serves raw HTML: `allow` as written, `escape` as text, `database` as text, sanitized. */
export type RawHtml = 'allow' | 'escape' | 'database';

/**
 * What every rule group of one validation reads: the set and its manifest, the versions checked,
 * the page lists and renders (each listed and rendered once per run), and where issues go.
 */
export interface ValidationRun {
  readonly docSet: DocSet;
  readonly options: ValidateDocSetOptions;
  readonly manifest: NormalizedManifest;
  /** The manifest's file name, for issues about it. */
  readonly manifestName: string;
  /** The manifest's text, for the lines of issues about it; undefined when the set has none. */
  readonly manifestText: string | undefined;
  readonly layout: UrlLayout;
  /** The versions checked: the one asked for, else every version. */
  readonly versions: string[];
  /** The sets serving the same domain as this one, longest prefix first; null when unknown. */
  readonly site: SiteSet[] | null;
  readonly rawHtml: RawHtml;
  pagesOf(scope: Scope): Promise<ScopePages>;
  renderOf(page: SourcePage): Promise<RenderedPage | null>;
  /** The anchors of pages links point at, by version, locale and path. */
  readonly anchorsOf: Map<string, Set<string>>;
  /** Whether `page` gets its own checks (`options.pages`). */
  checked(page: SourcePage): boolean;
  /** True when only some pages are checked (`options.pages`). */
  readonly focused: boolean;
  readonly add: AddIssue;
}

/**
 * The run of one validation after its manifest was read. Throws `version.not_found` for a version
 * the set does not have.
 */
export function createValidationRun(
  options: ValidateDocSetOptions,
  checkedManifest: CheckedManifest,
  add: AddIssue,
): ValidationRun {
  const { docSet } = options;
  const { manifest } = checkedManifest;
  const layout = createUrlLayout(docSet.config.route.prefix, manifest, {
    linkPrefix: docSet.config.route.link_prefix,
  });
  const focus = options.pages ? new Set(options.pages) : null;
  return {
    docSet,
    options,
    manifest,
    manifestName: checkedManifest.name,
    manifestText: checkedManifest.text,
    layout,
    versions: versionsToCheck(docSet, layout, options.version),
    site: options.site ? siteSetsOf(docSet, options.site) : null,
    rawHtml: docSet.source.kind === 'database' ? 'database' : docSet.config.html_input === 'allow' ? 'allow' : 'escape',
    pagesOf: createPageLists(docSet.source),
    renderOf: createRenders((page) => renderPage(options, docSet, layout, page)),
    anchorsOf: new Map(),
    checked: (page) => focus === null || focus.has(page.path),
    focused: focus !== null,
    add,
  };
}

function versionsToCheck(docSet: DocSet, layout: UrlLayout, version: string | undefined): string[] {
  const versions = layout.versions.map((candidate) => candidate.id);
  if (version === undefined) return versions;
  if (!versions.includes(version)) {
    throw new KitError(
      'version.not_found',
      `The "${docSet.key}" docs have no version "${version}". Use one of: ${versions.join(', ')}, or leave the version out to check every one.`,
      { details: { version, versions } },
    );
  }
  return [version];
}

/** Lists each scope's pages once, however many rules ask. */
function createPageLists(source: DocSet['source']): (scope: Scope) => Promise<ScopePages> {
  const listed = new Map<string, Promise<ScopePages>>();
  return (scope) => {
    const key = `${scope.version}\u0000${scope.locale}`;
    let found = listed.get(key);
    if (!found) {
      found = source.listPages(scope.version, scope.locale).then((pages) => ({
        pages,
        byPath: new Map(pages.map((page) => [page.path, page])),
      }));
      listed.set(key, found);
    }
    return found;
  };
}

/** Renders each page once, however many rules ask. */
function createRenders(
  render: (page: SourcePage) => Promise<RenderedPage | null>,
): (page: SourcePage) => Promise<RenderedPage | null> {
  const renders = new Map<string, Promise<RenderedPage | null>>();
  return (page) => {
    const key = `${page.version}\u0000${page.locale}\u0000${page.path}`;
    let found = renders.get(key);
    if (!found) {
      found = render(page);
      renders.set(key, found);
    }
    return found;
  };
}

/**
 * With a renderer that renders several pages at a time, asks for every checked page up front, so
 * all the renderer's threads stay busy while the checks read the renders in page order. The checks
 * await each render, so a failure still surfaces there; the catch only keeps a render nobody awaits
 * yet from counting as unhandled. Pages with the same Markdown (most pages are unchanged from one
 * version to the next) are asked for one after the other, so the renderer can parse that Markdown
 * once for all of them.
 */
export async function requestRendersEarly(run: ValidationRun): Promise<void> {
  const { renderer } = run.options;
  if (!renderer || !('renderPage' in renderer) || !((renderer.concurrency ?? 1) > 1)) return;
  const sameText = new Map<string, SourcePage[]>();
  for (const version of run.versions) {
    for (const locale of run.layout.locales) {
      for (const page of (await run.pagesOf({ version, locale: locale.code })).pages) {
        if (!run.checked(page)) continue;
        const group = sameText.get(page.body);
        if (group) group.push(page);
        else sameText.set(page.body, [page]);
      }
    }
  }
  for (const group of sameText.values()) for (const page of group) run.renderOf(page).catch(() => {});
}
