import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalizeManifest, parseManifestText } from './normalize.js';

const corpus = `${process.env.KIT_SHARED_DIR}/corpora/laravel`;

function normalized(raw: unknown, key = 'docs') {
  return normalizeManifest(raw, key);
}

describe('normalizeManifest defaults', () => {
  it('gives a set without a manifest its defaults and a warning', () => {
    const { manifest, problems } = normalizeManifest(undefined, 'docs');
    expect(manifest).toEqual({
      name: 'Docs',
      theme: { radius: 'sharp', fonts: {}, mode: 'system' },
      versioned: false,
      versions: [{ id: 'current', label: 'current', status: 'current', default: true, visibility: 'public' }],
      localized: false,
      locales: [{ code: 'en', label: 'English', dir: 'ltr', default: true }],
      landing: 'index',
      navbar: { links: [] },
      footer: { links: [] },
      credit: true,
      redirects: [],
      assets: { css: [], js: [] },
      inserts: {},
      integrations: {},
      agents: { llmsTxt: {} },
      provenance: true,
      pageActions: ['copy', 'markdown', 'chatgpt', 'claude', 'editor'],
      strings: {},
      extra: {},
    });
    expect(problems).toMatchObject([{ rule: 'manifest.schema', severity: 'warning', file: 'kit.json' }]);
  });

  it('names a set after its key, capitalized', () => {
    expect(normalized({}, 'api').manifest.name).toBe('Api');
    expect(normalized({ name: '  ' }, 'guides').manifest.name).toBe('Guides');
    expect(normalized({ name: 'Acme' }, 'guides').manifest.name).toBe('Acme');
  });

  it('reports no problem for an empty manifest', () => {
    expect(normalized({}).problems).toEqual([]);
  });

  it('normalizes the real Laravel manifest without problems', () => {
    const { manifest, problems } = parseManifestText(readFileSync(join(corpus, 'kit.json'), 'utf8'), 'docs');
    expect(problems).toEqual([]);
    expect(manifest.name).toBe('Laravel');
    expect(manifest.landing).toBe('installation');
    expect(manifest.versioned).toBe(true);
    expect(manifest.versions.map((v) => [v.id, v.status, v.default])).toEqual([
      ['13.x', 'current', true],
      ['12.x', 'maintained', false],
      ['11.x', 'deprecated', false],
    ]);
  });
});

describe('normalizeManifest versions', () => {
  it('accepts ids and objects and makes the first version the default', () => {
    const { manifest } = normalized({ versions: ['3.x', { id: '2.x', label: 'Version 2', status: 'maintained' }] });
    expect(manifest.versions).toEqual([
      { id: '3.x', label: '3.x', status: 'current', default: true, visibility: 'public' },
      { id: '2.x', label: 'Version 2', status: 'maintained', default: false, visibility: 'public' },
    ]);
  });

  it('uses the version that says default', () => {
    const { manifest } = normalized({ versions: ['3.x', { id: '2.x', default: true }] });
    expect(manifest.versions.map((v) => v.default)).toEqual([false, true]);
  });

  it('keeps one default when several say so and warns', () => {
    const { manifest, problems } = normalized({
      versions: [{ id: 'a' }, { id: 'b', default: true }, { id: 'c', default: true }],
    });
    expect(manifest.versions.filter((v) => v.default).map((v) => v.id)).toEqual(['b']);
    expect(problems).toMatchObject([{ rule: 'manifest.schema', severity: 'warning' }]);
    expect(problems[0]!.message).toContain('"b", "c"');
  });

  it('treats any visibility other than public as private, trimmed and case-insensitive', () => {
    const { manifest } = normalized({
      versions: [
        { id: 'a', visibility: ' PUBLIC ' },
        { id: 'b', visibility: 'Private' },
        { id: 'c', visibility: 'internal' },
        { id: 'd', visibility: '' },
        { id: 'e' },
      ],
    });
    expect(manifest.versions.map((v) => v.visibility)).toEqual(['public', 'private', 'private', 'private', 'public']);
  });

  it('falls back to current for an unknown status and reports it', () => {
    const { manifest, problems } = normalized({ versions: [{ id: 'a', status: 'old' }] });
    expect(manifest.versions[0]!.status).toBe('current');
    expect(problems[0]!.message).toBe(
      '`versions[0].status` must be one of "current", "maintained", "deprecated", "archived" (found "old").',
    );
  });

  it('drops a duplicate version id and reports it', () => {
    const { manifest, problems } = normalized({ versions: ['1.x', { id: '1.x', label: 'again' }] });
    expect(manifest.versions).toHaveLength(1);
    expect(problems).toMatchObject([
      { rule: 'manifest.schema', severity: 'error', message: expect.stringContaining('declared twice') },
    ]);
  });

  it('is unversioned for an empty or unusable list', () => {
    expect(normalized({ versions: [] }).manifest.versioned).toBe(false);
    const { manifest, problems } = normalized({ versions: ['a b'] });
    expect(manifest.versioned).toBe(false);
    expect(manifest.versions[0]!.id).toBe('current');
    expect(problems[0]!.message).toContain('`versions[0]`');
  });
});

