/** Which scopes a change notice names: a version, a locale, both, or (neither given) every one. */
export interface ScopeFilter {
  version?: string;
  locale?: string;
}

/** Whether a version and locale lie in what a change notice names. */
export function inScope(filter: ScopeFilter, version: string, locale: string): boolean {
  return (
    (filter.version === undefined || filter.version === version) &&
    (filter.locale === undefined || filter.locale === locale)
  );
}

/** Values cached per version and locale, so a change notice drops exactly the scopes it names. */
export class ScopedMap<T> {
  readonly #versions = new Map<string, Map<string, T>>();

  get(version: string, locale: string): T | undefined {
    return this.#versions.get(version)?.get(locale);
  }

  set(version: string, locale: string, value: T): void {
    let locales = this.#versions.get(version);
    if (!locales) {
      locales = new Map();
      this.#versions.set(version, locales);
    }
    locales.set(locale, value);
  }

  delete(version: string, locale: string): void {
    this.#versions.get(version)?.delete(locale);
  }

  /** Drops the values of every scope the filter names. */
  deleteIn(filter: ScopeFilter): void {
    for (const [version, locales] of this.#versions) {
      for (const locale of [...locales.keys()]) if (inScope(filter, version, locale)) locales.delete(locale);
    }
  }

  clear(): void {
    this.#versions.clear();
  }
}
