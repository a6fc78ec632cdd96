import { describe, expect, it } from 'vitest';
import type { LocaleInfo, VersionInfo } from '../model/types.js';
import {
  candidatePaths,
  canonicalPageLink,
  cleanPagePath,
  createUrlLayout,
  linkBaseOf,
  markdownUrl,
  mcpEndpointPath,
  normalizePrefix,
  pageUrl,
  parseSetUrl,
  rebaseLink,
  restrictVersions,
  type UrlLayout,
} from './set-urls.js';

function version(id: string, extra: Partial<VersionInfo> = {}): VersionInfo {
  return { id, label: id, status: 'current', default: false, visibility: 'public', ...extra };
}
function locale(code: string, extra: Partial<LocaleInfo> = {}): LocaleInfo {
  return { code, label: code, dir: code === 'ar' ? 'rtl' : 'ltr', default: false, ...extra };
}

const versionedLocalized = createUrlLayout('docs', {
  versioned: true,
  versions: [version('3.x', { default: true }), version('2.x'), version('1.x')],
  locales: [locale('en', { default: true }), locale('ar')],
  landing: 'index',
});
const laravelLike = createUrlLayout('/docs/', {
  versioned: true,
  versions: [version('13.x', { default: true }), version('12.x')],
  locales: [locale('en', { default: true })],
  landing: 'installation',
});
const unversioned = createUrlLayout('guide', {
  versioned: false,
  versions: [version('current', { default: true })],
  locales: [locale('en', { default: true })],
  landing: 'index',
});
const rootMounted = createUrlLayout('', {
  versioned: true,
  versions: [version('3.x', { default: true }), version('2.x')],
  locales: [locale('en', { default: true }), locale('ar')],
  landing: 'index',
});

function page(pathname: string, layout: UrlLayout) {
  const parsed = parseSetUrl(pathname, layout);
  if (parsed.kind !== 'page') throw new Error(`${pathname} parsed as ${parsed.kind}`);
  return { version: parsed.version, locale: parsed.locale, path: parsed.path, markdown: parsed.markdown };
}

describe('normalizePrefix', () => {
  it('gives a leading slash and no trailing slash, and empty for the root', () => {
    expect(normalizePrefix('docs')).toBe('/docs');
    expect(normalizePrefix('/docs/')).toBe('/docs');
    expect(normalizePrefix('team/docs')).toBe('/team/docs');
    expect(normalizePrefix('')).toBe('');
    expect(normalizePrefix('/')).toBe('');
  });
});

describe('createUrlLayout', () => {
  it('takes the version and locale marked default, else the first', () => {
    const layout = createUrlLayout('docs', {
      versioned: true,
      versions: [version('3.x'), version('2.x', { default: true })],
      locales: [locale('fr'), locale('en')],
      landing: 'index',
    });
    expect(layout.defaultVersion).toBe('2.x');
    expect(layout.defaultLocale).toBe('fr');
  });
});

