import { describe, expect, it } from 'vitest';
import { checkPagePath } from './page-path.js';

const unversioned = { versions: ['current'], locales: ['en'], versioned: false };

describe('checkPagePath', () => {
  it('checks the syntax alone without the set, and what its URLs can serve with it', () => {
    expect(() => checkPagePath('mcp')).not.toThrow();
    expect(() => checkPagePath('/mcp')).toThrow(/not a page path/);
    expect(() => checkPagePath('en/setup', unversioned)).toThrow(/is a locale code/);
  });

  it('refuses what the page-path rule refuses, naming the problem and showing hidden characters', () => {
    expect(() => checkPagePath('guides/a\nb')).toThrow(
      'The page path "guides/a\\u{A}b" is refused: it holds a line break',
    );
    expect(() => checkPagePath('invoice\u202Efdp')).toThrow(/bidirectional control character \(U\+202E\)/);
    expect(() => checkPagePath('.git/config')).toThrow(/segment "\.git" starts with "\."/);
    expect(() => checkPagePath('node_modules/x')).toThrow(/dependency folder/);
  });
});
