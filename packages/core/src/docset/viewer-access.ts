import {
  type AccessDecision,
  type AccessRequest,
  accessAllowed,
  decideAccess,
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
  /** The page asked about, with the visibility it is judged by. */
  page?: { path: string; visibility: Visibility };
}

/** The access questions a doc set asks, for one set with its mode and gates. */
export interface ViewerAccess {
  /** The one place a doc set builds an {@link AccessRequest}. */
  request(viewer: Viewer, target: AccessTarget): AccessRequest;
  /** Whether the viewer may see the target: without a promise when no gate needs one (see `accessAllowed`). */
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
  return { version, locale, page: { path: page.path, visibility: pageVisibility(page) } };
}

/** The user a viewer is (null for a guest). */
export function userOf(viewer: Viewer): unknown | null {
  return viewer.user ?? null;
}

/**
 * Access for one set: every question builds its request in {@link ViewerAccess.request}, from the
 * set's key, mode and gates.
 */
export function createViewerAccess(options: { set: string; mode: AccessMode; gates: Gates }): ViewerAccess {
  const { set, mode, gates } = options;
  const request = (viewer: Viewer, target: AccessTarget): AccessRequest => ({
    mode,
    user: userOf(viewer),
    local: viewer.local === true,
    gates,
    subject: {
      set,
      ...(target.version !== undefined ? { version: target.version.id } : {}),
      ...(target.locale !== undefined ? { locale: target.locale } : {}),
      ...(target.page !== undefined ? { page: target.page.path } : {}),
    },
    ...(target.version !== undefined ? { versionVisibility: target.version.visibility } : {}),
    ...(target.page !== undefined ? { pageVisibility: target.page.visibility } : {}),
  });
  return {
    request,
    allowed: (viewer, target) => accessAllowed(request(viewer, target)),
    settled: (viewer, target) => decideAccessWithoutGates(request(viewer, target)),
    async seesPrivate(viewer, version, locale) {
      // Asked as in a public set about a private page: only `viewKit` decides, whatever the mode.
      const asked = {
        ...request(viewer, { version, locale }),
        mode: 'public' as const,
        pageVisibility: 'private' as const,
      };
      return (await decideAccess(asked)).allowed;
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
