import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parsePageFile } from '../pages/page-file.js';
import { addedSecret, findSecret, findSecrets, frontmatterRefusal, namesSecret, revealHidden } from './secrets.js';

// Credentials shaped like real ones (random, not from any account), one per rule the brief names.
const examples: Array<[string, string, string]> = [
  [
    'an npm token',
    'npm config set //registry.npmjs.org/:_authToken npm_4vX9qLm2Rt7YwZp3Kd8sFh6Jb1Nc5Ge0TaUi',
    'npm-access-token',
  ],
  ['a Stripe test secret key', "Stripe::setApiKey('sk_test_51HqLyjWDarjtT1zdp7dcXY2Kq3oFb');", 'stripe-access-token'],
  ['a Stripe restricted live key', 'STRIPE_KEY=rk_live_51Nx8QwLm3Rt7YwZp3Kd8sFh6', 'stripe-access-token'],
  ['a PostgreSQL URL with a password', 'DATABASE_URL=postgres://user:pass@db.internal:5432/app', 'kit-url-credentials'],
  [
    'a JWT',
    'Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI4ODQ2MTIiLCJuYW1lIjoiUm9zYSBNYXJ0aW4iLCJpYXQiOjE3MTYyMzkwMjJ9.Xq3vR9cT1mLw5yZ8kP2sN7bD4hF6jG0aE3uI5oQ8rW',
    'jwt',
  ],
  [
    'a PGP private key block',
    [
      '-----BEGIN PGP PRIVATE KEY BLOCK-----',
      '',
      'lQOYBF0jV2QBCADPn6Kc2B8q1uX0m3nQ5q7vT2zYkR8wL4pE6sD9fH1jA3bC5eG7',
      'iK9mO1qS3uW5yA7cE9gI1kM3oQ5sU7wY9aC1eG3iK5mO7qS9uW1yA3cE5gI7kM9o',
      '=Zx4q',
      '-----END PGP PRIVATE KEY BLOCK-----',
    ].join('\n'),
    'private-key',
  ],
  [
    'a Slack webhook',
    'Post to https://hooks.slack.com/services/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 when done.',
    'slack-webhook-url',
  ],
  ['a GitHub token split by a zero-width space', 'token: ghp_1a2B3c4D5e6F\u200B7g8H9i0JkLmNoPqRsTuVwXyZ', 'github-pat'],
  ['a GitHub token in full-width letters', 'token: ｇｈｐ_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ', 'github-pat'],
  ['an AWS access key id', 'aws_access_key_id = AKIAZ3MSJV4WWNK6TQ7H', 'aws-access-token'],
];

describe('secrets in text', () => {
  for (const [what, text, rule] of examples) {
    it(`finds ${what} with rule ${rule}, at the line it is on`, () => {
      expect(findSecret(`# Setup\n\nSome words first.\n\n${text}\n`)).toMatchObject({ rule, line: 5 });
    });
  }

  it('lets placeholders and documentation examples through', () => {
    for (const text of [
      'Set KIT_SYNC_TOKEN=<SYNC_TOKEN> in .env, e.g. sk-... from your provider.',
      'DB_URL=mysql://root:password@127.0.0.1/forge?charset=UTF-8',
      'mongodb://$' + '{MONGODB_USERNAME}:$' + '{MONGODB_PASSWORD}@mongodb:27017',
      "sed -i 's@http://localhost@http://$BUILD_HOST:8000@g' .env",
      'aws_access_key_id = AKIAIOSFODNN7EXAMPLE',
      `token: ghp_${'a'.repeat(36)}`,
      'PASSPORT_PRIVATE_KEY="-----BEGIN RSA PRIVATE KEY-----\n<private key here>\n-----END RSA PRIVATE KEY-----"\n\nPASSPORT_PUBLIC_KEY="-----BEGIN PUBLIC KEY-----\n<public key here>\n-----END PUBLIC KEY-----"',
    ]) {
      expect(findSecret(text), text).toBeNull();
    }
  });

  it('reads text without its invisible characters and in NFKC', () => {
    expect(revealHidden('g\u200Bh\u2060p_\uFEFFa\u00ADb\u202Ec')).toBe('ghp_abc');
    expect(revealHidden('ＡＰＩ\u3000key\nline two')).toBe('API key\nline two');
  });

  it('refuses only credentials the previous text did not already hold', () => {
    const page = `# Keys\n\nphp artisan env:encrypt --key=3UVsEgGVK36XN82KKeyLFMhvosbZN1aF\n`;
    expect(findSecret(page)?.rule).toBe('generic-api-key');
    expect(addedSecret(`${page}\nA new paragraph.\n`, page)).toBeNull();
    expect(addedSecret(`${page}\nSTRIPE_KEY=rk_live_51Nx8QwLm3Rt7YwZp3Kd8sFh6\n`, page)).toMatchObject({
      rule: 'stripe-access-token',
      line: 5,
    });
    expect(addedSecret(page, null)?.rule).toBe('generic-api-key');
  });
});