describe('parseSetUrl on a versioned, localized set', () => {
  const table: Array<[string, { version: string; locale: string; path: string; markdown: boolean }]> = [
    ['/docs', { version: '3.x', locale: 'en', path: 'index', markdown: false }],
    ['/docs/routing', { version: '3.x', locale: 'en', path: 'routing', markdown: false }],
    ['/docs/routing.md', { version: '3.x', locale: 'en', path: 'routing', markdown: true }],
    ['/docs/index.md', { version: '3.x', locale: 'en', path: 'index', markdown: true }],
    ['/docs/2.x', { version: '2.x', locale: 'en', path: 'index', markdown: false }],
    ['/docs/2.x/index.md', { version: '2.x', locale: 'en', path: 'index', markdown: true }],
    ['/docs/2.x/guides/caching', { version: '2.x', locale: 'en', path: 'guides/caching', markdown: false }],
    ['/docs/2.x/guides/caching.md', { version: '2.x', locale: 'en', path: 'guides/caching', markdown: true }],
    ['/docs/ar', { version: '3.x', locale: 'ar', path: 'index', markdown: false }],
    ['/docs/ar/routing', { version: '3.x', locale: 'ar', path: 'routing', markdown: false }],
    ['/docs/2.x/ar/routing.md', { version: '2.x', locale: 'ar', path: 'routing', markdown: true }],
    ['/docs/3.x/routing', { version: '3.x', locale: 'en', path: 'routing', markdown: false }],
    ['/docs/3.x/en/routing', { version: '3.x', locale: 'en', path: 'routing', markdown: false }],
    ['/docs/9.x/routing', { version: '3.x', locale: 'en', path: '9.x/routing', markdown: false }],
    ['/docs/ar/2.x/routing', { version: '3.x', locale: 'ar', path: '2.x/routing', markdown: false }],
    ['/docs/2.x.md', { version: '3.x', locale: 'en', path: '2.x', markdown: true }],
    ['/docs/caf%C3%A9', { version: '3.x', locale: 'en', path: 'café', markdown: false }],
  ];
  for (const [pathname, expected] of table) {
    it(`reads ${pathname}`, () => {
      expect(page(pathname, versionedLocalized)).toEqual(expected);
    });
  }

  it('marks which segments the URL named', () => {
    expect(parseSetUrl('/docs/3.x/routing', versionedLocalized)).toMatchObject({
      explicitVersion: true,
      explicitLocale: false,
    });
    expect(parseSetUrl('/docs/ar/routing', versionedLocalized)).toMatchObject({
      explicitVersion: false,
      explicitLocale: true,
    });
  });

  it('answers a trailing slash with the canonical URL without it', () => {
    expect(parseSetUrl('/docs/2.x/', versionedLocalized)).toEqual({ kind: 'slash', location: '/docs/2.x' });
    expect(parseSetUrl('/docs/routing//', versionedLocalized)).toEqual({ kind: 'slash', location: '/docs/routing' });
    expect(parseSetUrl('/docs/', versionedLocalized)).toEqual({ kind: 'slash', location: '/docs' });
  });

  it('leaves paths of other prefixes alone', () => {
    expect(parseSetUrl('/blog/post', versionedLocalized).kind).toBe('outside');
    expect(parseSetUrl('/docsx/routing', versionedLocalized).kind).toBe('outside');
    expect(parseSetUrl('docs/routing', versionedLocalized).kind).toBe('outside');
  });

  it('refuses dot segments, empty segments, encoded slashes and broken escapes', () => {
    for (const pathname of [
      '/docs/../secret',
      '/docs/a/./b',
      '/docs/a//b',
      '/docs/a%2Fb',
      '/docs/%E0%A4%A',
      '/docs/.md',
    ]) {
      expect(parseSetUrl(pathname, versionedLocalized).kind).toBe('invalid');
    }
  });
});

describe('parseSetUrl on other set shapes', () => {
  it('never reads a version segment on an unversioned set', () => {
    expect(page('/guide', unversioned)).toEqual({ version: 'current', locale: 'en', path: 'index', markdown: false });
    expect(page('/guide/current/intro', unversioned)).toMatchObject({ version: 'current', path: 'current/intro' });
  });

  it('reads a root-mounted set from the domain root', () => {
    expect(page('/', rootMounted)).toEqual({ version: '3.x', locale: 'en', path: 'index', markdown: false });
    expect(page('/2.x/ar/routing.md', rootMounted)).toEqual({
      version: '2.x',
      locale: 'ar',
      path: 'routing',
      markdown: true,
    });
    expect(page('/index.md', rootMounted)).toMatchObject({ path: 'index', markdown: true });
    expect(parseSetUrl('/2.x/', rootMounted)).toEqual({ kind: 'slash', location: '/2.x' });
  });

  it('opens a version on its landing page', () => {
    expect(page('/docs/12.x', laravelLike)).toMatchObject({ version: '12.x', path: 'installation' });
    expect(page('/docs/12.x/index.md', laravelLike)).toMatchObject({ path: 'installation', markdown: true });
    expect(page('/docs/12.x/installation', laravelLike)).toMatchObject({ path: 'installation' });
  });

  it('reads a version removed by restrictVersions as an ordinary path segment', () => {
    const guest = restrictVersions(versionedLocalized, (v) => v.id !== '2.x');
    expect(page('/docs/2.x/routing', guest)).toMatchObject({ version: '3.x', path: '2.x/routing' });
    expect(page('/docs/1.x/routing', guest)).toMatchObject({ version: '1.x', path: 'routing' });
  });

  it('keeps the default version even when it is hidden, so URLs keep their meaning', () => {
    const guest = restrictVersions(versionedLocalized, () => false);
    expect(guest.versions.map((v) => v.id)).toEqual(['3.x']);
  });
});

