import type { NavigationFile, SourcePage, SourceProblem } from '../model/types.js';
import { deriveNavigation } from '../navigation/derive.js';
import { parseNavigation } from '../navigation/parse.js';
import type { ContentChange, ContentSource } from '../ports/content-source.js';
import { ScopedMap } from './scoped-map.js';

/** Single pages a watching set keeps between changes (see `findPage`). */
const MAX_FOUND_PAGES = 4096;

/** A version's navigation as read (or derived from its folders when it has no file). */
export interface NavigationState {
  file: NavigationFile;
  derived: boolean;
  problems: SourceProblem[];
}

/** A set's pages and navigation as the source gives them, cached while watching until a change names them. */
export interface Content {
  listAll(version: string, locale: string): Promise<SourcePage[]>;
  navigation(version: string, locale: string): Promise<NavigationState>;
  /** The first of `paths` that names a page of the scope, or null. */
  findPage(version: string, locale: string, paths: string[]): Promise<SourcePage | null>;
  /** How many change notices came so far: work begun under an older count is not cached. */
  changeCount(): number;
  /** Drops what a change notice makes stale. */
  invalidate(change: ContentChange): void;
}

/** The content part of a doc set: page listings, navigation and single pages, read through `source`. */
export function createContent(options: { source: ContentSource; watching: boolean }): Content {
  const { source, watching } = options;
  const pageLists = new ScopedMap<Promise<SourcePage[]>>();
  const navigations = new ScopedMap<Promise<NavigationState>>();
  // The pages of a settled listing by path, and single pages read since the last change, for findPage.
  const listedByPath = new WeakMap<Promise<SourcePage[]>, Map<string, SourcePage>>();
  // One map for every scope, so the oldest page found is the first to go; cleared on every change.
  const foundPages = new Map<string, SourcePage>();
  let changes = 0;

  function listAll(version: string, locale: string): Promise<SourcePage[]> {
    const cached = watching ? pageLists.get(version, locale) : undefined;
    if (cached) return cached;
    const loading = source.listPages(version, locale);
    if (watching) {
      pageLists.set(version, locale, loading);
      loading.then(
        (pages) => listedByPath.set(loading, new Map(pages.map((page) => [page.path, page]))),
        () => pageLists.delete(version, locale),
      );
    }
    return loading;
  }

  async function readNavigation(version: string, locale: string): Promise<NavigationState> {
    const file = await source.readNavigation(version, locale);
    const parsed = file ? parseNavigation(file.text, file.file) : null;
    if (parsed?.navigation) return { file: parsed.navigation, derived: false, problems: parsed.problems };
    const pages = await listAll(version, locale);
    return { file: deriveNavigation(pages), derived: true, problems: parsed?.problems ?? [] };
  }

  async function navigation(version: string, locale: string): Promise<NavigationState> {
    const cached = watching ? navigations.get(version, locale) : undefined;
    if (cached) return cached;
    const loading = readNavigation(version, locale);
    if (watching) {
      navigations.set(version, locale, loading);
      loading.catch(() => navigations.delete(version, locale));
    }
    return loading;
  }

  /** Keeps a page found by path while watching, until the next change (oldest first out past the limit). */
  function keepFound(key: string, page: SourcePage): void {
    foundPages.set(key, page);
    if (foundPages.size > MAX_FOUND_PAGES) foundPages.delete(foundPages.keys().next().value as string);
  }

  async function findPage(version: string, locale: string, paths: string[]): Promise<SourcePage | null> {
    // A listing cached while watching answers for its pages without asking the source again (which
    // would hand out a fresh copy of the page on every request).
    const listing = watching ? pageLists.get(version, locale) : undefined;
    const listed = listing ? listedByPath.get(listing) : undefined;
    for (const path of paths) {
      const key = JSON.stringify([version, locale, path]);
      const known = listed?.get(path) ?? foundPages.get(key);
      if (known) return known;
      const generation = changes;
      const page = await source.getPage(version, locale, path);
      if (!page) continue;
      // A page asked for in a version whose listing nobody has loaded yet (a Markdown twin,
      // another version's switcher link).
      if (watching && generation === changes) keepFound(key, page);
      return page;
    }
    return null;
  }

  return {
    listAll,
    navigation,
    findPage,
    changeCount: () => changes,
    invalidate(change) {
      changes += 1;
      foundPages.clear();
      if (change.kind === 'manifest') {
        navigations.clear();
        pageLists.clear();
        return;
      }
      if (change.kind !== 'page' && change.kind !== 'navigation') return;
      navigations.deleteIn(change);
      if (change.kind === 'page') pageLists.deleteIn(change);
    },
  };
}
