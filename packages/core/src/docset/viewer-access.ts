import {
  type AccessDecision,
  type AccessRequest,
  accessAllowed,
  accessDecision,
  decideAccessWithoutGates,
  canManage as gateAllowsManage,
  canReviewChanges as gateAllowsReview,
  visibilityOf,
} from '../access/access.js';
import type { AccessMode, Gates } from '../config/types.js';
import type { SourcePage, VersionInfo, Visibility } from '../model/types.js';
import type { Viewer } from '../ports/docset.js';

/** What a question about access names: the set alone, a version (and locale), or a page of one. */
export interface AccessTarget {
  version?: VersionInfo;
  locale?: string;
  /** The page asked about. */
  page?: string;
  /** The visibility the page is judged by (private pages need `viewKit`). */
  pageVisibility?: Visibility;
}

/** The access questions a doc set asks, for one set with its mode and gates, all decided by `accessDecision`. */
export interface ViewerAccess {
  /** The decision for the viewer: synchronous when no gate needs asking or the gate answers synchronously. */
  decide(viewer: Viewer, target: AccessTarget): AccessDecision | Promise<AccessDecision>;
  /** {@link ViewerAccess.decide} as a yes or no. */
  allowed(viewer: Viewer, target: AccessTarget): boolean | Promise<boolean>;
  /** The decision when no gate needs asking, else undefined (see `decideAccessWithoutGates`). */
  settled(viewer: Viewer, target: AccessTarget): AccessDecision | undefined;
  /** Whether `viewKit` admits the viewer to private pages of a version (the private search audience). */
  seesPrivate(viewer: Viewer, version: VersionInfo, locale: string): Promise<boolean>;
  canManage(viewer: Viewer): Promise<boolean>;
  canReviewChanges(viewer: Viewer): Promise<boolean>;
}

/** A page's visibility: private when the source or its frontmatter says so. */
export function pageVisibility(page: SourcePage): Visibility {
  return page.visibility === 'private' || visibilityOf(page.frontmatter.visibility) === 'private'
    ? 'private'
    : 'public';
}

/** What an access question about a page of a version and locale names. */
export function pageTarget(version: VersionInfo, locale: string, page: SourcePage): AccessTarget {
  return { version, locale, page: page.path, pageVisibility: pageVisibility(page) };
}

/** The user a viewer is (null for a guest). */
export function userOf(viewer: Viewer): unknown | null {
  return viewer.user ?? null;
}

/**
 * Access for one set. Every question builds its {@link AccessRequest} in one function, from the
 * set's key, mode and gates, and is decided by `accessDecision`.
 */
export function createViewerAccess(options: { set: string; mode: AccessMode; gates: Gates }): ViewerAccess {
  const { set, gates } = options;
  const request = (viewer: Viewer, target: AccessTarget, mode: AccessMode = options.mode): AccessRequest => ({
    mode,
    user: userOf(viewer),
    local: viewer.local === true,
    gates,
    subject: {
      set,
      ...(target.version !== undefined ? { version: target.version.id } : {}),
      ...(target.locale !== undefined ? { locale: target.locale } : {}),
      ...(target.page !== undefined ? { page: target.page } : {}),
    },
    ...(target.version !== undefined ? { versionVisibility: target.version.visibility } : {}),
    ...(target.pageVisibility !== undefined ? { pageVisibility: target.pageVisibility } : {}),
  });
  return {
    decide: (viewer, target) => accessDecision(request(viewer, target)),
    allowed: (viewer, target) => accessAllowed(request(viewer, target)),
    settled: (viewer, target) => decideAccessWithoutGates(request(viewer, target)),
    async seesPrivate(viewer, version, locale) {
      // Asked as in a public set about a private page: only `viewKit` decides, whatever the mode.
      return accessAllowed(request(viewer, { version, locale, pageVisibility: 'private' }, 'public'));
    },
    async canManage(viewer) {
      if (viewer.local === true) return true;
      return gateAllowsManage(userOf(viewer), gates, { set });
    },
    async canReviewChanges(viewer) {
      if (viewer.local === true) return true;
      return gateAllowsReview(userOf(viewer), gates, { set });
    },
  };
}