describe('normalizeManifest locales', () => {
  it('derives direction and own-language labels from the code', () => {
    const { manifest } = normalized({ locales: ['en', 'ar', 'fr', { code: 'he', label: 'Hebrew' }, 'ar-EG', 'ckb'] });
    expect(manifest.localized).toBe(true);
    expect(manifest.locales).toEqual([
      { code: 'en', label: 'English', dir: 'ltr', default: true },
      { code: 'ar', label: 'العربية', dir: 'rtl', default: false },
      { code: 'fr', label: 'Français', dir: 'ltr', default: false },
      { code: 'he', label: 'Hebrew', dir: 'rtl', default: false },
      { code: 'ar-EG', label: 'العربية (مصر)', dir: 'rtl', default: false },
      { code: 'ckb', label: expect.any(String), dir: 'rtl', default: false },
    ]);
  });

  it('keeps a written dir and default', () => {
    const { manifest } = normalized({ locales: ['en', { code: 'ar', dir: 'ltr', default: true }] });
    expect(manifest.locales.map((l) => [l.code, l.dir, l.default])).toEqual([
      ['en', 'ltr', false],
      ['ar', 'ltr', true],
    ]);
  });

  it('has one English locale without locales', () => {
    expect(normalized({}).manifest.locales).toEqual([{ code: 'en', label: 'English', dir: 'ltr', default: true }]);
    expect(normalized({}).manifest.localized).toBe(false);
  });
});

