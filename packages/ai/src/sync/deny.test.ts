import { describe, expect, it } from 'vitest';
import { syncDenyRules } from './deny.js';
import { redactDiff } from './diff.js';

describe('the docs agent deny rules', () => {
  const rules = syncDenyRules(['internal', 'src/billing/*.ts']);

  it('refuse the built-in secret paths and the ai.sync.deny globs, and nothing else', () => {
    for (const path of [
      '.env',
      '.env.production',
      'app/.git/config',
      'config/database.php',
      'storage/logs/laravel.log',
      'vendor/acme/lib.php',
      'web/node_modules/x/index.js',
      'certs/server.pem',
      'deploy/id_rsa',
      'kit.config.ts',
      'internal/plan.md',
      'internal',
      'src/billing/keys.ts',
      '../outside.ts',
      '/etc/passwd',
    ]) {
      expect(rules.denies(path), path).toBe(true);
    }
    for (const path of ['src/router.ts', 'src/billing/README.md', 'docs/routing.md', 'package.json']) {
      expect(rules.denies(path), path).toBe(false);
    }
  });

  it('withhold a denied file from a diff, naming it, and keep the rest', () => {
    const diff = [
      'diff --git a/src/router.ts b/src/router.ts',
      '--- a/src/router.ts',
      '+++ b/src/router.ts',
      '@@ -1 +1 @@',
      '-export const MATCH = "prefix";',
      '+export const MATCH = "exact";',
      'diff --git a/.env.example b/.env.example',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/.env.example',
      '@@ -0,0 +1 @@',
      '+STRIPE_KEY=sk_live_secret',
      'diff --git a/src/queue.ts b/src/queue.ts',
      '@@ -1 +1 @@',
      '+export const RETRIES = 5;',
    ].join('\n');
    const redacted = redactDiff(diff, rules);
    expect(redacted.withheld).toEqual(['.env.example']);
    expect(redacted.text).not.toContain('sk_live_secret');
    expect(redacted.text).toContain('the changes to .env.example are withheld');
    expect(redacted.text).toContain('+export const MATCH = "exact";');
    expect(redacted.text).toContain('+export const RETRIES = 5;');
    expect(redacted.truncated).toBe(false);
  });
});
