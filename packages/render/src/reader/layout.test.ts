import { describe, expect, it } from 'vitest';
import { view } from './__fixtures__/view.js';
import { CLIENT_CONFIG_ID, type ReaderClientConfig } from './client-config.js';
import { renderNotFoundPage, renderReaderPage } from './layout.js';

function clientConfig(html: string): ReaderClientConfig {
  const match = new RegExp(`<script type="application/json" id="${CLIENT_CONFIG_ID}">([^<]*)</script>`).exec(html);
  return JSON.parse(match![1]!) as ReaderClientConfig;
}

describe('renderReaderPage', () => {
  const html = renderReaderPage(view());

  it('renders a complete document with language and direction', () => {
    expect(html.startsWith('<!doctype html>\n<html lang="en" dir="ltr">')).toBe(true);
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
    expect(html).toContain('<title>Caching · Acme</title>');
  });

  it('has the landmarks, one main, and a skip link first in the body', () => {
    expect(html).toMatch(/<body>\n<a class="kit-skip-link" href="#kit-content">Skip to content<\/a>/);
    expect(html.match(/<main /g)).toHaveLength(1);
    expect(html).toContain('<main class="kit-main" id="kit-content" tabindex="-1">');
    expect(html).toContain('<header class="kit-header">');
    expect(html).toContain('<footer class="kit-footer">');
    expect(html).toContain('<aside class="kit-sidebar" id="kit-sidebar" aria-label="Documentation">');
    expect(html).toContain('<nav class="kit-nav" aria-label="Documentation">');
    expect(html).toContain('<aside class="kit-toc" aria-labelledby="kit-toc-title">');
  });

  it('labels every icon-only control', () => {
    expect(html).toMatch(/<button type="button" class="kit-icon-button kit-menu-button"[^>]*aria-label="Menu"/);
    expect(html).toMatch(/data-kit-color-mode[^>]*aria-label="Color mode: System"/);
    expect(html).toMatch(
      /<a class="kit-icon-button kit-repo-link" href="https:\/\/github.com\/acme\/acme"[^>]*aria-label="Source repository"/,
    );
    expect(html).toContain('<label for="kit-feedback-comment">');
    expect(html).toContain('<label id="kit-search-label" for="kit-search-input"');
  });

  it('links the Markdown twin, llms.txt, the canonical URL and the description in the head', () => {
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain('<link rel="alternate" type="text/markdown" href="/docs/advanced/caching.md">');
    expect(head).toContain('<link rel="describedby" type="text/plain" href="/docs/llms.txt">');
    expect(head).toContain('<link rel="canonical" href="https://acme.test/docs/advanced/caching">');
    expect(head).toContain('<meta name="description" content="Cache things.">');
  });

  it('names llms.txt near the top of the body, hidden from people and out of the tab order', () => {
    const body = html.slice(html.indexOf('<body>'));
    const directive = /<p class="kit-sr-only kit-agent-directive" aria-hidden="true">([\s\S]*?)<\/p>/.exec(body);
    expect(directive?.[1]).toBe(
      'For AI agents: the index of these docs is at <a href="/docs/llms.txt" tabindex="-1">/docs/llms.txt</a>; every page is also served as Markdown at its URL with .md added.',
    );
    // After the skip link, before the header, the sidebar and the article.
    expect(body.indexOf('kit-skip-link')).toBeLessThan(directive!.index);
    expect(directive!.index).toBeLessThan(body.indexOf('<header class="kit-header">'));
    expect(renderReaderPage({ ...view(), llmsTxtUrl: undefined })).not.toContain('kit-agent-directive');
  });

  it('names the search button even when its visible label is hidden on narrow screens', () => {
    expect(html).toMatch(/<button type="button" class="kit-search-button"[^>]*aria-label="Search"/);
    const arabic = renderReaderPage({ ...view(), lang: 'ar', dir: 'rtl', strings: { search: 'بحث' } });
    expect(arabic).toMatch(/<button type="button" class="kit-search-button"[^>]*aria-label="بحث"/);
  });

  it('links an inline default icon when the manifest sets no favicon, so browsers do not ask for /favicon.ico', () => {
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head.match(/<link rel="icon" href="data:image\/svg\+xml,[^"]+">/g)).toHaveLength(1);
    const own = renderReaderPage(view({ favicon: '/docs/_kit/assets/icon.png' }));
    expect(own).toContain('<link rel="icon" href="/docs/_kit/assets/icon.png">');
    expect(own).not.toContain('data:image/svg+xml');
    const { page: _page, ...site } = view();
    const notFound = renderNotFoundPage({ ...site, requestedPath: '/docs/missing' });
    expect(notFound).toMatch(/<link rel="icon" href="data:image\/svg\+xml,/);
  });

  it('applies the color mode in the head before the stylesheet loads', () => {
    const head = html.slice(0, html.indexOf('</head>'));
    const script = head.indexOf('localStorage.getItem("kit:color-mode")');
    expect(script).toBeGreaterThan(0);
    expect(script).toBeLessThan(head.indexOf('<link rel="stylesheet" href="/docs/_kit/reader.abc.css">'));
    expect(head).toContain('<script type="module" src="/docs/_kit/reader.abc.js"></script>');
  });

  it('links the set stylesheets after its own stylesheet', () => {
    const page = renderReaderPage(view({ stylesheets: ['/docs/_kit/assets/brand.1234.css'] }));
    expect(page.indexOf('/docs/_kit/assets/brand.1234.css')).toBeGreaterThan(page.indexOf('/docs/_kit/reader.abc.css'));
  });

  it('puts a fixed theme mode on the html element and leaves system mode to the script', () => {
    expect(renderReaderPage(view({ theme: { radius: 'soft', fonts: {}, mode: 'dark' } }))).toContain(
      '<html lang="en" dir="ltr" data-mode="dark">',
    );
    expect(html).not.toMatch(/<html[^>]*data-mode/);
  });

  it('renders a right-to-left page with dir="rtl"', () => {
    const rtl = renderReaderPage(view({ lang: 'ar', dir: 'rtl', currentLocale: 'ar' }));
    expect(rtl).toContain('<html lang="ar" dir="rtl">');
    // The hidden "Language: " prefix is English on an Arabic page, so it carries its own language.
    expect(rtl).toContain(
      '<summary id="kit-locale-header"><span class="kit-sr-only"><span lang="en" dir="ltr">Language</span>: </span>',
    );
  });

  it('names the switchers and the search close button by their visible text, not an aria-label', () => {
    const old = renderReaderPage(view({ currentVersion: '1.x' }));
    const summary = /<summary id="kit-version-header">(.*?)<\/summary>/.exec(old)![1]!;
    // The badge is part of the name: an aria-label of "Version: 1.x" would hide the visible "Deprecated".
    expect(summary.replace(/<[^>]+>/g, '')).toBe('Version: 1.xDeprecated');
    expect(old).toContain('<summary id="kit-locale-header"><span class="kit-sr-only">Language: </span>');
    expect(old).toContain(
      '<button type="button" class="kit-search-close" data-kit-search-close><span class="kit-sr-only">Close </span><kbd class="kit-kbd">Esc</kbd></button>',
    );
    expect(old).not.toMatch(/<summary[^>]*aria-label/);
  });

  it('shows warning badges for deprecated and archived versions only', () => {
    const menu = /<ul class="kit-switcher-menu" aria-labelledby="kit-version-header">(.*?)<\/ul>/.exec(html)![1]!;
    const items = menu.split('</li>');
    expect(items[0]).not.toContain('kit-badge');
    expect(items[1]).not.toContain('kit-badge');
    expect(items[2]).toContain('kit-badge-warning');
    expect(items[2]).toContain('Deprecated');
    expect(items[3]).toContain('Archived');
  });

  it('links each version to the URL the view gives for the same page', () => {
    expect(html).toContain('<a href="/docs/2.x/advanced/caching"><bdi>2.x</bdi>');
    expect(html).toContain('<a href="/docs/1.x"><bdi>1.x</bdi>');
    expect(html).toContain('<a href="/docs/advanced/caching" aria-current="true"><bdi>3.x</bdi>');
  });

  it('warns on a deprecated version and links the default version', () => {
    const old = renderReaderPage(view({ currentVersion: '1.x' }));
    expect(old).toContain('class="kit-version-notice" role="note"');
    expect(old).toMatch(/which is deprecated\. <a href="\/docs\/advanced\/caching">Go to the current version<\/a>/);
    expect(html).not.toContain('kit-version-notice');
  });

  it('hides the switchers when there is only one version or locale', () => {
    const single = renderReaderPage(view({ versions: [], locales: [] }));
    expect(single).not.toContain('kit-version-switcher');
    expect(single).not.toContain('kit-locale-switcher');
    const one = renderReaderPage(
      view({
        versions: [{ id: 'current', label: 'current', status: 'current', url: '/docs' }],
        locales: [{ code: 'en', label: 'English', dir: 'ltr', url: '/docs' }],
      }),
    );
    expect(one).not.toContain('data-kit-switcher');
  });

  it('leaves out what is switched off: feedback, search, credit, edit link, provenance, previous/next', () => {
    const bare = renderReaderPage(
      view(
        { feedback: { enabled: false }, search: null, footer: { links: [], credit: false } },
        { editUrl: undefined, provenance: null, prev: undefined, next: undefined },
      ),
    );
    expect(bare).not.toContain('data-kit-feedback');
    expect(bare).not.toContain('kit-search-dialog');
    expect(bare).not.toContain('data-kit-search-open');
    expect(bare).not.toContain('kit-credit');
    expect(bare).not.toContain('kit-edit-link');
    expect(bare).not.toContain('kit-provenance');
    expect(bare).not.toContain('kit-pager');
    expect(clientConfig(bare).feedbackEndpoint).toBeNull();
    expect(clientConfig(bare).search).toBeNull();
  });

  it('shows the repository as an icon and leaves the same link out of the navbar', () => {
    const navbar = /<nav class="kit-navbar"[^>]*>(.*?)<\/nav>/.exec(html)![1]!;
    expect(navbar).toContain('Blog');
    expect(navbar).not.toContain('github.com/acme/acme');
    expect(html).toContain('<a href="https://acme.test/signup" rel="noopener noreferrer" class="kit-cta">Sign up</a>');
  });

  it('leaves out links whose target is not http, https, mailto or a site path', () => {
    const unsafe = renderReaderPage(
      view({
        navbar: {
          links: [{ label: 'Evil', href: 'javascript:alert(1)' }],
          cta: { label: 'Data', href: 'data:text/html,x' },
        },
        footer: {
          links: [
            { label: 'Mail', href: 'mailto:docs@acme.test' },
            { label: 'Bad', href: ' JaVaScRiPt:alert(1)' },
          ],
          credit: false,
        },
      }),
    );
    expect(unsafe).not.toMatch(/javascript:/i);
    expect(unsafe).not.toContain('data:text/html');
    expect(unsafe).toContain('href="mailto:docs@acme.test"');
  });

  it('escapes titles, labels and descriptions', () => {
    const hostile = renderReaderPage(
      view(
        { name: '<script>alert(1)</script>' },
        { title: '"><img src=x onerror=alert(1)>', description: '"/><script>x</script>' },
      ),
    );
    expect(hostile).not.toContain('<script>alert(1)</script>');
    expect(hostile).not.toContain('<img src=x');
    expect(hostile).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('marks the active page and opens the nested group that holds it', () => {
    expect(html).toContain(
      '<a class="kit-nav-link" href="/docs/advanced/caching" data-path="advanced/caching" aria-current="page">',
    );
    expect(html).toMatch(/<details class="kit-nav-group" open><summary>.*?<span>Advanced<\/span>/);
    expect(html).toMatch(/<details class="kit-nav-group"><summary>.*?<span>Closed<\/span>/);
    expect(html).toMatch(/href="https:\/\/api.acme.test" rel="noopener noreferrer">API reference/);
  });

  it('renders tabs with the active one marked', () => {
    const tabbed = renderReaderPage(
      view({
        sidebar: {
          tabs: [
            { label: 'Guides', url: '/docs', active: true },
            { label: 'API', url: '/docs/api', active: false },
          ],
          groups: [],
        },
      }),
    );
    expect(tabbed).toContain(
      '<ul class="kit-nav-tabs"><li><a href="/docs" aria-current="true">Guides</a></li><li><a href="/docs/api">API</a></li></ul>',
    );
  });

  it('dots pages changed within fresh_days and carries their dates for the script', () => {
    const routing = /<a class="kit-nav-link" href="\/docs\/routing"[^>]*>.*?<\/a>/.exec(html)![0];
    expect(routing).toContain('data-updated="2026-03-10T06:00:00Z"');
    expect(routing).toContain('kit-fresh-dot');
    const old = /<a class="kit-nav-link" href="\/docs\/old"[^>]*>.*?<\/a>/.exec(html)![0];
    expect(old).toContain('data-updated=');
    expect(old).not.toContain('kit-fresh-dot');
  });

  it('shows no dots when most pages of the sidebar changed within fresh_days (a fresh clone)', () => {
    const page = (path: string, updatedAt: string) => ({
      kind: 'page' as const,
      title: path,
      path,
      url: `/docs/${path}`,
      updatedAt,
    });
    const cloned = renderReaderPage(
      view({
        sidebar: {
          groups: [
            {
              label: 'Guide',
              items: [
                page('a', '2026-03-10T06:00:00Z'),
                page('b', '2026-03-10T05:00:00Z'),
                page('c', '2026-01-01T00:00:00Z'),
              ],
            },
          ],
        },
      }),
    );
    expect(cloned).not.toContain('kit-fresh-dot');
    expect(cloned).not.toContain('data-updated');
  });

  it('offers page actions: copy (for the script), the Markdown twin, assistants and editor installs', () => {
    const actions = {
      markdownUrl: 'https://acme.test/docs/advanced/caching.md',
      copy: true,
      markdown: true,
      assistants: ['chatgpt', 'claude'] as Array<'chatgpt' | 'claude'>,
      mcp: { name: 'docs', url: 'https://acme.test/docs/mcp' },
    };
    const page = renderReaderPage(view({}, { actions }));
    const menu = /<nav class="kit-page-actions[^"]*" aria-label="[^"]*" data-kit-page-actions>.*?<\/nav>/.exec(
      page,
    )![0];
    expect(menu).toContain('data-kit-copy-page="https://acme.test/docs/advanced/caching.md"');
    expect(menu).toMatch(/<button type="button" class="kit-page-copy"[^>]* hidden>/);
    expect(menu).toContain('<a href="https://acme.test/docs/advanced/caching.md">');
    const prompt = encodeURIComponent(
      'Read https://acme.test/docs/advanced/caching.md so I can ask questions about it.',
    );
    expect(menu).toContain(
      `href="https://chatgpt.com/?hints=search&amp;q=${prompt}" target="_blank" rel="noopener noreferrer"`,
    );
    expect(menu).toContain(`href="https://claude.ai/new?q=${prompt}"`);
    const cursor = /href="(cursor:[^"]+)"/.exec(menu)![1]!.replace(/&amp;/g, '&');
    const config = new URL(cursor.replace('cursor://', 'https://')).searchParams.get('config')!;
    expect(JSON.parse(Buffer.from(config, 'base64').toString('utf8'))).toEqual({ url: 'https://acme.test/docs/mcp' });
    const vscode = /href="(vscode:mcp\/install\?[^"]+)"/.exec(menu)![1]!;
    expect(JSON.parse(decodeURIComponent(vscode.slice('vscode:mcp/install?'.length)))).toEqual({
      name: 'docs',
      type: 'http',
      url: 'https://acme.test/docs/mcp',
    });
    expect(menu).toContain('data-kit-copy-text="claude mcp add --transport http docs https://acme.test/docs/mcp"');
    // The actions sit in the page header, after the title.
    expect(page.indexOf('kit-page-title')).toBeLessThan(page.indexOf('data-kit-page-actions'));
    // A page that writes its own `# Title` gets them right after it.
    const own = renderReaderPage(view({}, { actions, html: '<h1 id="caching">Caching</h1><p>Intro.</p>' }));
    expect(own).toMatch(/<h1 id="caching">Caching<\/h1><nav class="kit-page-actions/);
  });

  it('leaves out what a page cannot offer, and the whole menu when nothing is left', () => {
    const base = { markdownUrl: 'https://acme.test/docs/x.md', copy: false, markdown: true, assistants: [] };
    const page = renderReaderPage(view({}, { actions: base }));
    expect(page).toContain('View as Markdown');
    expect(page).not.toContain('chatgpt.com');
    expect(page).not.toContain('cursor:');
    expect(page).not.toContain('data-kit-copy-page');
    expect(renderReaderPage(view())).not.toContain('data-kit-page-actions');
  });

  it('shows no dots and no dates when fresh_days is 0', () => {
    const off = renderReaderPage(view({ freshDays: 0 }));
    expect(off).not.toContain('kit-fresh-dot');
    expect(off).not.toContain('data-updated');
  });

  it('places each insert point where it belongs', () => {
    const inserted = renderReaderPage(
      view({
        inserts: {
          'header.actions': '<i>HA</i>',
          'sidebar.before': '<i>SB</i>',
          'sidebar.after': '<i>SA</i>',
          'article.before': '<i>AB</i>',
          'article.after': '<i>AA</i>',
          'toc.after': '<i>TA</i>',
          footer: '<i>FO</i>',
        },
      }),
    );
    const at = (marker: string) => inserted.indexOf(`<i>${marker}</i>`);
    expect(at('HA')).toBeGreaterThan(inserted.indexOf('<header class="kit-header">'));
    expect(at('HA')).toBeLessThan(inserted.indexOf('</header>'));
    expect(at('SB')).toBeLessThan(inserted.indexOf('<nav class="kit-nav"'));
    expect(at('SA')).toBeGreaterThan(inserted.indexOf('<nav class="kit-nav"'));
    // The sidebar follows the content in the document; the stylesheet's grid shows it first.
    expect(at('SA')).toBeGreaterThan(inserted.indexOf('</main>'));
    expect(inserted.indexOf('<main')).toBeLessThan(inserted.indexOf('<aside class="kit-sidebar"'));
    expect(at('AB')).toBeLessThan(inserted.indexOf('<div class="kit-prose">'));
    expect(at('AB')).toBeGreaterThan(inserted.indexOf('<article'));
    expect(at('AA')).toBeGreaterThan(inserted.indexOf('<div class="kit-prose">'));
    expect(at('AA')).toBeLessThan(inserted.indexOf('</article>'));
    expect(at('TA')).toBeGreaterThan(inserted.indexOf('<aside class="kit-toc"'));
    expect(at('FO')).toBeGreaterThan(inserted.indexOf('<footer class="kit-footer">'));
    expect(inserted).toContain('data-insert="toc.after"');
  });

  it('renders the table of contents for depths 2 and 3 and an anchor link on each heading', () => {
    expect(html).toContain('<li class="kit-toc-depth-2"><a href="#drivers" data-kit-toc-link>Drivers</a></li>');
    expect(html).toContain('<li class="kit-toc-depth-3"><a href="#redis" data-kit-toc-link>Redis</a></li>');
    expect(html).toContain(
      '<h2 id="drivers">Drivers<a class="kit-anchor" href="#drivers" aria-label="Link to “Drivers”"></a></h2>',
    );
    expect(html).toContain('<div class="kit-code"><pre tabindex="0"><code>x</code></pre></div>');
  });

  it('marks the article for a swap to highlighted code only when its code was sent plain', () => {
    expect(html).toContain('<div class="kit-prose">');
    expect(renderReaderPage(view({}, { highlightPending: true }))).toContain(
      '<div class="kit-prose" data-kit-highlight-pending>',
    );
  });

  it('uses its own title heading only when the article has no h1', () => {
    expect(html).toContain('<h1 class="kit-page-title">Caching</h1>');
    const own = renderReaderPage(view({}, { html: '<h1 id="caching">Caching</h1><p>x</p>' }));
    expect(own).not.toContain('kit-page-title');
    expect(own).toMatch(/<h1 id="caching">Caching<\/h1><details class="kit-toc-inline">/);
  });

  it('shows provenance with date, author and a commit link', () => {
    expect(html).toContain(
      'Last updated <time datetime="2026-03-01T09:00:00Z">Mar 1, 2026</time> by <span class="kit-author">Ada</span>',
    );
    expect(html).toContain(
      '<a class="kit-commit" href="https://github.com/acme/acme/commit/0123456789abcdef" rel="noopener noreferrer"><code>0123456</code></a>',
    );
    expect(html).toContain('href="https://github.com/acme/acme/edit/main/docs/advanced/caching.md"');
  });

  it('renders the feedback widget with a 2000-character comment box', () => {
    expect(html).toContain('<h2 class="kit-feedback-title" id="kit-feedback-title">Was this page helpful?</h2>');
    expect(html).toContain('<textarea id="kit-feedback-comment" name="comment" rows="3" maxlength="2000"></textarea>');
    expect(html).toContain('<p class="kit-feedback-status" role="status" aria-live="polite" tabindex="-1"></p>');
  });

  it('hands the script its settings as JSON that cannot close the script element', () => {
    const page = renderReaderPage(view({ set: 'a</script><script>alert(1)</script>' }));
    expect(page).not.toContain('</script><script>alert(1)');
    const config = clientConfig(page);
    expect(config.set).toBe('a</script><script>alert(1)</script>');
    expect(clientConfig(html)).toMatchObject({
      version: '3.x',
      locale: 'en',
      path: 'advanced/caching',
      freshDays: 1,
      feedbackEndpoint: '/docs/_kit/feedback',
      search: { driver: 'server', clientIndexUrl: null, serverSearchUrl: '/docs/_kit/search' },
    });
  });

  it('loads the script and stylesheet from ui.dev_server when it is set', () => {
    const dev = renderReaderPage(view({ assets: { js: '/a.js', css: '/a.css', devServer: 'http://127.0.0.1:5174/' } }));
    expect(dev).toContain('<link rel="stylesheet" href="http://127.0.0.1:5174/reader.css">');
    expect(dev).toContain('<script type="module" src="http://127.0.0.1:5174/reader.js"></script>');
    expect(dev).toContain('new EventSource("http://127.0.0.1:5174/esbuild")');
    expect(dev).not.toContain('/a.js');
    const ignored = renderReaderPage(
      view({ assets: { js: '/a.js', css: '/a.css', devServer: 'javascript:alert(1)' } }),
    );
    expect(ignored).toContain('<script type="module" src="/a.js"></script>');
  });

  it('puts the CSP nonce on every inline script and style', () => {
    const page = renderReaderPage(view({ cspNonce: 'r4nd0m' }));
    const inline = [...page.matchAll(/<(script|style)(?![^>]*\bsrc=)(?![^>]*type="application\/json")[^>]*>/g)].map(
      (m) => m[0],
    );
    expect(inline.length).toBeGreaterThanOrEqual(2);
    for (const tag of inline) expect(tag).toContain('nonce="r4nd0m"');
  });

  it('places the analytics tags in the head', () => {
    const page = renderReaderPage(
      view({ analytics: '<script defer data-site="ABCDEFGH" src="https://cdn.usefathom.com/script.js"></script>' }),
    );
    expect(page.indexOf('cdn.usefathom.com')).toBeLessThan(page.indexOf('</head>'));
  });

  it('shows the light and dark logos', () => {
    expect(html).toContain('<img class="kit-logo kit-logo-light" src="/logo.svg" alt="" height="28">');
    expect(html).toContain('<img class="kit-logo kit-logo-dark" src="/logo-dark.svg" alt="" height="28">');
  });
});

