import { describe, expect, it } from 'vitest';
import { CLOSEST_NEIGHBOURS_FROM, closest } from './closest.js';

describe('closest', () => {
  it('suggests the page a typo meant, and nothing for a path far from every page', () => {
    expect(closest('guides/instalation', ['guides/installation', 'reference/cli'])).toBe('guides/installation');
    expect(closest('guides/zeppelin-fleet', ['guides/installation', 'reference/cli'])).toBeNull();
  });

  it('finds the typo in a set of 100,000 pages among the pages of its folder', () => {
    const pages = Array.from({ length: 100_000 }, (_, index) => `part-${index % 500}/page-${index}`);
    expect(pages.length).toBeGreaterThan(CLOSEST_NEIGHBOURS_FROM);
    expect(closest('part-7/pagee-4507', pages)).toBe('part-7/page-4507');
    // A typo in the folder (no page there) still gets a suggestion from the whole set.
    expect(closest('partt-7/page-4507', pages)).toBe('part-7/page-4507');
  });
});
