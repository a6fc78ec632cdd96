import { describe, expect, it } from 'vitest';
import { isAbsolutePath, resolvePath } from './path.js';

describe('resolvePath', () => {
  it('joins a relative path to the root and removes dot segments', () => {
    expect(resolvePath('/app', 'docs')).toBe('/app/docs');
    expect(resolvePath('/app/', './docs/../guides/')).toBe('/app/guides');
  });

  it('keeps an absolute path', () => {
    expect(resolvePath('/app', '/srv/docs')).toBe('/srv/docs');
  });

  it('handles Windows drive paths with forward slashes', () => {
    expect(resolvePath('C:\\app', 'docs')).toBe('C:/app/docs');
    expect(isAbsolutePath('C:\\docs')).toBe(true);
    expect(isAbsolutePath('docs')).toBe(false);
  });
});
