import { describe, expect, it } from 'vitest';
import type { RedirectRule, VersionInfo } from '../model/types.js';
import { createUrlLayout, restrictVersions } from '../urls/set-urls.js';
import { findRedirectLoops, findShadowedRedirects, matchRedirect } from './redirects.js';

function version(id: string, isDefault = false): VersionInfo {
  return { id, label: id, status: 'current', default: isDefault, visibility: 'public' };
}
const layout = createUrlLayout('docs', {
  versioned: true,
  versions: [version('3.x', true), version('2.x'), version('1.x')],
  locales: [
    { code: 'en', label: 'English', dir: 'ltr', default: true },
    { code: 'ar', label: 'العربية', dir: 'rtl', default: false },
  ],
  landing: 'index',
});
const rootMounted = createUrlLayout('', { ...layout, versioned: true, landing: 'index' });
const r = (from: string, to: string, status: RedirectRule['status'] = 301): RedirectRule => ({ from, to, status });
const at = (version: string, path: string, locale = 'en', markdown = false) => ({ version, locale, path, markdown });

describe('matchRedirect', () => {
  it('applies a from without a version in every version and keeps the reader there', () => {
    const rules = [r('/docs/old', '/docs/new')];
    expect(matchRedirect(rules, layout, at('3.x', 'old'))?.location).toBe('/docs/new');
    expect(matchRedirect(rules, layout, at('2.x', 'old'))?.location).toBe('/docs/2.x/new');
    expect(matchRedirect(rules, layout, at('2.x', 'old', 'ar'))?.location).toBe('/docs/2.x/ar/new');
  });

  it('matches a from with a version in that version only', () => {
    const rules = [r('/docs/2.x/old', '/docs/2.x/new')];
    expect(matchRedirect(rules, layout, at('2.x', 'old'))?.location).toBe('/docs/2.x/new');
    expect(matchRedirect(rules, layout, at('3.x', 'old'))).toBeNull();
    expect(matchRedirect(rules, layout, at('1.x', 'old'))).toBeNull();
  });

  it('treats a from naming the default version as naming that version only', () => {
    const rules = [r('/docs/3.x/old', '/docs/new')];
    expect(matchRedirect(rules, layout, at('3.x', 'old'))?.location).toBe('/docs/new');
    expect(matchRedirect(rules, layout, at('2.x', 'old'))).toBeNull();
  });

  it('sends a to naming a version to that version whatever the reader reads', () => {
    const rules = [r('/docs/gone', '/docs/2.x/kept', 302)];
    expect(matchRedirect(rules, layout, at('1.x', 'gone'))).toMatchObject({ location: '/docs/2.x/kept', status: 302 });
    expect(matchRedirect(rules, layout, at('3.x', 'gone'))?.target).toEqual({
      version: '2.x',
      locale: 'en',
      path: 'kept',
    });
  });

  it('prefers the rule that names the version over a version-less one', () => {
    const rules = [r('/docs/old', '/docs/everywhere'), r('/docs/2.x/old', '/docs/2.x/special')];
    expect(matchRedirect(rules, layout, at('2.x', 'old'))?.location).toBe('/docs/2.x/special');
    expect(matchRedirect(rules, layout, at('1.x', 'old'))?.location).toBe('/docs/1.x/everywhere');
  });

  it('uses a full URL or a path outside the set as written', () => {
    expect(matchRedirect([r('/docs/x', 'https://example.com/y?q=1')], layout, at('2.x', 'x'))?.location).toBe(
      'https://example.com/y?q=1',
    );
    expect(matchRedirect([r('/docs/x', '/blog/x')], layout, at('2.x', 'x'))).toMatchObject({
      location: '/blog/x',
      target: null,
    });
  });

  it('reads a bare to as a page path of the set and keeps its fragment', () => {
    expect(matchRedirect([r('/docs/x', 'routing#groups')], layout, at('2.x', 'x'))?.location).toBe(
      '/docs/2.x/routing#groups',
    );
  });

  it('lands a Markdown twin request on the target twin', () => {
    const rules = [r('/docs/old', '/docs/new')];
    expect(matchRedirect(rules, layout, at('2.x', 'old', 'en', true))?.location).toBe('/docs/2.x/new.md');
    expect(matchRedirect([r('/docs/old', '/docs')], layout, at('2.x', 'old', 'en', true))?.location).toBe(
      '/docs/2.x/index.md',
    );
  });

  it('ignores a trailing slash on from', () => {
    expect(matchRedirect([r('/docs/old/', '/docs/new')], layout, at('3.x', 'old'))?.location).toBe('/docs/new');
  });

  it('works on a root-mounted set', () => {
    const rules = [r('/old', '/new'), r('/2.x/legacy', '/2.x/modern')];
    expect(matchRedirect(rules, rootMounted, at('2.x', 'old'))?.location).toBe('/2.x/new');
    expect(matchRedirect(rules, rootMounted, at('3.x', 'old'))?.location).toBe('/new');
    expect(matchRedirect(rules, rootMounted, at('2.x', 'legacy'))?.location).toBe('/2.x/modern');
  });

  it('reads a rule naming a hidden version like a rule of an undeclared version', () => {
    const guest = restrictVersions(layout, (v) => v.id !== '2.x');
    expect(matchRedirect([r('/docs/2.x/old', '/docs/2.x/new')], guest, at('2.x', 'old'))).toBeNull();
    expect(matchRedirect([r('/docs/2.x/old', '/docs/new')], guest, at('3.x', '2.x/old'))?.location).toBe('/docs/new');
  });

  it('answers null when no rule matches', () => {
    expect(matchRedirect([r('/docs/a', '/docs/b')], layout, at('3.x', 'c'))).toBeNull();
    expect(matchRedirect([], layout, at('3.x', 'c'))).toBeNull();
  });
});

