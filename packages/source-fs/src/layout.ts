import type { NormalizedManifest } from '@kit/core';
import { contentFolder, pagePathProblem } from '@kit/core/internal';

/**
 * The folder layout of a repository set, derived from its normalized manifest:
 *
 * - `{set}/kit.json`; `{set}/skills/*.md`; stylesheets named by `assets.css` relative to kit.json.
 * - one folder per declared version (`{set}/13.x/`); none for an unversioned set (its one version
 *   `current` lives at the set root);
 * - inside a version, the default locale's pages at the version root and each other locale in a
 *   subfolder named by its code (`{set}/13.x/ar/`); a locale folder is never a page folder;
 * - `navigation.json` at each version root (default locale) and in each locale folder.
 */
export interface SetLayout {
  /** Folder of one version and locale relative to the set root (`''` is the root), or null when undeclared. */
  pageFolder(version: string, locale: string): string | null;
  /** Top-level names inside a page folder that hold no pages of that version and locale. */
  reservedNames(version: string, locale: string): ReadonlySet<string>;
  /** Which version, locale and page path a file (relative to the set root) is, or null when it is no page. */
  locate(file: string): { version: string; locale: string; path: string } | null;
  /** Which version and locale a folder (relative to the set root) holds the navigation of, or null. */
  navigationScope(folder: string): { version: string; locale: string } | null;
  versions: string[];
  locales: string[];
}

export const SKILLS_FOLDER = 'skills';
export const NAVIGATION_FILE = 'navigation.json';
export const MANIFEST_FILE = 'kit.json';

/** True for names the source never reads: dotfiles and dependency folders (`node_modules` in any case). */
export function isIgnoredName(name: string): boolean {
  return name.startsWith('.') || name.toLowerCase() === 'node_modules';
}

/** Derives the layout; see {@link SetLayout}. */
export function setLayout(manifest: NormalizedManifest): SetLayout {
  const versions = manifest.versions.map((version) => version.id);
  const locales = manifest.locales.map((locale) => locale.code);
  const defaultLocale = manifest.locales.find((locale) => locale.default)?.code ?? locales[0] ?? 'en';
  const otherLocales = new Set(locales.filter((code) => code !== defaultLocale));

  const pageFolder = (version: string, locale: string): string | null => {
    if (!versions.includes(version) || !locales.includes(locale)) return null;
    return contentFolder({ versioned: manifest.versioned, defaultLocale }, version, locale);
  };

  const reservedNames = (_version: string, locale: string): ReadonlySet<string> => {
    if (locale !== defaultLocale) return new Set();
    const reserved = new Set(otherLocales);
    // An unversioned set shares its root with the skills folder.
    if (!manifest.versioned) reserved.add(SKILLS_FOLDER);
    return reserved;
  };

  const splitScope = (segments: string[]) => {
    let version: string;
    let rest = segments;
    if (manifest.versioned) {
      const [first, ...others] = segments;
      if (first === undefined || !versions.includes(first)) return null;
      version = first;
      rest = others;
    } else {
      version = versions[0] ?? 'current';
    }
    let locale = defaultLocale;
    if (rest.length > 1 && otherLocales.has(rest[0]!)) {
      locale = rest[0]!;
      rest = rest.slice(1);
    }
    return { version, locale, rest };
  };

  return {
    versions,
    locales,
    pageFolder,
    reservedNames,
    locate(file) {
      const segments = file.split('/');
      if (segments.some((segment) => segment === '' || isIgnoredName(segment))) return null;
      const scope = splitScope(segments);
      if (!scope || scope.rest.length === 0) return null;
      const { version, locale, rest } = scope;
      if (rest.length > 1 && reservedNames(version, locale).has(rest[0]!)) return null;
      const last = rest[rest.length - 1]!;
      if (!last.endsWith('.md') || last === '.md') return null;
      const path = rest.join('/').slice(0, -'.md'.length);
      // A file whose name breaks the page-path rule is never a page (fs-source reports it).
      if (pagePathProblem(path)) return null;
      return { version, locale, path };
    },
    navigationScope(folder) {
      const segments = folder === '' ? [] : folder.split('/');
      const scope = splitScope([...segments, NAVIGATION_FILE]);
      if (!scope) return null;
      if (scope.rest.length !== 1) return null;
      return { version: scope.version, locale: scope.locale };
    },
  };
}
