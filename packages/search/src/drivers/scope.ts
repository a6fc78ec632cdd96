import { KitError, type SearchScope } from '@kit/core';

/**
 * The key an index is stored under. The audience is part of it, so a public index and a private
 * index of the same version never share storage.
 */
export function scopeKey(scope: SearchScope): string {
  return [scope.set, scope.version, scope.locale, scope.audience].join('\u0000');
}

/** Refuses a scope that could not name one index (missing parts, unknown audience). */
export function assertSearchScope(scope: SearchScope): void {
  const parts = { set: scope?.set, version: scope?.version, locale: scope?.locale };
  for (const [field, value] of Object.entries(parts)) {
    if (typeof value !== 'string' || value === '') {
      throw new KitError(
        'argument.invalid',
        `Search scope needs a non-empty \`${field}\`; pass the set key, version id and locale code.`,
        {
          details: { field },
        },
      );
    }
  }
  if (scope.audience !== 'public' && scope.audience !== 'private') {
    throw new KitError(
      'argument.invalid',
      `Search scope audience must be 'public' or 'private', got ${JSON.stringify(scope.audience)}.`,
      { details: { field: 'audience' } },
    );
  }
}
