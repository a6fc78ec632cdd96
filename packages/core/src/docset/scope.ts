import { KitError } from '../errors/kit-error.js';
import type { LocaleInfo, RedirectRule, VersionInfo } from '../model/types.js';
import type { Viewer } from '../ports/docset.js';
import type { SearchScope } from '../ports/search-driver.js';
import { parseSetUrl, restrictVersions, type UrlLayout } from '../urls/set-urls.js';
import type { ManifestReader } from './manifest-state.js';
import type { ViewerAccess } from './viewer-access.js';

/** What of a layout a viewer may see: its versions (read only) and the layout restricted to them. */
interface VisibleSubset {
  versions: VersionInfo[];
  view: UrlLayout;
}

/** A version and locale a call names, checked against what the viewer may see. */
export interface Scope {
  version: VersionInfo;
  locale: LocaleInfo;
  layout: UrlLayout;
}

/**
 * Each layout's subsets for the sets of versions viewers may see (see subsetOf), by which are
 * visible: a bit per version while they fit in a number, as every real set's do; a text past that.
 */
const layoutSubsets = new WeakMap<UrlLayout, Map<number | string, VisibleSubset>>();

/**
 * The versions of `layout` whose decision is true, and the layout as one who sees only those sees
 * it: made once per layout and set of decisions, so a request makes neither. With every version
 * visible the list is the layout's own.
 */
function subsetOf(layout: UrlLayout, allowed: readonly boolean[]): VisibleSubset {
  let subsets = layoutSubsets.get(layout);
  if (!subsets) {
    subsets = new Map();
    layoutSubsets.set(layout, subsets);
  }
  let key: number | string = 0;
  if (allowed.length <= 30) {
    for (let index = 0; index < allowed.length; index++) if (allowed[index]) key |= 1 << index;
  } else key = allowed.map((decision) => (decision ? '1' : '0')).join('');
  let subset = subsets.get(key);
  if (!subset) {
    const versions = allowed.every(Boolean) ? layout.versions : layout.versions.filter((_, index) => allowed[index]);
    const ids = new Set(versions.map((version) => version.id));
    subset = { versions, view: restrictVersions(layout, (version) => ids.has(version.id)) };
    subsets.set(key, subset);
  }
  return subset;
}

/** What a viewer may see of a set's versions, and the version and locale a call names. */
export interface Scopes {
  /** The versions a viewer may see (read only). */
  visibleVersions(viewer: Viewer): VersionInfo[] | Promise<VersionInfo[]>;
  /** The layout as a viewer sees it: their versions only. */
  viewerLayout(viewer: Viewer): UrlLayout | Promise<UrlLayout>;
  /**
   * The version and locale a call names, checked against what the viewer may see. Without a
   * version, URLs and agent files use the manifest's default version; the read tools (`current`)
   * use the current version: the default one when its status is `current`, else the first
   * visible version whose status is `current`, else the default one.
   */
  scopeFor(
    input: { version?: string; locale?: string },
    viewer: Viewer,
    unnamed?: 'default' | 'current',
  ): Promise<Scope>;
  /** The search scope a viewer gets: the private audience only for viewers `viewKit` admits to private pages. */
  searchScopeFor(
    input: { version?: string; locale?: string },
    viewer: Viewer,
  ): Promise<{ scope: Scope; searchScope: SearchScope }>;
  /**
   * The manifest redirects a viewer may follow: a rule whose `from` or `to` names a version the
   * viewer may not see is left out, so no redirect leads into (or reveals) a private version.
   */
  redirectsFor(viewer: Viewer): Promise<RedirectRule[]>;
}