describe('pageUrl and markdownUrl', () => {
  const cases: Array<[UrlLayout, { version: string; locale: string; path: string }, string, string]> = [
    [versionedLocalized, { version: '3.x', locale: 'en', path: 'routing' }, '/docs/routing', '/docs/routing.md'],
    [
      versionedLocalized,
      { version: '2.x', locale: 'en', path: 'routing' },
      '/docs/2.x/routing',
      '/docs/2.x/routing.md',
    ],
    [versionedLocalized, { version: '2.x', locale: 'ar', path: 'a/b' }, '/docs/2.x/ar/a/b', '/docs/2.x/ar/a/b.md'],
    [versionedLocalized, { version: '3.x', locale: 'ar', path: 'index' }, '/docs/ar', '/docs/ar/index.md'],
    [versionedLocalized, { version: '3.x', locale: 'en', path: 'index' }, '/docs', '/docs/index.md'],
    [versionedLocalized, { version: '2.x', locale: 'en', path: 'index' }, '/docs/2.x', '/docs/2.x/index.md'],
    [
      versionedLocalized,
      { version: '3.x', locale: 'en', path: 'guides/index' },
      '/docs/guides',
      '/docs/guides/index.md',
    ],
    [laravelLike, { version: '12.x', locale: 'en', path: 'installation' }, '/docs/12.x', '/docs/12.x/index.md'],
    [unversioned, { version: 'current', locale: 'en', path: 'intro' }, '/guide/intro', '/guide/intro.md'],
    [rootMounted, { version: '3.x', locale: 'en', path: 'index' }, '/', '/index.md'],
    [rootMounted, { version: '2.x', locale: 'en', path: 'routing' }, '/2.x/routing', '/2.x/routing.md'],
    [rootMounted, { version: '3.x', locale: 'en', path: 'routing' }, '/routing', '/routing.md'],
    [versionedLocalized, { version: '3.x', locale: 'en', path: 'café' }, '/docs/caf%C3%A9', '/docs/caf%C3%A9.md'],
  ];
  for (const [layout, target, url, twin] of cases) {
    it(`gives ${url} and ${twin}`, () => {
      expect(pageUrl(layout, target)).toBe(url);
      expect(markdownUrl(layout, target)).toBe(twin);
    });
  }

  it('round-trips: every URL it builds parses back to the same page', () => {
    const layouts = [versionedLocalized, laravelLike, unversioned, rootMounted];
    for (const layout of layouts) {
      for (const v of layout.versions) {
        for (const l of layout.locales) {
          for (const path of [layout.landing, 'routing', 'guides/deep/page', 'ar-intro', '3x']) {
            const target = { version: v.id, locale: l.code, path };
            const fromPage = parseSetUrl(pageUrl(layout, target), layout);
            const fromTwin = parseSetUrl(markdownUrl(layout, target), layout);
            expect(fromPage).toMatchObject({ kind: 'page', ...target, markdown: false });
            expect(fromTwin).toMatchObject({ kind: 'page', ...target, markdown: true });
          }
        }
      }
    }
  });
});

describe('cleanPagePath and candidatePaths', () => {
  it('turns typed paths into page paths', () => {
    expect(cleanPagePath('/routing.md')).toBe('routing');
    expect(cleanPagePath(' guides/intro/ ')).toBe('guides/intro');
    expect(cleanPagePath('')).toBeNull();
    expect(cleanPagePath('../etc/passwd')).toBeNull();
    expect(cleanPagePath('a//b')).toBeNull();
  });

  it('looks for a folder index page after the path itself', () => {
    expect(candidatePaths({ path: 'guides', root: false })).toEqual(['guides', 'guides/index']);
    expect(candidatePaths({ path: 'guides/index', root: false })).toEqual(['guides/index']);
    expect(candidatePaths({ path: 'installation', root: true })).toEqual(['installation']);
  });
});

describe('mcpEndpointPath', () => {
  it('puts mcp.web.path under the set prefix, and at the root for a root-mounted set', () => {
    expect(mcpEndpointPath('docs', 'mcp')).toBe('/docs/mcp');
    expect(mcpEndpointPath('/docs/', '/agents/mcp/')).toBe('/docs/agents/mcp');
    expect(mcpEndpointPath('', 'mcp')).toBe('/mcp');
  });
});

