import { describe, expect, it } from 'vitest';
import { MAX_PAGE_PATH_BYTES, MAX_PAGE_SEGMENT_BYTES, pagePathProblem, showPagePath } from './page-path.js';

describe('the page-path rule', () => {
  it('accepts ordinary paths, in any script, with inner spaces', () => {
    for (const path of [
      'index',
      'guides/setup',
      '12.x-notes/upgrade_guide',
      'دليل/البدء',
      '指南/安装',
      'release notes',
      'café',
    ]) {
      expect(pagePathProblem(path), path).toBeNull();
    }
  });

  const refused: Array<[string, string, RegExp]> = [
    ['an empty path', '', /empty/],
    ['a newline', 'guides/a\nb', /line break \(U\+000A\)/],
    ['a carriage return', 'guides/a\rb', /line break \(U\+000D\)/],
    ['a line separator', 'a\u2028b', /line break \(U\+2028\)/],
    ['a tab', 'a\tb', /control character \(U\+0009\)/],
    ['NUL', 'a\0b', /control character \(U\+0000\)/],
    ['a right-to-left override', 'invoice\u202Efdp.exe', /bidirectional control character \(U\+202E\)/],
    ['a right-to-left isolate', 'a\u2067b', /bidirectional control character \(U\+2067\)/],
    ['a zero-width space', 'set\u200Bup', /invisible character \(U\+200B\)/],
    ['a zero-width joiner', 'set\u200Dup', /invisible character \(U\+200D\)/],
    ['a byte order mark', '\uFEFFsetup', /invisible character \(U\+FEFF\)/],
    ['a soft hyphen', 'set\u00ADup', /invisible character \(U\+00AD\)/],
    ['a variation selector', 'setup\uFE0F', /invisible character \(U\+FE0F\)/],
    ['a Hangul filler', 'a\u3164b', /invisible character \(U\+3164\)/],
    ['a no-break space', 'set\u00A0up', /space other than the ordinary one \(U\+00A0\)/],
    ['a lone surrogate', 'a\uD800b', /broken UTF-16/],
    ['a backslash', 'guides\\setup', /backslash/],
    ['a decomposed accent', 'cafe\u0301', /NFC/],
    ['a leading slash', '/guides', /starts or ends with "\/"/],
    ['a trailing slash', 'guides/', /starts or ends with "\/"/],
    ['an empty segment', 'a//b', /empty segment/],
    ['a dot segment', 'a/./b', /segment "\." names a folder by position/],
    ['a dot-dot segment', '../secret', /segment "\.\." names a folder by position/],
    ['.git', '.git/config', /segment "\.git" starts with "\."/],
    ['a hidden file', 'guides/.env', /segment "\.env" starts with "\."/],
    ['node_modules', 'node_modules/pkg/readme', /"node_modules" is a dependency folder/],
    ['Node_Modules', 'docs/Node_Modules/x', /"Node_Modules" is a dependency folder/],
    ['node_modules as the last segment', 'docs/node_modules', /"node_modules" is a dependency folder/],
    ['a trailing slash', 'docs/setup/', /starts or ends with "\/"/],
    ['a segment ending in a space', 'guides /setup', /begins or ends with a space/],
    [
      'an over-long segment',
      `guides/${'a'.repeat(MAX_PAGE_SEGMENT_BYTES + 1)}`,
      /201 bytes long in UTF-8; a segment holds at most 200/,
    ],
    ['an over-long segment in bytes', `guides/${'é'.repeat(101)}`, /202 bytes long/],
    [
      'an over-long path',
      Array.from({ length: 11 }, () => 'a'.repeat(95)).join('/'),
      /1055 bytes long in UTF-8; a page path holds at most 1000/,
    ],
  ];
  for (const [what, path, reason] of refused) {
    it(`refuses ${what}`, () => {
      expect(pagePathProblem(path)).toMatch(reason);
    });
  }

  it('keeps the limits where the file system and the database index have room', () => {
    expect(MAX_PAGE_SEGMENT_BYTES + '.md'.length + '.4194304.4294967295.tmp'.length).toBeLessThanOrEqual(255);
    expect(MAX_PAGE_PATH_BYTES).toBeLessThan(2000);
  });

  it('shows a refused path with its hidden characters spelt out', () => {
    expect(showPagePath('a\nb\u202Ec\u200B')).toBe('"a\\u{A}b\\u{202E}c\\u{200B}"');
    expect(showPagePath('guides/setup')).toBe('"guides/setup"');
  });
});
