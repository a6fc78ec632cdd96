/**
 * A deep copy of a parsed tree (plain objects, arrays and primitives, as `parseMarkdown` makes
 * them). An object reached twice is copied once, so the copy is shaped exactly like the original.
 */
export function cloneTree<T>(tree: T): T {
  const copies = new Map<object, unknown>();
  const copy = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    const seen = copies.get(value);
    if (seen !== undefined) return seen;
    if (Array.isArray(value)) {
      const out: unknown[] = new Array(value.length);
      copies.set(value, out);
      for (let index = 0; index < value.length; index++) out[index] = copy(value[index]);
      return out;
    }
    const out: Record<string, unknown> = {};
    copies.set(value, out);
    for (const key of Object.keys(value)) out[key] = copy((value as Record<string, unknown>)[key]);
    return out;
  };
  return copy(tree) as T;
}
