/**
 * JSON Merge Patch (RFC 7396): objects merge, `null` removes, everything else (lists included)
 * replaces. Works on copies: neither argument is changed and the result shares nothing with
 * them. Keys such as `__proto__`, `constructor` and `prototype` are ordinary data keys here: they
 * are written as own properties and never reach a prototype.
 */

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Plain assignment of `__proto__` would replace the object's prototype; a defined property is data.
function put(target: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A deep copy of a JSON value whose objects are plain and whose keys are all own data keys. */
export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => cloneJson(item)) as T;
  if (isObject(value)) {
    const copy: JsonObject = {};
    for (const key of Object.keys(value)) put(copy, key, cloneJson(value[key]));
    return copy as T;
  }
  return value;
}

/**
 * Applies a JSON merge patch (RFC 7396) to `target` and returns the result.
 *
 * @example
 * applyMergePatch({ a: 'b', c: { d: 'e', f: 'g' } }, { a: 'z', c: { f: null } })
 * // { a: 'z', c: { d: 'e' } }
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return cloneJson(patch);
  const result: JsonObject = {};
  if (isObject(target)) {
    for (const key of Object.keys(target)) put(result, key, cloneJson(target[key]));
  }
  for (const key of Object.keys(patch)) {
    const value = patch[key];
    if (value === null) {
      if (Object.hasOwn(result, key)) delete result[key];
      continue;
    }
    put(result, key, applyMergePatch(Object.hasOwn(result, key) ? result[key] : undefined, value));
  }
  return result;
}
