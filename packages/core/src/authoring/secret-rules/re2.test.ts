import { describe, expect, it } from 'vitest';
import { re2ToJs } from './re2.js';

const compile = (pattern: string) => new RegExp(re2ToJs(pattern));

describe('reading gitleaks RE2 patterns in JavaScript', () => {
  it('scopes (?i) to the rest of its group and (?-i:...) back out of it', () => {
    const pattern = compile('(?i)api(?-i:KEY)x');
    expect(pattern.test('ApIKEYX')).toBe(true);
    expect(pattern.test('apikeyx')).toBe(false);
    const halfway = compile('fio-u-(?i)[a-z]{2}');
    expect(halfway.test('fio-u-Ab')).toBe(true);
    expect(halfway.test('FIO-u-ab')).toBe(false);
  });

  it('folds letters and letter ranges of classes, negated ones too', () => {
    expect(compile('(?i)^[a-c]+$').test('aBC')).toBe(true);
    expect(compile('(?i)^[^a-c]+$').test('D')).toBe(true);
    expect(compile('(?i)^[^a-c]+$').test('B')).toBe(false);
  });

  it('reads (?s:.) as any character, \\z as the end, (?P<name>) as a named group and POSIX classes', () => {
    expect(compile('a(?s:.)b').test('a\nb')).toBe(true);
    expect(compile('a.b').test('a\nb')).toBe(false);
    expect(compile('ab\\z').test('ab\n')).toBe(false);
    expect(compile('(?P<word>[[:alnum:]]+)').exec('--x9--')?.groups?.word).toBe('x9');
  });

  it('refuses syntax it does not know rather than matching something else', () => {
    expect(() => re2ToJs('\\pL')).toThrow(/unsupported/);
    expect(() => re2ToJs('(?m)^a')).toThrow(/unsupported flag/);
    expect(() => re2ToJs('(a')).toThrow(/unclosed/);
  });
});