describe('normalizeManifest presentation keys', () => {
  it('lets a dark logo fall back to the light one', () => {
    expect(normalized({ logo: 'logo.svg' }).manifest.logo).toEqual({ light: 'logo.svg', dark: 'logo.svg' });
    expect(normalized({ logo: { light: 'l.svg' } }).manifest.logo).toEqual({ light: 'l.svg', dark: 'l.svg' });
    expect(normalized({ logo: { light: 'l.svg', dark: 'd.svg' } }).manifest.logo).toEqual({
      light: 'l.svg',
      dark: 'd.svg',
    });
  });

  it('applies the repository defaults', () => {
    expect(normalized({ repository: { url: 'https://github.com/acme/app/' } }).manifest.repository).toEqual({
      url: 'https://github.com/acme/app',
      docsUrl: 'https://github.com/acme/app',
      branch: 'main',
      docsPath: 'docs',
    });
    expect(
      normalized({
        repository: {
          url: 'https://github.com/acme/app',
          docsUrl: 'https://github.com/acme/docs',
          branch: 'trunk',
          docsPath: '/site/',
        },
      }).manifest.repository,
    ).toEqual({
      url: 'https://github.com/acme/app',
      docsUrl: 'https://github.com/acme/docs',
      branch: 'trunk',
      docsPath: 'site',
    });
  });

  it('leaves out a repository URL that is not http or https', () => {
    const { manifest, problems } = normalized({ repository: { url: 'javascript:alert(1)' } });
    expect(manifest.repository).toEqual({ branch: 'main', docsPath: 'docs' });
    expect(problems.map((p) => p.rule)).toContain('links.unsafe');
  });

  it('applies the theme defaults and keeps valid tokens', () => {
    expect(
      normalized({
        theme: { accent: 'oklch(0.6 0.1 180)', radius: 'soft', mode: 'dark', fonts: { sans: '"Inter", sans-serif' } },
      }).manifest.theme,
    ).toEqual({
      accent: 'oklch(0.6 0.1 180)',
      radius: 'soft',
      mode: 'dark',
      fonts: { sans: '"Inter", sans-serif' },
    });
  });

  it('drops theme values that could break out of CSS', () => {
    const { manifest, problems } = normalized({
      theme: { accent: 'red; } body { display: none', fonts: { mono: 'x}</style><script>' } },
    });
    expect(manifest.theme.accent).toBeUndefined();
    expect(manifest.theme.fonts.mono).toBeUndefined();
    expect(problems.map((p) => p.message)).toEqual([
      expect.stringContaining('`theme.accent` must be a CSS color'),
      expect.stringContaining('`theme.fonts.mono` must be a CSS font-family list'),
    ]);
  });

  it('strips a leading slash and .md from the landing page', () => {
    expect(normalized({ landing: '/installation.md' }).manifest.landing).toBe('installation');
    expect(normalized({}).manifest.landing).toBe('index');
  });

  it('leaves out a navbar link equal to the repository URL', () => {
    const { manifest, problems } = normalized({
      repository: { url: 'https://github.com/acme/app' },
      navbar: {
        links: [
          { label: 'GitHub', href: 'https://github.com/acme/app/' },
          { label: 'Blog', href: 'https://acme.dev/blog', icon: 'rss' },
        ],
        cta: { label: 'Start', href: '/docs/start' },
      },
    });
    expect(manifest.navbar).toEqual({
      links: [{ label: 'Blog', href: 'https://acme.dev/blog', icon: 'rss' }],
      cta: { label: 'Start', href: '/docs/start' },
    });
    expect(problems).toEqual([]);
  });

  it('leaves out unsafe navbar and footer links and reports links.unsafe', () => {
    const { manifest, problems } = normalized({
      navbar: {
        links: [
          { label: 'X', href: 'javascript:alert(1)' },
          { label: 'Mail', href: 'mailto:team@acme.dev' },
        ],
        cta: { label: 'Y', href: 'data:text/html,hi' },
      },
      footer: {
        links: [
          { label: 'Z', href: '//evil.example' },
          { label: 'Terms', href: '/terms' },
        ],
        text: '© Acme',
      },
    });
    expect(manifest.navbar).toEqual({ links: [{ label: 'Mail', href: 'mailto:team@acme.dev' }] });
    expect(manifest.footer).toEqual({ links: [{ label: 'Terms', href: '/terms' }], text: '© Acme' });
    expect(problems.map((p) => [p.rule, p.severity])).toEqual([
      ['links.unsafe', 'error'],
      ['links.unsafe', 'error'],
      ['links.unsafe', 'error'],
    ]);
    expect(problems[0]!.message).toBe(
      '`navbar.links[0].href` is "javascript:alert(1)", which is not an http, https or mailto URL or a path on the site; it is left out of every page.',
    );
  });

  it('gives redirects the default status and keeps only the four allowed ones', () => {
    const { manifest, problems } = normalized({
      redirects: [
        { from: '/docs/old', to: '/docs/new' },
        { from: '/docs/a', to: 'https://acme.dev/a', status: 302 },
        { from: '/docs/b', to: '/docs/c', status: 200 },
        { from: 'no-slash', to: '/docs/x' },
        { from: '/docs/js', to: 'javascript:alert(1)' },
      ],
    });
    expect(manifest.redirects).toEqual([
      { from: '/docs/old', to: '/docs/new', status: 301 },
      { from: '/docs/a', to: 'https://acme.dev/a', status: 302 },
      { from: '/docs/b', to: '/docs/c', status: 301 },
    ]);
    expect(problems.map((p) => p.rule)).toEqual(['manifest.schema', 'manifest.schema', 'links.unsafe']);
  });

  it('keeps inserts only at the seven insert points', () => {
    const { manifest, problems } = normalized({
      inserts: { 'article.after': ['Feedback', 'not-pascal'], 'header.action': ['X'], footer: ['Sponsors'] },
    });
    expect(manifest.inserts).toEqual({ 'article.after': ['Feedback'], footer: ['Sponsors'] });
    expect(problems.find((p) => p.fix === 'Rename `header.action` to `header.actions`.')).toBeDefined();
  });

  it('keeps assets as lists of safe relative files', () => {
    expect(normalized({ assets: { css: 'theme.css', js: ['a.js', 'a.js'] } }).manifest.assets).toEqual({
      css: ['theme.css'],
      js: ['a.js'],
    });
    const { manifest, problems } = normalized({
      assets: { css: ['ok.css', '../secret.css', '/etc/x.css', 'https://cdn/x.css'] },
    });
    expect(manifest.assets.css).toEqual(['ok.css']);
    expect(problems).toHaveLength(3);
  });

  it('keeps analytics integrations as written for the renderer to check', () => {
    const analytics = { ga4: { measurementId: 'G-123' }, posthog: { apiKey: 'nope' } };
    expect(normalized({ integrations: { analytics } }).manifest.integrations).toEqual({ analytics });
  });

  it('reads agent texts, credit and provenance', () => {
    const { manifest } = normalized({
      description: 'Docs.',
      agents: { llmsTxt: { description: 'For agents.', instructions: 'Search first.' }, skillMd: false },
      credit: false,
      provenance: false,
      favicon: 'favicon.ico',
    });
    expect(manifest.agents).toEqual({
      llmsTxt: { description: 'For agents.', instructions: 'Search first.' },
      skillMd: false,
    });
    expect([manifest.credit, manifest.provenance, manifest.favicon, manifest.description]).toEqual([
      false,
      false,
      'favicon.ico',
      'Docs.',
    ]);
  });
});