describe('rebaseLink and route.link_prefix', () => {
  const manifest = { versioned: true, versions: [version('13.x', { default: true })], locales: [], landing: 'index' };

  it('serves a link written under the link prefix under the set prefix, keeping query and fragment', () => {
    const base = linkBaseOf(createUrlLayout('laravel', manifest, { linkPrefix: '/docs/' }));
    expect(base).toEqual({ written: '/docs', served: '/laravel' });
    expect(rebaseLink('/docs/13.x/routing#route-groups', base)).toBe('/laravel/13.x/routing#route-groups');
    expect(rebaseLink('/docs?q=1', base)).toBe('/laravel?q=1');
    expect(rebaseLink('/docs/', base)).toBe('/laravel');
  });

  it('leaves links outside the link prefix, other sites and relative links as written', () => {
    const base = { written: '/docs', served: '/laravel' };
    for (const url of [
      '/docsets/x',
      '/laravel/routing',
      '//cdn.example.com/docs/x',
      'https://x.test/docs/a',
      'routing.md',
      '#top',
    ]) {
      expect(rebaseLink(url, base)).toBe(url);
    }
    expect(rebaseLink('/docs/x', undefined)).toBe('/docs/x');
  });

  it('reads links written for a root-mounted site, and for a root-mounted set', () => {
    expect(rebaseLink('/routing', { written: '', served: '/laravel' })).toBe('/laravel/routing');
    expect(rebaseLink('/', { written: '', served: '/laravel' })).toBe('/laravel');
    expect(rebaseLink('/docs/routing', { written: '/docs', served: '' })).toBe('/routing');
    expect(rebaseLink('/docs', { written: '/docs', served: '' })).toBe('/');
  });

  it('serves a link already under the set prefix as written, when the set is mounted inside the link prefix', () => {
    const nested = linkBaseOf(createUrlLayout('docs/laravel', manifest, { linkPrefix: 'docs' }));
    expect(rebaseLink('/docs/laravel/13.x/routing#groups', nested)).toBe('/docs/laravel/13.x/routing#groups');
    expect(rebaseLink('/docs/laravel', nested)).toBe('/docs/laravel');
    expect(rebaseLink('/docs/13.x/routing', nested)).toBe('/docs/laravel/13.x/routing');
    expect(rebaseLink('/docs/laravelish/x', nested)).toBe('/docs/laravel/laravelish/x');

    const fromRoot = linkBaseOf(createUrlLayout('laravel', manifest, { linkPrefix: '' }));
    expect(rebaseLink('/laravel/13.x/routing?x=1', fromRoot)).toBe('/laravel/13.x/routing?x=1');
    expect(rebaseLink('/13.x/routing', fromRoot)).toBe('/laravel/13.x/routing');
  });

  it('rebases a link under a link prefix nested inside the set prefix, the longer prefix deciding', () => {
    const base = linkBaseOf(createUrlLayout('docs', manifest, { linkPrefix: 'docs/laravel' }));
    expect(rebaseLink('/docs/laravel/13.x/routing', base)).toBe('/docs/13.x/routing');
    expect(rebaseLink('/docs/13.x/routing', base)).toBe('/docs/13.x/routing');
    // A root-mounted set: every path is under its prefix, but a link under the link prefix still moves.
    expect(rebaseLink('/docs/routing', { written: '/docs', served: '' })).toBe('/routing');
  });

  it('has no link base when the link prefix is unset or the set prefix itself', () => {
    expect(linkBaseOf(createUrlLayout('laravel', manifest))).toBeUndefined();
    expect(linkBaseOf(createUrlLayout('laravel', manifest, { linkPrefix: null }))).toBeUndefined();
    expect(linkBaseOf(createUrlLayout('laravel', manifest, { linkPrefix: 'laravel' }))).toBeUndefined();
    expect(linkBaseOf(createUrlLayout('laravel', manifest, { linkPrefix: '' }))).toEqual({
      written: '',
      served: '/laravel',
    });
  });
});

describe('canonicalPageLink', () => {
  it('drops a version or locale segment that names the default, keeping query and fragment', () => {
    expect(canonicalPageLink('/docs/13.x/queues#retries', laravelLike)).toBe('/docs/queues#retries');
    expect(canonicalPageLink('/docs/13.x/queues?tab=1', laravelLike)).toBe('/docs/queues?tab=1');
    expect(canonicalPageLink('/docs/13.x', laravelLike)).toBe('/docs');
    expect(canonicalPageLink('/docs/13.x/installation', laravelLike)).toBe('/docs');
    expect(canonicalPageLink('/docs/3.x/en/guide', versionedLocalized)).toBe('/docs/guide');
    expect(canonicalPageLink('/docs/3.x/ar/guide', versionedLocalized)).toBe('/docs/ar/guide');
    expect(canonicalPageLink('/3.x/guide', rootMounted)).toBe('/guide');
  });

  it('leaves other versions, twins, files, other sets and canonical links as they are', () => {
    expect(canonicalPageLink('/docs/12.x/queues', laravelLike)).toBe('/docs/12.x/queues');
    expect(canonicalPageLink('/docs/13.x/queues.md', laravelLike)).toBe('/docs/13.x/queues.md');
    expect(canonicalPageLink('/docs/13.x/img/flow.png', laravelLike)).toBe('/docs/13.x/img/flow.png');
    expect(canonicalPageLink('/blog/13.x/queues', laravelLike)).toBe('/blog/13.x/queues');
    expect(canonicalPageLink('/docs/queues', laravelLike)).toBe('/docs/queues');
    expect(canonicalPageLink('/guide/13.x/x', unversioned)).toBe('/guide/13.x/x');
  });
});