describe('frontmatter that names or holds a secret', () => {
  it('refuses keys that name a secret, in any case or separator style and with whitespace around', () => {
    for (const key of [
      'db_password',
      'aws_secret_access_key',
      'API-KEY',
      'password ',
      'apiKey',
      'Private Key',
      'pass\u200Bword',
    ]) {
      expect(namesSecret(key), key).toBe(true);
      expect(frontmatterRefusal({ title: 'Deploy', [key]: 'x' })).toContain('rule kit-secret-key-name');
    }
    for (const key of ['title', 'description', 'sources', 'inserts', 'visibility', 'keywords', 'keyboard', 'author']) {
      expect(namesSecret(key), key).toBe(false);
    }
  });

  it('names the key path, the rule and refuses environment values, nested too', () => {
    expect(frontmatterRefusal({ title: 'Deploy', meta: { api_key: 'x' } })).toContain('`meta.api_key`');
    expect(frontmatterRefusal({ title: '$' + '{APP_NAME}' })).toContain('rule kit-environment-value');
    expect(frontmatterRefusal({ sources: ['src/a.ts', 'process.env.SECRET'] })).toContain('`sources[1]`');
    expect(
      frontmatterRefusal({
        title: 'Hooks',
        links: ['https://hooks.slack.com/services/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'],
      }),
    ).toContain('`links[0]` holds what looks like a Slack Webhook (rule slack-webhook-url)');
    expect(
      frontmatterRefusal({ title: 'Tokens', description: 'How API tokens work.', sources: ['src/tokens.ts'] }),
    ).toBeNull();
  });
});

function markdownFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    if (name === 'node_modules' || name.startsWith('.')) return [];
    const full = join(folder, name);
    if (statSync(full).isDirectory()) return markdownFiles(full);
    return name.endsWith('.md') ? [full] : [];
  });
}

describe('no false positives on real documentation', () => {
  const shared = process.env.KIT_SHARED_DIR ?? join(import.meta.dirname, '../../../../../shared');
  const laravel = join(shared, 'corpora/laravel');
  const site = join(import.meta.dirname, '../../../../apps/site');

  it('finds nothing in the pages of apps/site', () => {
    const files = markdownFiles(site);
    expect(files.length).toBeGreaterThan(10);
    const hits = files.flatMap((file) => {
      const page = parsePageFile(readFileSync(file, 'utf8'));
      const refusal = frontmatterRefusal(page.frontmatter);
      return [...findSecrets(readFileSync(file, 'utf8')), ...(refusal ? [refusal] : [])].map((hit) => [file, hit]);
    });
    expect(hits).toEqual([]);
  });

  it.skipIf(!statSync(laravel, { throwIfNoEntry: false }))(
    'finds in the Laravel docs only the two literal secrets of configuration.md, secrets in every respect',
    () => {
      const files = markdownFiles(laravel);
      expect(files.length).toBeGreaterThan(250);
      const hits = files.flatMap((file) => {
        const text = readFileSync(file, 'utf8');
        const refusal = frontmatterRefusal(parsePageFile(text).frontmatter);
        return [
          ...findSecrets(text).map((hit) => `${file.slice(laravel.length + 1)}:${hit.line} ${hit.rule}`),
          ...(refusal ? [`${file}: ${refusal}`] : []),
        ];
      });
      // `php artisan env:encrypt --key=3UVsEgGVK36XN82KKeyLFMhvosbZN1aF` (and env:decrypt with the
      // same key): 32 random characters after --key=, exactly what a real encryption key pasted
      // into docs looks like. `php artisan down --secret="1630542a-246b-4b66-afa1-dd72a4c43515"`:
      // the maintenance-mode bypass secret, a random value after --secret=. Editing these pages
      // stays possible: only secrets a change adds are refused (addedSecret).
      expect(hits).toEqual([
        '11.x/configuration.md:143 generic-api-key',
        '11.x/configuration.md:167 generic-api-key',
        '11.x/configuration.md:288 generic-api-key',
        '12.x/configuration.md:149 generic-api-key',
        '12.x/configuration.md:199 generic-api-key',
        '12.x/configuration.md:327 generic-api-key',
        '13.x/configuration.md:149 generic-api-key',
        '13.x/configuration.md:199 generic-api-key',
        '13.x/configuration.md:327 generic-api-key',
      ]);
    },
  );
});

