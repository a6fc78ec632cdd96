import { describe, expect, it } from 'vitest';
import { checkPagePath } from './page-path.js';

const unversioned = { versions: ['current'], locales: ['en'], versioned: false };

describe('checkPagePath', () => {
  it('checks the syntax alone without the set, and what its URLs can serve with it', () => {
    expect(() => checkPagePath('mcp')).not.toThrow();
    expect(() => checkPagePath('/mcp')).toThrow(/not a page path/);
    expect(() => checkPagePath('en/setup', unversioned)).toThrow(/is a locale code/);
  });
});
