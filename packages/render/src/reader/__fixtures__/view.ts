import type { ReaderPageView } from '../types.js';

export const NOW = '2026-03-10T12:00:00Z';

/** A full page view for tests: every part of the layout switched on. */
export function view(overrides: Partial<ReaderPageView> = {}, page: Partial<ReaderPageView['page']> = {}): ReaderPageView {
  return {
    set: 'docs',
    name: 'Acme',
    description: 'Acme docs.',
    logo: { light: '/logo.svg', dark: '/logo-dark.svg' },
    homeUrl: '/docs',
    baseUrl: '/docs',
    lang: 'en',
    dir: 'ltr',
    navbar: {
      links: [
        { label: 'Blog', href: 'https://acme.test/blog' },
        { label: 'GitHub', href: 'https://github.com/acme/acme' },
      ],
      cta: { label: 'Sign up', href: 'https://acme.test/signup' },
    },
    repositoryUrl: 'https://github.com/acme/acme',
    sidebar: {
      groups: [
        {
          label: 'Start',
          items: [
            { kind: 'page', title: 'Introduction', path: 'index', url: '/docs' },
            { kind: 'page', title: 'Routing', path: 'routing', url: '/docs/routing', updatedAt: '2026-03-10T06:00:00Z' },
            { kind: 'page', title: 'Old page', path: 'old', url: '/docs/old', updatedAt: '2026-01-01T00:00:00Z' },
            {
              kind: 'group',
              label: 'Advanced',
              items: [{ kind: 'page', title: 'Caching', path: 'advanced/caching', url: '/docs/advanced/caching' }],
            },
            { kind: 'group', label: 'Closed', items: [{ kind: 'page', title: 'Queues', path: 'queues', url: '/docs/queues' }] },
            { kind: 'link', label: 'API reference', href: 'https://api.acme.test' },
          ],
        },
      ],
    },
    footer: { links: [{ label: 'Privacy', href: '/privacy' }], text: 'Made by Acme.', credit: true },
    versions: [
      { id: '3.x', label: '3.x', status: 'current', url: '/docs/advanced/caching', default: true },
      { id: '2.x', label: '2.x', status: 'maintained', url: '/docs/2.x/advanced/caching' },
      { id: '1.x', label: '1.x', status: 'deprecated', url: '/docs/1.x' },
      { id: '0.x', label: '0.x', status: 'archived', url: '/docs/0.x' },
    ],
    currentVersion: '3.x',
    locales: [
      { code: 'en', label: 'English', dir: 'ltr', url: '/docs/advanced/caching' },
      { code: 'ar', label: 'العربية', dir: 'rtl', url: '/docs/ar/advanced/caching' },
    ],
    currentLocale: 'en',
    feedback: { enabled: true, endpoint: '/docs/_kit/feedback' },
    search: { driver: 'server', serverSearchUrl: '/docs/_kit/search' },
    theme: { radius: 'sharp', fonts: {}, mode: 'system' },
    assets: { js: '/docs/_kit/reader.abc.js', css: '/docs/_kit/reader.abc.css' },
    llmsTxtUrl: '/docs/llms.txt',
    freshDays: 1,
    now: NOW,
    ...overrides,
    page: {
      title: 'Caching',
      description: 'Cache things.',
      path: 'advanced/caching',
      url: '/docs/advanced/caching',
      canonicalUrl: 'https://acme.test/docs/advanced/caching',
      markdownUrl: '/docs/advanced/caching.md',
      html: '<p>Intro.</p><h2 id="drivers">Drivers</h2><p>Text.</p><h3 id="redis">Redis</h3><pre><code>x</code></pre>',
      toc: [
        { depth: 2, text: 'Drivers', id: 'drivers' },
        { depth: 3, text: 'Redis', id: 'redis' },
      ],
      editUrl: 'https://github.com/acme/acme/edit/main/docs/advanced/caching.md',
      provenance: { author: 'Ada', date: '2026-03-01T09:00:00Z', commit: '0123456789abcdef', commitUrl: 'https://github.com/acme/acme/commit/0123456789abcdef' },
      prev: { label: 'Routing', href: '/docs/routing' },
      next: { label: 'Queues', href: '/docs/queues' },
      ...page,
    },
  };
}