describe('the gitleaks rule data', () => {
  it('stays out of a browser bundle that imports @kit/core/internal without scanning (as the search client does)', async () => {
    const { build } = await import('esbuild');
    const result = await build({
      stdin: {
        contents: "import { normalizeSearchLimit } from './internal.js'; console.log(normalizeSearchLimit(3));",
        resolveDir: join(import.meta.dirname, '..'),
        loader: 'ts',
      },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      conditions: ['kit-source', 'browser', 'import', 'default'],
      logLevel: 'silent',
    });
    const bundle = result.outputFiles[0]!.text;
    expect(bundle).toContain('normalizeSearchLimit');
    expect(bundle).not.toContain('slack-webhook-url');
  });

  it('is the generated form of the vendored gitleaks.toml (regenerate with generate:secret-rules)', async () => {
    // The generator lives in scripts/, outside the package's sources.
    const script = pathToFileURL(join(import.meta.dirname, '../../scripts/generate-secret-rules.ts')).href;
    const { generatedModule } = (await import(script)) as { generatedModule(): string };
    const generated = readFileSync(join(import.meta.dirname, 'secret-rules/gitleaks-rules.generated.ts'), 'utf8');
    expect(generated).toBe(generatedModule());
  });
});

describe('hostile bodies', () => {
  const megabyte = 1024 * 1024;
  const generic = 'client_secret = "Zx8qLm2Rt7YwZp3Kd8sFh6Jb"';
  const pat = 'ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ';

  // The bodies of bench/secrets, each with two credentials buried in it: one found by gitleaks'
  // generic-api-key rule (the rule the scan bounds) and one by a specific rule.
  for (const [name, unit] of [
    ['"key"', 'key'],
    ['"api"', 'api'],
    ['"secret"', 'secret'],
  ] as const) {
    it(`finds the credentials inside 1 MB of ${name} repeated`, () => {
      const filler = unit.repeat(megabyte / unit.length / 2);
      expect(findSecrets(filler)).toEqual([]);
      const found = findSecrets(`${filler} ${generic} ${filler}\n${filler} token: ${pat} ${filler}`);
      expect(found.map(({ rule, line, secret }) => ({ rule, line, secret }))).toEqual([
        { rule: 'generic-api-key', line: 1, secret: 'Zx8qLm2Rt7YwZp3Kd8sFh6Jb' },
        { rule: 'github-pat', line: 2, secret: pat },
      ]);
    });
  }

  it('finds a credential deep inside a long line of prose with separators', () => {
    const prose = 'The worker reads its queue, then: retries => backoff, key=value pairs, and || fallbacks. ';
    const half = prose.repeat(Math.ceil(megabyte / prose.length / 2));
    const found = findSecrets(`# Notes\n\n${half}api_key: "Zx8qLm2Rt7YwZp3Kd8sFh6Jb" ${half}\n`);
    expect(found).toMatchObject([{ rule: 'generic-api-key', line: 3, secret: 'Zx8qLm2Rt7YwZp3Kd8sFh6Jb' }]);
  });
});
