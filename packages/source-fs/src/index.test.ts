import { describe, expect, it } from 'vitest';

describe('@kit/source-fs public API', () => {
  it('exports exactly createFsSource', async () => {
    expect(Object.keys(await import('./index.js')).sort()).toEqual(['createFsSource']);
  });
});