describe('findRedirectLoops', () => {
  it('reports a two-rule loop once', () => {
    const problems = findRedirectLoops([r('/docs/a', '/docs/b'), r('/docs/b', '/docs/a')], layout);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ rule: 'redirects.loop', severity: 'error' });
    expect(problems[0]!.message).toContain('/docs/a → /docs/b → /docs/a');
    expect(problems[0]!.fix).toBeTruthy();
  });

  it('reports a redirect to itself', () => {
    expect(findRedirectLoops([r('/docs/2.x/a', '/docs/2.x/a')], layout)).toHaveLength(1);
  });

  it('finds a loop that exists only in one version', () => {
    const rules = [r('/docs/a', '/docs/b'), r('/docs/1.x/b', '/docs/1.x/a')];
    expect(findRedirectLoops(rules, layout)).toHaveLength(1);
  });

  it('does not report a chain that ends', () => {
    const rules = [r('/docs/a', '/docs/b'), r('/docs/b', '/docs/c'), r('/docs/x', 'https://example.com')];
    expect(findRedirectLoops(rules, layout)).toEqual([]);
  });

  it('does not report a loop broken by a page that exists', () => {
    const rules = [r('/docs/a', '/docs/b'), r('/docs/b', '/docs/a')];
    expect(findRedirectLoops(rules, layout, (t) => t.path === 'b')).toEqual([]);
  });

  it('does not count a version switch as a loop', () => {
    const rules = [r('/docs/3.x/a', '/docs/2.x/a')];
    expect(findRedirectLoops(rules, layout)).toEqual([]);
  });
});

describe('findShadowedRedirects', () => {
  it('reports a versioned redirect whose page exists in that version', () => {
    const problems = findShadowedRedirects([r('/docs/2.x/a', '/docs/2.x/b')], layout, (t) => t.path === 'a');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ rule: 'redirects.shadowed', severity: 'warning' });
    expect(problems[0]!.message).toContain('/docs/2.x/a');
  });

  it('reports a version-less redirect only when every version has the page', () => {
    const rules = [r('/docs/a', '/docs/b')];
    expect(findShadowedRedirects(rules, layout, (t) => t.path === 'a' && t.version === '1.x')).toEqual([]);
    expect(findShadowedRedirects(rules, layout, (t) => t.path === 'a')).toHaveLength(1);
  });

  it('does not report a redirect whose from has no page', () => {
    expect(findShadowedRedirects([r('/docs/a', '/docs/b')], layout, () => false)).toEqual([]);
  });
});
