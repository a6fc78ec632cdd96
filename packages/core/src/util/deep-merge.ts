/** True for `{}`-style objects (not arrays, dates, class instances or functions). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

export interface DeepMergeOptions {
  /**
   * Called with the key path of a plain object the override holds; returning true makes that object
   * replace the base value whole instead of merging into it (a map of provider to model is one value).
   */
  replaceAt?: (path: readonly string[]) => boolean;
}

/**
 * Merges `override` into `base` without touching either: plain objects merge key by key, everything
 * else (lists, strings, null, functions, class instances) replaces the base value whole, and
 * `undefined` leaves the base value in place. Lists replace rather than concatenate because a written
 * list is the whole answer (`route.middleware: []` must mean "no middleware").
 *
 * @example
 * deepMerge({ a: { b: 1, c: [1] } }, { a: { c: [2] } }); // { a: { b: 1, c: [2] } }
 */
export function deepMerge<T>(base: T, override: unknown, options: DeepMergeOptions = {}): T {
  return mergeAt(base, override, [], options) as T;
}

function mergeAt(base: unknown, override: unknown, path: string[], options: DeepMergeOptions): unknown {
  if (override === undefined) return clone(base);
  if (!isPlainObject(base) || !isPlainObject(override) || (path.length > 0 && options.replaceAt?.(path))) {
    return clone(override);
  }
  const merged = clone(base) as Record<string, unknown>;
  for (const [key, value] of Object.entries(override)) {
    if (value === undefined) continue;
    merged[key] = mergeAt(merged[key], value, [...path, key], options);
  }
  return merged;
}

/** A copy of plain objects and lists, so merged results never share mutable parts with defaults. */
function clone<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => clone(item)) as T;
  if (isPlainObject(value)) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = clone(item);
    return copy as T;
  }
  return value;
}
