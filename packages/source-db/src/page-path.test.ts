import { describe, expect, it } from 'vitest';
import { checkPagePath, unservablePagePath } from './page-path.js';

const unversioned = { versions: ['current'], locales: ['en'], versioned: false };

describe('page paths a set can serve', () => {
  it('reads the first segment as URLs do: a version only on a versioned set, a locale always', () => {
    expect(unservablePagePath('current/setup', unversioned)).toBeNull();
    expect(unservablePagePath('en/setup', unversioned)).toContain('is a locale code');
    expect(unservablePagePath('3.x/setup', { ...unversioned, versions: ['3.x'], versioned: true })).toContain(
      'is a version id',
    );
  });

  it('leaves alone names that only look like reserved ones', () => {
    for (const path of [
      'mcp-server',
      'guides/mcp',
      'asks',
      'sitemaps',
      'kit/x',
      'guides/llms',
      'guides/skill',
      'skills',
    ]) {
      expect(unservablePagePath(path, unversioned), path).toBeNull();
    }
  });

  it('checks the syntax alone when it does not know the set', () => {
    expect(() => checkPagePath('mcp')).not.toThrow();
    expect(() => checkPagePath('/mcp')).toThrow(/not a page path/);
    expect(() => checkPagePath('mcp', unversioned)).toThrow(/MCP endpoint/);
  });
});
