import { describe, expect, it } from 'vitest';
import { deepMerge, isPlainObject } from './deep-merge.js';

describe('deepMerge', () => {
  it('merges nested objects key by key', () => {
    expect(deepMerge({ a: { b: 1, c: 2 }, d: 3 }, { a: { c: 4 } })).toEqual({ a: { b: 1, c: 4 }, d: 3 });
  });

  it('replaces lists whole instead of concatenating', () => {
    expect(deepMerge({ list: ['web'] }, { list: [] })).toEqual({ list: [] });
  });

  it('lets null replace a value and undefined keep it', () => {
    expect(deepMerge({ a: 1, b: 2 }, { a: null, b: undefined })).toEqual({ a: null, b: 2 });
  });

  it('never shares mutable parts with its inputs', () => {
    const base = { a: { list: [1] } };
    const merged = deepMerge(base, {});
    merged.a.list.push(2);
    expect(base.a.list).toEqual([1]);
  });

  it('replaces an object whole where replaceAt says so', () => {
    const base = { ai: { provider: { openai: 'gpt' }, model: null } };
    const merged = deepMerge(
      base,
      { ai: { provider: { anthropic: 'claude' } } },
      {
        replaceAt: (path) => path.join('.') === 'ai.provider',
      },
    );
    expect(merged).toEqual({ ai: { provider: { anthropic: 'claude' }, model: null } });
  });

  it('keeps class instances and functions as values', () => {
    class Table {}
    const table = new Table();
    const handler = () => 1;
    const merged = deepMerge({ a: null as unknown, b: null as unknown }, { a: table, b: handler });
    expect(merged.a).toBe(table);
    expect(merged.b).toBe(handler);
  });
});

describe('isPlainObject', () => {
  it('accepts object literals and null-prototype objects only', () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
    expect(isPlainObject([])).toBe(false);
    expect(isPlainObject(new Date())).toBe(false);
    expect(isPlainObject(null)).toBe(false);
  });
});
