import { describe, expect, it } from 'vitest';
import { applyMergePatch, cloneJson } from './merge-patch.js';

// RFC 7396, Appendix A: every example, in order.
const appendixA: Array<[unknown, unknown, unknown]> = [
  [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
  [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
  [{ a: 'b' }, { a: null }, {}],
  [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
  [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
  [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
  [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
  [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
  [
    ['a', 'b'],
    ['c', 'd'],
    ['c', 'd'],
  ],
  [{ a: 'b' }, ['c'], ['c']],
  [{ a: 'foo' }, null, null],
  [{ a: 'foo' }, 'bar', 'bar'],
  [{ e: null }, { a: 1 }, { e: null, a: 1 }],
  [[1, 2], { a: 'b', c: null }, { a: 'b' }],
  [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
];

describe('applyMergePatch', () => {
  it.each(appendixA.map((example, index) => [index + 1, ...example]))(
    'gives the result of RFC 7396 appendix A example %i',
    (_, target, patch, expected) => {
      expect(applyMergePatch(target, patch)).toEqual(expected);
    },
  );

  it('gives the result of the RFC 7396 section 3 example', () => {
    const target = {
      title: 'Goodbye!',
      author: { givenName: 'John', familyName: 'Doe' },
      tags: ['example', 'sample'],
      content: 'This will be unchanged',
    };
    const patch = { title: 'Hello!', phoneNumber: '+01-123-456-7890', author: { familyName: null }, tags: ['example'] };
    expect(applyMergePatch(target, patch)).toEqual({
      title: 'Hello!',
      author: { givenName: 'John' },
      tags: ['example'],
      content: 'This will be unchanged',
      phoneNumber: '+01-123-456-7890',
    });
  });

  it('keeps the key order of the target and appends new keys', () => {
    const result = applyMergePatch({ b: 1, a: 2, c: 3 }, { a: 20, d: 4 }) as object;
    expect(Object.keys(result)).toEqual(['b', 'a', 'c', 'd']);
  });

  it('never changes the target or the patch', () => {
    const target = { a: { b: [1, 2], c: 'x' }, d: 'y' };
    const patch = { a: { c: null, e: { f: 1 } }, d: null };
    const targetCopy = structuredClone(target);
    const patchCopy = structuredClone(patch);
    applyMergePatch(target, patch);
    expect(target).toEqual(targetCopy);
    expect(patch).toEqual(patchCopy);
  });

  it('returns a result that shares no objects with its inputs', () => {
    const target = { keep: { deep: [1] } };
    const patch = { added: { list: [{ x: 1 }] } };
    const result = applyMergePatch(target, patch) as {
      keep: { deep: number[] };
      added: { list: Array<{ x: number }> };
    };
    result.keep.deep.push(2);
    result.added.list[0]!.x = 99;
    expect(target.keep.deep).toEqual([1]);
    expect(patch.added.list[0]!.x).toBe(1);
  });

  it('writes a __proto__ key of the patch as data and leaves every prototype alone', () => {
    const patch = JSON.parse('{"__proto__": {"polluted": true}, "a": {"__proto__": {"polluted": true}}}');
    const result = applyMergePatch({ a: {} }, patch) as Record<string, unknown>;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(result.a)).toBe(Object.prototype);
    expect(Object.hasOwn(result, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(result, '__proto__')?.value).toEqual({ polluted: true });
    expect((result as { polluted?: unknown }).polluted).toBeUndefined();
    expect(JSON.stringify(result)).toBe('{"a":{"__proto__":{"polluted":true}},"__proto__":{"polluted":true}}');
  });

  it('treats constructor and prototype as ordinary keys instead of walking into Object', () => {
    const patch = JSON.parse('{"constructor": {"prototype": {"polluted": true}}}');
    const result = applyMergePatch({}, patch) as Record<string, unknown>;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as unknown as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(result, 'constructor')).toBe(true);
    expect(result.constructor).toEqual({ prototype: { polluted: true } });
  });

  it('does not remove an inherited member when the patch nulls it', () => {
    const result = applyMergePatch({ a: 1 }, { toString: null, constructor: null }) as Record<string, unknown>;
    expect(result).toEqual({ a: 1 });
    expect(typeof Object.prototype.toString).toBe('function');
  });
});

describe('cloneJson', () => {
  it('copies __proto__ keys as own data keys', () => {
    const source = JSON.parse('{"__proto__": {"x": 1}}');
    const copy = cloneJson(source) as Record<string, unknown>;
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  });
});
