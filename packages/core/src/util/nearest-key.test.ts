import { describe, expect, it } from 'vitest';
import { editDistance, nearestKey } from './nearest-key.js';

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('llm_txt', 'llms_txt')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });
});

describe('nearestKey', () => {
  it('suggests the closest candidate within two edits', () => {
    expect(nearestKey('llm_txt', ['llms_full', 'llms_txt', 'sitemap'])).toBe('llms_txt');
    expect(nearestKey('rout', ['route', 'source'])).toBe('route');
  });

  it('matches camelCase and dashes to snake_case keys', () => {
    expect(nearestKey('llmsTxtLimit', ['llms_txt_limit', 'llms_txt'])).toBe('llms_txt_limit');
    expect(nearestKey('budget-kb', ['driver', 'budget_kb'])).toBe('budget_kb');
  });

  it('ignores case differences', () => {
    expect(nearestKey('viewkit', ['viewKit', 'manageKit'])).toBe('viewKit');
  });

  it('returns null when nothing is close enough to be a typo', () => {
    expect(nearestKey('colour', ['review', 'search'])).toBeNull();
    expect(nearestKey('ab', ['xy'])).toBeNull();
  });

  it('allows only one edit for short keys', () => {
    expect(nearestKey('ui', ['ai'])).toBe('ai');
    expect(nearestKey('ux', ['ai'])).toBeNull();
  });

  it('prefers the first candidate on a tie', () => {
    expect(nearestKey('cat', ['bat', 'hat'])).toBe('bat');
  });
});
