import { describe, expect, it } from 'vitest';

describe('@kit/source-fs public API', () => {
  it('exports exactly createFsSource, createSourceHistory, sourcesMatcher and sourcesOf', async () => {
    expect(Object.keys(await import('./index.js')).sort()).toEqual([
      'createFsSource',
      'createSourceHistory',
      'sourcesMatcher',
      'sourcesOf',
    ]);
  });
});