describe('renderNotFoundPage', () => {
  const { page: _page, ...site } = view();
  const html = renderNotFoundPage({ ...site, requestedPath: '/docs/<missing>' });

  it('is a real page with the site chrome, a message, search and a link home', () => {
    expect(html).toContain('<title>Page not found · Acme</title>');
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toContain('<h1>Page not found</h1>');
    expect(html).toContain('<code>/docs/&lt;missing&gt;</code>');
    // A plain GET form: it searches without the script too (the script opens the dialog instead).
    expect(html).toContain(
      '<form class="kit-notfound-search" role="search" method="get" action="/docs/_kit/search" data-kit-search-form>',
    );
    expect(html).toContain('<input type="hidden" name="version" value="3.x">');
    expect(html).toMatch(/<a class="kit-button" href="\/docs">.*Go to the home page<\/a>/);
    expect(html).toContain('<nav class="kit-nav"');
    expect(html).not.toContain('aria-current="page"');
    expect(clientConfig(html).path).toBeNull();
  });

  it('carries the key hints of the search dialog in its footer', () => {
    const page = renderReaderPage(view());
    expect(page).toMatch(
      /<footer class="kit-search-footer" aria-hidden="true">.*to move.*to open.*to close<\/span><\/footer>/,
    );
  });

  it('has no search box when the set has no search', () => {
    const none = renderNotFoundPage({ ...site, search: null });
    expect(none).not.toContain('kit-notfound-search');
    expect(none).toContain('Go to the home page');
  });
});

