import { describe, expect, it } from 'vitest';
import { checkSnippetPath, parseSnippetDirective } from './policy.js';

const REFUSAL = /cannot be included: no such readable file inside snippets\.root\. Dotfiles, config\/, storage\//;

describe('checkSnippetPath', () => {
  it.each([
    'kit.config.ts',
    'kit.config.mjs',
    'docs/KIT.CONFIG.JS',
    '.env',
    '.env.production',
    'env.production',
    'env',
    'app.env',
    'deploy/prod.env.bak',
    'server.key',
    'server.key.bak',
    'tls/cert.pem.old',
    'tls/site.crt',
    'id_rsa',
    'id_rsa.old',
    'id_rsa.pub',
    'id_dsa',
    'id_ecdsa.bak',
    'id_ed25519',
    'id_ed25519.pub',
    'store.p12',
    'store.pfx',
    'app.jks',
    'release.keystore',
    'private_key.txt',
    'credentials',
    'credentials.json',
    'sub/aws_credentials',
    'git-credentials',
    'secret.txt',
    'secrets.yml',
    'app-secrets.json',
    'client_secret.json',
    'secrets/readme.md',
    'service-account.json',
    'service_account-prod.json',
    'gcp/service-account-key.json',
    'htpasswd',
    'web/htpasswd.bak',
    'netrc',
    '_netrc',
    '.netrc',
    'npmrc',
    'pgpass',
    'prod.tfvars',
    'prod.tfvars.json',
    'terraform.tfstate',
    'terraform.tfstate.backup',
    'wp-config.php',
    'database.yml',
    'authorized_keys',
    'known_hosts',
    'auth.json',
    'data/app.sqlite',
    'config/app.php',
    'app/config/app.php',
    'storage/logs/laravel.log',
    'vendor/autoload.php',
    'node_modules/x/index.js',
    '.git/config',
  ])('refuses %s', (path) => {
    expect(() => checkSnippetPath(path)).toThrow(REFUSAL);
  });

  it.each([
    'src/app.ts',
    'examples/routes/web.php',
    'src/keys.ts',
    'src/keyboard.ts',
    'src/environment.ts',
    'docs/configuration.md',
    'app/Models/User.php',
    'resources/views/welcome.blade.php',
    'src/derived.ts',
  ])('allows %s', (path) => {
    expect(checkSnippetPath(path)).toBe(path);
  });

  it('normalizes empty and dot segments', () => {
    expect(checkSnippetPath('src/./a.ts')).toBe('src/a.ts');
    expect(checkSnippetPath('src//a.ts')).toBe('src/a.ts');
  });
});

describe('parseSnippetDirective', () => {
  it('reads a path, a region and a language', () => {
    expect(parseSnippetDirective('<<< @/src/a.ts#setup{js}')).toEqual({
      path: 'src/a.ts',
      region: 'setup',
      lang: 'js',
    });
    expect(parseSnippetDirective('<<< @/src/a.ts#L2-L4')).toEqual({ path: 'src/a.ts', lines: { from: 2, to: 4 } });
    expect(parseSnippetDirective('see <<< @/src/a.ts')).toBeNull();
  });
});
