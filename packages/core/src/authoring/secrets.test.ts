import { describe, expect, it } from 'vitest';
import { frontmatterRefusal, secretIn } from './secrets.js';

describe('what author tools refuse to write', () => {
  it('finds credentials by their shape and lets placeholders through', () => {
    expect(secretIn('aws: AKIAIOSFODNN7EXAMPLE')).toBe('an AWS access key id');
    expect(secretIn(`token ghp_${'a'.repeat(36)}`)).toBe('a GitHub token');
    expect(secretIn('-----BEGIN RSA PRIVATE KEY-----\nMIIE')).toBe('a private key block');
    expect(secretIn('Set KIT_SYNC_TOKEN=<SYNC_TOKEN> in .env, e.g. sk-... from your provider.')).toBeNull();
  });

  it('refuses frontmatter keys that name secrets and values that read the environment, nested too', () => {
    expect(frontmatterRefusal({ title: 'Deploy', password: 'x' })).toContain('`password`');
    expect(frontmatterRefusal({ title: 'Deploy', meta: { api_key: 'x' } })).toContain('`meta.api_key`');
    expect(frontmatterRefusal({ title: '$' + '{APP_NAME}' })).toContain('reads the environment');
    expect(frontmatterRefusal({ sources: ['src/a.ts', 'process.env.SECRET'] })).toContain('`sources[1]`');
    expect(
      frontmatterRefusal({ title: 'Tokens', description: 'How API tokens work.', sources: ['src/tokens.ts'] }),
    ).toBeNull();
  });
});