describe('interface strings in another language than the page', () => {
  const arabic = { ...view(), lang: 'ar', dir: 'rtl' as const };

  it('isolates the English defaults on an Arabic page, and writes its own translations plainly', () => {
    const html = renderReaderPage({ ...arabic, strings: { helpfulQuestion: 'هل كانت هذه الصفحة مفيدة؟' } });
    expect(html).toContain('<h2 class="kit-feedback-title" id="kit-feedback-title">هل كانت هذه الصفحة مفيدة؟</h2>');
    expect(html).toContain('<span lang="en" dir="ltr">On this page</span>');
    expect(clientConfig(html).stringLanguages?.searchNoResults).toEqual({ lang: 'en', dir: 'ltr' });
  });

  it('isolates the derived "Overview" group and English callout titles on an Arabic page', () => {
    const sidebar = { groups: [{ label: 'Overview', items: view().sidebar.groups[0]!.items }] };
    const html =
      '<p>مرحبا</p><div class="callout callout-note" data-callout="note"><p class="callout-title">Note</p><p>نص</p></div>';
    const page = renderReaderPage({ ...arabic, sidebar, page: { ...arabic.page, html } });
    expect(page).toContain('id="kit-nav-0"><span lang="en" dir="ltr">Overview</span></h2>');
    expect(page).toContain('<p class="callout-title"><span lang="en" dir="ltr">Note</span></p>');
    const english = renderReaderPage({ ...view(), sidebar, page: { ...view().page, html } });
    expect(english).toContain('id="kit-nav-0">Overview</h2>');
    expect(english).toContain('<p class="callout-title">Note</p>');
  });

  it('marks a site’s own strings with stringsLang when they are not in the page’s language', () => {
    const html = renderReaderPage({ ...view(), strings: { onThisPage: 'في هذه الصفحة' }, stringsLang: 'ar' });
    expect(html).toContain('<span lang="ar" dir="rtl">في هذه الصفحة</span>');
    expect(html).toContain('<h2 class="kit-feedback-title" id="kit-feedback-title">Was this page helpful?</h2>');
  });
});
