import { describe, expect, it } from 'vitest';
import { unservablePagePath } from './servable.js';

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

  it('leaves a page at the MCP endpoint path to the pages, which a browser GET shows', () => {
    expect(unservablePagePath('mcp', unversioned)).toBeNull();
  });
});