/** The scope part of a doc set. */
export function createScopes(options: { set: string; manifest: ManifestReader; access: ViewerAccess }): Scopes {
  const { set, manifest, access } = options;

  /**
   * What of the layout a viewer may see: synchronously when the layout is read and no gate
   * answers with one. Gates are asked every time; only what their answers select is cached (subsetOf).
   */
  function visibleSubset(viewer: Viewer): VisibleSubset | Promise<VisibleSubset> {
    const layout = manifest.layout();
    if (layout instanceof Promise) return layout.then((read) => subsetFor(read, viewer));
    return subsetFor(layout, viewer);
  }

  function subsetFor(layout: UrlLayout, viewer: Viewer): VisibleSubset | Promise<VisibleSubset> {
    // Loops, not callbacks: this runs on every request for a page.
    const decisions: Array<boolean | Promise<boolean>> = new Array(layout.versions.length);
    let waiting = false;
    for (let index = 0; index < layout.versions.length; index++) {
      const decision = access.allowed(viewer, { version: layout.versions[index]! });
      decisions[index] = decision;
      if (decision instanceof Promise) waiting = true;
    }
    if (waiting) return Promise.all(decisions).then((allowed) => subsetOf(layout, allowed));
    return subsetOf(layout, decisions as boolean[]);
  }

  function visibleVersions(viewer: Viewer): VersionInfo[] | Promise<VersionInfo[]> {
    const subset = visibleSubset(viewer);
    return subset instanceof Promise ? subset.then((visible) => visible.versions) : subset.versions;
  }

  async function scopeFor(
    input: { version?: string; locale?: string },
    viewer: Viewer,
    unnamed: 'default' | 'current' = 'default',
  ): Promise<Scope> {
    const { layout } = await manifest.load();
    const visible = await visibleVersions(viewer);
    const versionId =
      input.version?.trim() || (unnamed === 'current' ? currentVersionId(layout, visible) : layout.defaultVersion);
    const version = visible.find((candidate) => candidate.id === versionId);
    if (!version) throw versionNotFound(set, versionId, visible, layout);
    const localeCode = input.locale?.trim() || layout.defaultLocale;
    const locale = layout.locales.find((candidate) => candidate.code === localeCode);
    if (!locale) {
      const codes = layout.locales.map((candidate) => candidate.code);
      throw new KitError(
        'locale.not_found',
        `No locale "${localeCode}" in the "${set}" docs. Use one of: ${codes.join(', ')} (default ${layout.defaultLocale}), or omit locale.`,
        { details: { locale: localeCode, locales: codes } },
      );
    }
    return { version, locale, layout };
  }

  return {
    visibleVersions,
    viewerLayout(viewer) {
      const subset = visibleSubset(viewer);
      return subset instanceof Promise ? subset.then((visible) => visible.view) : subset.view;
    },
    scopeFor,
    async searchScopeFor(input, viewer) {
      const scope = await scopeFor(input, viewer, 'current');
      const seesPrivate = await access.seesPrivate(viewer, scope.version, scope.locale.code);
      const searchScope: SearchScope = {
        set,
        version: scope.version.id,
        locale: scope.locale.code,
        audience: seesPrivate ? 'private' : 'public',
      };
      return { scope, searchScope };
    },
    async redirectsFor(viewer) {
      const { manifest: read, layout } = await manifest.load();
      const visible = new Set((await visibleVersions(viewer)).map((version) => version.id));
      const namesHidden = (url: string) => {
        if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(url)) return false;
        const parsed = parseSetUrl(url.replace(/[?#].*$/, '').replace(/(.)\/+$/, '$1'), layout);
        return parsed.kind === 'page' && parsed.explicitVersion && !visible.has(parsed.version);
      };
      return read.redirects.filter((rule) => !namesHidden(rule.from) && !namesHidden(rule.to));
    },
  };
}

function currentVersionId(layout: UrlLayout, visible: VersionInfo[]): string {
  const preferred = visible.find((version) => version.id === layout.defaultVersion && version.status === 'current');
  return (preferred ?? visible.find((version) => version.status === 'current'))?.id ?? layout.defaultVersion;
}

function versionNotFound(set: string, versionId: string, visible: VersionInfo[], layout: UrlLayout): KitError {
  const ids = visible.map((candidate) => candidate.id);
  return new KitError(
    'version.not_found',
    ids.length === 0
      ? `No version "${versionId}" is available to you in the "${set}" docs.`
      : `No version "${versionId}" in the "${set}" docs. Use one of: ${ids.join(', ')} (default ${layout.defaultVersion}), or omit version.`,
    { details: { version: versionId, versions: ids } },
  );
}
