import type { DocSet } from '../ports/docset.js';
import { normalizePrefix } from '../urls/set-urls.js';

/** A set of the site, with its prefix in URL form. */
export interface SiteSet {
  set: DocSet;
  prefix: string;
}

/**
 * The sets a link from `docSet` can reach by site path: those mounted on its domain (or on every
 * domain), longest prefix first, as the site routes a request. `docSet` is always among them.
 */
export function siteSetsOf(docSet: DocSet, sets: readonly DocSet[]): SiteSet[] {
  const domain = docSet.config.route.domain;
  const reachable = sets.filter(
    (set) => set.key !== docSet.key && (set.config.route.domain === null || set.config.route.domain === domain),
  );
  return [docSet, ...reachable]
    .map((set) => ({ set, prefix: normalizePrefix(set.config.route.prefix) }))
    .sort((a, b) => b.prefix.length - a.prefix.length);
}

/** The set whose prefix holds `path`, or null when no set is mounted there. */
export function servingSet(site: SiteSet[], path: string): SiteSet | null {
  return site.find(({ prefix }) => prefix === '' || path === prefix || path.startsWith(`${prefix}/`)) ?? null;
}
