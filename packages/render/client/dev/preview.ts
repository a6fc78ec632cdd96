/**
 * Renders sample reader pages to /tmp/reader-preview (or the folder given as the first argument)
 * for a visual check in a browser: light, dark, right-to-left, a phone width and the 404 page.
 *
 *   npx tsx packages/render/client/dev/preview.ts [out-dir]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NavGroup, NavEntry, SourcePage } from '@kit/core';
import { createRenderer, renderNotFoundPage, renderReaderPage } from '../../src/index.js';
import type { ReaderNavItem, ReaderPageView } from '../../src/index.js';
import { buildReaderAssets } from '../../src/reader/assets.js';

const out = process.argv[2] ?? '/tmp/reader-preview';
const corpus = '/work/shared/corpora/laravel/13.x';
mkdirSync(out, { recursive: true });

const assets = await buildReaderAssets();
writeFileSync(join(out, assets.js.name), assets.js.body);
writeFileSync(join(out, assets.css.name), assets.css.body);
for (const chunk of assets.chunks) writeFileSync(join(out, chunk.name), chunk.body);

const body = readFileSync(join(corpus, 'routing.md'), 'utf8');
const page: SourcePage = {
  path: 'routing',
  version: '13.x',
  locale: 'en',
  frontmatter: {},
  body,
  title: 'Routing',
  description: 'Define routes, route parameters, named routes, groups and model binding.',
  contentHash: 'sha256:0',
  bodyLine: 1,
  visibility: 'public',
  problems: [],
};
const rendered = await createRenderer().render(page, {
  set: 'docs',
  version: '13.x',
  locale: 'en',
  versionSegment: '13.x',
  pageUrl: (path) => `/docs/13.x/${path}`,
  origin: 'https://laravel.example',
  htmlInput: 'allow',
  sanitize: false,
  snippetsRoot: null,
});
const callouts =
  '<div class="callout callout-note" data-callout="note"><p class="callout-title">Note</p><p>Routes defined in <code>routes/web.php</code> get session state and CSRF protection.</p></div>' +
  '<div class="callout callout-warning" data-callout="warning"><p class="callout-title">Warning</p><p>Closure-based routes cannot be cached. Use controller routes in production.</p></div>';

const nav = JSON.parse(readFileSync(join(corpus, 'navigation.json'), 'utf8')) as { groups: NavGroup[] };
const now = new Date();
const recent = new Date(now.getTime() - 3 * 3_600_000).toISOString();
function toItems(entries: NavEntry[]): ReaderNavItem[] {
  return entries.map((entry) => {
    if (typeof entry === 'string') return { kind: 'page', title: entry, path: entry, url: `/docs/13.x/${entry}` };
    if ('pages' in entry) return { kind: 'group', label: entry.label, items: toItems(entry.pages) };
    if ('href' in entry) return { kind: 'link', label: entry.label, href: entry.href };
    const fresh = entry.path === 'middleware' || entry.path === 'csrf' ? { updatedAt: recent } : {};
    return {
      kind: 'page',
      title: entry.title ?? entry.path,
      path: entry.path,
      url: `/docs/13.x/${entry.path}`,
      ...fresh,
    };
  });
}
const groups = nav.groups.map((group) => ({ label: group.label, items: toItems(group.pages) }));
groups[2]!.items.push({
  kind: 'group',
  label: 'Advanced',
  items: [
    { kind: 'page', title: 'Octane', path: 'octane', url: '/docs/13.x/octane' },
    { kind: 'link', label: 'Laravel News', href: 'https://laravel-news.com' },
  ],
});

const base: ReaderPageView = {
  set: 'docs',
  name: 'Laravel',
  description: 'Laravel is a PHP web application framework with expressive, elegant syntax.',
  homeUrl: '/docs',
  baseUrl: '/docs',
  lang: 'en',
  dir: 'ltr',
  navbar: {
    links: [
      { label: 'Guides', href: '/docs/13.x/installation' },
      { label: 'API', href: 'https://api.laravel.com' },
    ],
    cta: { label: 'Get started', href: '/docs/13.x/installation' },
  },
  repositoryUrl: 'https://github.com/laravel/docs',
  sidebar: { groups },
  footer: {
    links: [
      { label: 'License', href: '/docs/license' },
      { label: 'Privacy', href: '/privacy' },
    ],
    text: 'Laravel is a trademark of Taylor Otwell.',
    credit: true,
  },
  versions: [
    { id: '13.x', label: '13.x', status: 'current', url: '/docs/13.x/routing', default: true },
    { id: '12.x', label: '12.x', status: 'maintained', url: '/docs/12.x/routing' },
    { id: '11.x', label: '11.x', status: 'deprecated', url: '/docs/11.x/routing' },
  ],
  currentVersion: '13.x',
  locales: [
    { code: 'en', label: 'English', dir: 'ltr', url: '/docs/routing' },
    { code: 'ar', label: 'العربية', dir: 'rtl', url: '/docs/ar/routing' },
  ],
  currentLocale: 'en',
  feedback: { enabled: true, endpoint: '/docs/_kit/feedback' },
  search: { driver: 'server', serverSearchUrl: '/docs/_kit/search' },
  theme: { radius: 'soft', fonts: {}, mode: 'light' },
  assets: { js: assets.js.name, css: assets.css.name },
  llmsTxtUrl: '/docs/llms.txt',
  freshDays: 1,
  now: now.toISOString(),
  page: {
    title: 'Routing',
    description: page.description,
    path: 'routing',
    url: '/docs/13.x/routing',
    canonicalUrl: 'https://laravel.example/docs/routing',
    markdownUrl: '/docs/13.x/routing.md',
    html: rendered.html.replace('<h2', `${callouts}<h2`),
    toc: rendered.toc,
    group: 'The Basics',
    editUrl: 'https://github.com/laravel/docs/edit/13.x/routing.md',
    provenance: {
      author: 'Taylor Otwell',
      date: '2026-05-02T10:00:00Z',
      commit: '4f2a9c1e7b',
      commitUrl: 'https://github.com/laravel/docs/commit/4f2a9c1e7b',
    },
    prev: { label: 'Directory Structure', href: '/docs/13.x/structure' },
    next: { label: 'Middleware', href: '/docs/13.x/middleware' },
  },
};

const arabic: ReaderPageView = {
  ...base,
  lang: 'ar',
  dir: 'rtl',
  currentLocale: 'ar',
  currentVersion: '11.x',
  name: 'لارافيل',
  navbar: {
    links: [{ label: 'الأدلة', href: '/docs/ar/installation' }],
    cta: { label: 'ابدأ الآن', href: '/docs/ar/installation' },
  },
  sidebar: {
    groups: [
      {
        label: 'البداية',
        items: [
          { kind: 'page', title: 'التثبيت', path: 'installation', url: '/docs/ar/installation' },
          { kind: 'page', title: 'الإعداد', path: 'configuration', url: '/docs/ar/configuration', updatedAt: recent },
          { kind: 'page', title: 'التوجيه', path: 'routing', url: '/docs/ar/routing' },
          {
            kind: 'group',
            label: 'متقدم',
            items: [{ kind: 'page', title: 'الوسائط', path: 'middleware', url: '/docs/ar/middleware' }],
          },
        ],
      },
    ],
  },
  strings: {
    search: 'بحث',
    searchPlaceholder: 'ابحث في التوثيق…',
    onThisPage: 'في هذه الصفحة',
    helpfulQuestion: 'هل كانت هذه الصفحة مفيدة؟',
    yes: 'نعم',
    no: 'لا',
    editPage: 'عدّل هذه الصفحة',
    previous: 'السابق',
    next: 'التالي',
    skipToContent: 'انتقل إلى المحتوى',
    oldVersionNotice: 'أنت تقرأ توثيق الإصدار {version}، وهو {status}.',
    latestVersion: 'انتقل إلى الإصدار الحالي',
    deprecated: 'مهجور',
    lastUpdated: 'آخر تحديث',
    by: 'بواسطة',
  },
  page: {
    ...base.page,
    title: 'التوجيه',
    group: 'البداية',
    url: '/docs/ar/routing',
    html:
      '<h1 id="routing">التوجيه</h1><p>تُعرَّف المسارات الأساسية في لارافيل في ملفات <code>routes/web.php</code>. يقبل أبسط مسار عنوان URL ودالة، مما يوفر طريقة بسيطة ومعبرة لتعريف السلوك دون ملفات إعداد معقدة.</p>' +
      '<h2 id="basic">المسارات الأساسية</h2><p>يمكنك تعريف مسار بسيط كما يلي:</p>' +
      '<pre class="shiki" style="background-color:#fff;--shiki-dark-bg:#24292e;color:#24292e;--shiki-dark:#e1e4e8"><code><span class="line"><span style="color:#D73A49;--shiki-dark:#F97583">use</span><span> Illuminate\\Support\\Facades\\Route;</span></span>\n<span class="line"><span>Route::get(</span><span style="color:#032F62;--shiki-dark:#9ECBFF">\'/greeting\'</span><span>, fn () =&gt; </span><span style="color:#032F62;--shiki-dark:#9ECBFF">\'Hello World\'</span><span>);</span></span></code></pre>' +
      '<div class="callout callout-tip"><p class="callout-title">نصيحة</p><p>استخدم <code>php artisan route:list</code> لعرض كل المسارات.</p></div>' +
      '<h3 id="methods">طرق الموجّه المتاحة</h3><ul><li><code>Route::get</code></li><li><code>Route::post</code></li></ul>' +
      '<table><thead><tr><th>الطريقة</th><th>الوصف</th></tr></thead><tbody><tr><td><code>get</code></td><td>طلب قراءة</td></tr><tr><td><code>post</code></td><td>إنشاء مورد</td></tr></tbody></table>',
    toc: [
      { depth: 2, text: 'المسارات الأساسية', id: 'basic' },
      { depth: 3, text: 'طرق الموجّه المتاحة', id: 'methods' },
    ],
  },
};

writeFileSync(join(out, 'page.html'), renderReaderPage(base));
writeFileSync(join(out, 'page-dark.html'), renderReaderPage({ ...base, theme: { ...base.theme, mode: 'dark' } }));
writeFileSync(
  join(out, 'page-accent.html'),
  renderReaderPage({ ...base, theme: { accent: '#e11d48', radius: 'sharp', fonts: {}, mode: 'dark' } }),
);
writeFileSync(join(out, 'page-rtl.html'), renderReaderPage(arabic));
writeFileSync(
  join(out, 'page-rtl-dark.html'),
  renderReaderPage({ ...arabic, theme: { ...arabic.theme, mode: 'dark' } }),
);
writeFileSync(join(out, '404.html'), renderNotFoundPage({ ...base, requestedPath: '/docs/13.x/routng' }));
console.log(`wrote ${out}`);