describe('normalizeManifest unknown keys', () => {
  it('keeps unknown top-level keys in extra without a problem', () => {
    const { manifest, problems } = normalized({
      'x-team': { slack: '#docs' },
      $schema: 'https://kit.dev/schemas/3.x/kit.json',
    });
    expect(manifest.extra).toEqual({ 'x-team': { slack: '#docs' } });
    expect(manifest.$schema).toBe('https://kit.dev/schemas/3.x/kit.json');
    expect(problems).toEqual([]);
  });

  it('warns about a key within two edits of a known key and suggests the rename', () => {
    const { manifest, problems } = normalized({ descripton: 'Oops', Name: 'Acme' });
    expect(manifest.description).toBeUndefined();
    expect(manifest.extra).toEqual({ descripton: 'Oops', Name: 'Acme' });
    expect(problems).toEqual([
      {
        rule: 'manifest.schema',
        severity: 'warning',
        file: 'kit.json',
        message:
          'Unknown top-level key `descripton` is kept but not read; it looks like a misspelling of `description`.',
        fix: 'Rename `descripton` to `description`.',
      },
      {
        rule: 'manifest.schema',
        severity: 'warning',
        file: 'kit.json',
        message: 'Unknown top-level key `Name` is kept but not read; it looks like a misspelling of `name`.',
        fix: 'Rename `Name` to `name`.',
      },
    ]);
  });

  it('warns about a misspelled key even when the correctly spelled key is also present', () => {
    const { manifest, problems } = normalized({ description: 'Real', descripton: 'Stale' });
    expect(manifest.description).toBe('Real');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ rule: 'manifest.schema', severity: 'warning', file: 'kit.json' });
    expect(problems[0]!.message).toMatchInlineSnapshot(
      `"Unknown top-level key \`descripton\` is kept but not read; it looks like a misspelling of \`description\`, which is also set and is the one read."`,
    );
    expect(problems[0]!.fix).toMatchInlineSnapshot(
      `"Rename \`descripton\` to \`description\` and merge it with the existing \`description\`, or remove \`descripton\`."`,
    );
  });

  it('keeps a __proto__ key as data', () => {
    const { manifest } = normalized(JSON.parse('{"__proto__": {"polluted": true}}'));
    expect(Object.hasOwn(manifest.extra, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reports a manifest that is not an object and still gives defaults', () => {
    const { manifest, problems } = normalized(['name']);
    expect(manifest.name).toBe('Docs');
    expect(problems[0]!.message).toBe('The document must be an object (found a list).');
  });
});

describe('parseManifestText', () => {
  it('reports invalid JSON with line and column and keeps the set working', () => {
    const { manifest, problems } = parseManifestText('{\n  "name": "Acme",\n  "versions": ["3.x",]\n}', 'docs');
    expect(manifest.name).toBe('Docs');
    expect(manifest.versions[0]!.id).toBe('current');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({
      rule: 'manifest.schema',
      severity: 'error',
      file: 'kit.json',
      line: 3,
      column: 21,
    });
    expect(problems[0]!.message).toBe(
      'kit.json is not valid JSON: Trailing comma before ] (line 3, column 21). Until it is fixed the set uses default settings.',
    );
  });

  it('points schema problems at the line of the offending value', () => {
    const text = '{\n  "name": "Acme",\n  "theme": {\n    "radius": "round"\n  }\n}\n';
    const { problems } = parseManifestText(text, 'docs');
    expect(problems).toMatchObject([{ rule: 'manifest.schema', line: 4, column: 15 }]);
  });

  it('points a missing required key at the object that lacks it', () => {
    const { problems } = parseManifestText('{\n  "redirects": [\n    { "to": "/x" }\n  ]\n}', 'docs');
    expect(problems).toMatchObject([
      { message: '`redirects[0]` is missing the required key `from`.', line: 3, column: 5 },
    ]);
  });

  it('reports an empty file as invalid JSON', () => {
    expect(parseManifestText('', 'docs').problems[0]!.message).toContain('Unexpected end of the file');
  });
});
