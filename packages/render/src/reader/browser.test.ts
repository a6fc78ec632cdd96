import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRenderer } from '../render/renderer.js';
import { laravelContext, pageFromText } from '../testing/laravel-corpus.js';
import { view } from './__fixtures__/view.js';
import { readerAssets } from './assets.js';
import { enhanceArticleHtml } from './article.js';
import { renderNotFoundPage, renderReaderPage } from './layout.js';
import { renderNavPage } from './layout-nav-page.js';
import type { ReaderPageView } from './types.js';

const chromiumPath = process.env.KIT_TEST_CHROMIUM;
const ORIGIN = 'http://kit.test';
const CACHING_MARKDOWN = '# Caching\n\nCache things with `Cache::put()`.\n';

describe.skipIf(!chromiumPath)('reader page in a real browser', () => {
  let browser: Browser;
  let js: string;
  let chunks: Map<string, string>;
  let css: string;
  let axeSource: string;

  beforeAll(async () => {
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    const assets = await readerAssets();
    js = assets.js.body;
    chunks = new Map(assets.chunks.map((chunk) => [`/_kit/${chunk.name}`, chunk.body]));
    css = assets.css.body;
    axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  });

  afterAll(async () => {
    await browser?.close();
  });

  /** A page whose requests to kit.test are answered in-process: documents, assets, search, feedback. */
  async function open(
    pages: Record<string, string>,
    options: {
      width?: number;
      path?: string;
      colorScheme?: 'light' | 'dark';
      origin?: string;
      /** Answers the navigation JSON (`…/_kit/nav/….json`) by its query. */
      nav?: (url: URL) => unknown;
    } = {},
  ): Promise<{ page: Page; errors: string[]; feedback: unknown[]; searches: URL[] }> {
    const context = await browser.newContext({
      viewport: { width: options.width ?? 1280, height: 900 },
      colorScheme: options.colorScheme ?? 'light',
    });
    const page = await context.newPage();
    const errors: string[] = [];
    const feedback: unknown[] = [];
    const searches: URL[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const origin = options.origin ?? ORIGIN;
    await page.route(`${origin}/**`, async (route) => {
      const url = new URL(route.request().url());
      if (url.pathname === '/_kit/reader.js') return route.fulfill({ body: js, contentType: 'text/javascript' });
      const chunk = chunks.get(url.pathname);
      if (chunk !== undefined) return route.fulfill({ body: chunk, contentType: 'text/javascript' });
      if (url.pathname === '/_kit/reader.css') return route.fulfill({ body: css, contentType: 'text/css' });
      if (url.pathname === '/docs/_kit/search') {
        searches.push(url);
        return route.fulfill({
          contentType: 'application/json',
          body: JSON.stringify({
            set: 'docs',
            version: '3.x',
            query: url.searchParams.get('q'),
            results: [
              {
                title: 'Routing',
                path: 'routing',
                url: '/docs/routing#basics',
                markdown_url: '/docs/routing.md',
                heading: 'Basics',
                snippet: 'Define a route with Route::get.',
                description: null,
                score: 2,
              },
              {
                title: 'Caching',
                path: 'advanced/caching',
                url: '/docs/advanced/caching',
                markdown_url: '/docs/advanced/caching.md',
                heading: null,
                snippet: 'Route caching speeds things up.',
                description: null,
                score: 1,
              },
            ],
          }),
        });
      }
      if (options.nav && url.pathname.startsWith('/docs/_kit/nav/') && url.pathname.endsWith('.json')) {
        return route.fulfill({ contentType: 'application/json', body: JSON.stringify(options.nav(url)) });
      }
      if (url.pathname === '/docs/_kit/feedback') {
        feedback.push(route.request().postDataJSON());
        return route.fulfill({ status: 204, body: '' });
      }
      if (url.pathname === '/docs/advanced/caching.md') {
        return route.fulfill({ body: CACHING_MARKDOWN, contentType: 'text/markdown; charset=utf-8' });
      }
      const body = pages[url.pathname];
      if (body) return route.fulfill({ body, contentType: 'text/html; charset=utf-8' });
      return route.fulfill({ status: 404, body: 'not found' });
    });
    await page.goto(`${origin}${options.path ?? '/docs/advanced/caching'}`);
    return { page, errors, feedback, searches };
  }

  function pageView(
    overrides: Partial<ReaderPageView> = {},
    page: Partial<ReaderPageView['page']> = {},
  ): ReaderPageView {
    return view(
      {
        assets: { js: '/_kit/reader.js', css: '/_kit/reader.css' },
        now: new Date().toISOString(),
        ...overrides,
      },
      {
        html:
          '<p>Intro with <a href="/docs/routing">a link</a>.</p><h2 id="drivers">Drivers</h2><p>Text.</p>' +
          '<div class="callout callout-warning" data-callout="warning"><p class="callout-title">Warning</p><p>Careful.</p></div>' +
          '<pre class="shiki" style="background-color:#fff;--shiki-dark-bg:#24292e;color:#24292e;--shiki-dark:#e1e4e8"><code><span class="line"><span style="color:#D73A49;--shiki-dark:#F97583">echo</span><span> hi</span></span></code></pre>' +
          '<table><thead><tr><th>Driver</th><th>Speed</th></tr></thead><tbody><tr><td>redis</td><td>fast</td></tr></tbody></table>' +
          `<h3 id="redis">Redis</h3>${'<p>Filler paragraph to make the page scroll.</p>'.repeat(40)}`,
        actions: {
          markdownUrl: `${ORIGIN}/docs/advanced/caching.md`,
          copy: true,
          markdown: true,
          assistants: ['chatgpt', 'claude'],
          mcp: { name: 'docs', url: `${ORIGIN}/docs/mcp` },
        },
        ...page,
      },
    );
  }

  function recent(): string {
    return new Date(Date.now() - 3_600_000).toISOString();
  }

  async function axeViolations(page: Page): Promise<string[]> {
    if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
    const result = await page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: {
            run: (
              context: Document,
              options: unknown,
            ) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }>;
          };
        }
      ).axe;
      return axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    });
    return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }

  it('has no accessibility violations in light mode', async () => {
    const { page, errors } = await open({ '/docs/advanced/caching': renderReaderPage(pageView()) });
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('has no accessibility violations in dark mode and on the 404 page', async () => {
    const { page: _p, ...site } = pageView({ theme: { radius: 'soft', fonts: {}, mode: 'dark' } });
    const { page } = await open({
      '/docs/advanced/caching': renderReaderPage(pageView({ theme: { radius: 'soft', fonts: {}, mode: 'dark' } })),
      '/docs/missing': renderNotFoundPage({ ...site, requestedPath: '/docs/missing' }),
    });
    expect(await page.evaluate(() => document.documentElement.dataset.mode)).toBe('dark');
    expect(await axeViolations(page)).toEqual([]);
    await page.goto(`${ORIGIN}/docs/missing`);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('has no accessibility violations on a deprecated version, nor with the search dialog open on results', async () => {
    // The current version is deprecated, so its switcher shows a badge beside the label.
    const { page, errors } = await open({
      '/docs/advanced/caching': renderReaderPage(pageView({ currentVersion: '1.x' })),
    });
    expect(await axeViolations(page)).toEqual([]);
    // Names hold what the reader sees, so "click 1.x" or "click Esc" works with voice control.
    expect(await page.locator('.kit-header .kit-version-switcher > summary').ariaSnapshot()).toBe(
      '- text: "Version: 1.x Deprecated"',
    );
    // A modal dialog makes the rest of the page inert, so axe sees only the dialog from here on.
    await page.keyboard.press('/');
    await page.keyboard.type('route');
    const options = page.locator('#kit-search-results [role="option"]');
    await expect.poll(() => options.count()).toBe(2);
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.locator('[data-kit-search-close]').ariaSnapshot()).toBe('- button "Close Esc"');
    // Each result is one link that is the option itself: nothing focusable nested inside it.
    expect(await options.first().getAttribute('href')).toBe('/docs/routing#basics');
    expect(await options.locator('a, button, [tabindex]').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('moves through search results with the arrow keys, opens the chosen one with Enter and closes with Escape', async () => {
    const { page } = await open(
      {
        '/docs/advanced/caching': renderReaderPage(pageView()),
        '/docs/routing': renderReaderPage(pageView({}, { path: 'routing', url: '/docs/routing', title: 'Routing' })),
      },
      { path: '/docs/routing' },
    );
    // Each step waits up to ten seconds: under a full test run Chromium may answer a key late.
    const SLOW = { timeout: 10_000 };
    const dialog = page.locator('#kit-search');
    const input = page.locator('#kit-search-input');
    const options = page.locator('#kit-search-results [role="option"]');
    await page.keyboard.press('/');
    // Typing starts once the dialog has the focus, as a reader's would: a loaded machine opens it late.
    await expect.poll(() => input.evaluate((element) => element === document.activeElement), SLOW).toBe(true);
    // One input event: keys typed slowly would each start a search, and results of 'rou' showing
    // before those of 'route' reset the choice when the latter arrive (a new query starts at the top).
    await input.fill('route');
    await expect.poll(() => options.count(), SLOW).toBe(2);
    const selected = () => page.locator('#kit-search-results [aria-selected="true"]').getAttribute('href');
    await expect.poll(selected, SLOW).toBe('/docs/routing#basics');
    await page.keyboard.press('ArrowDown');
    expect(await selected()).toBe('/docs/advanced/caching');
    expect(await input.getAttribute('aria-activedescendant')).toBe(await options.nth(1).getAttribute('id'));
    await page.keyboard.press('ArrowDown');
    expect(await selected()).toBe('/docs/routing#basics');
    await page.keyboard.press('ArrowUp');
    expect(await selected()).toBe('/docs/advanced/caching');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.evaluate((d: HTMLDialogElement) => d.open), SLOW).toBe(false);
    // Closed, the dialog keeps no focus: the next `/` opens search again instead of typing into it.
    // (The dialog's close event, which gives the focus back, comes a task after `open` turns false.)
    await expect.poll(() => input.evaluate((element) => element === document.activeElement), SLOW).toBe(false);
    await page.keyboard.press('/');
    await expect.poll(() => dialog.evaluate((d: HTMLDialogElement) => d.open), SLOW).toBe(true);
    await expect.poll(() => options.count(), SLOW).toBe(2);
    await page.keyboard.press('ArrowDown');
    await expect.poll(selected, SLOW).toBe('/docs/advanced/caching');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${ORIGIN}/docs/advanced/caching`, SLOW);
  });

  it('keeps the focus in search reopened before the close event of its last closing arrives', async () => {
    const { page } = await open({ '/docs/advanced/caching': renderReaderPage(pageView()) });
    await page.keyboard.press('/');
    const input = page.locator('#kit-search-input');
    await expect.poll(() => input.evaluate((element) => element === document.activeElement)).toBe(true);
    // Closing and reopening in one task: the close event, queued by close(), fires after the reopening.
    await page.evaluate(() => {
      (document.getElementById('kit-search') as HTMLDialogElement).close();
      document.body.dispatchEvent(new KeyboardEvent('keydown', { key: '/', bubbles: true, cancelable: true }));
    });
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(await page.locator('#kit-search').evaluate((d: HTMLDialogElement) => d.open)).toBe(true);
    expect(await input.evaluate((element) => element === document.activeElement)).toBe(true);
  });

  it('remembers the color mode choice across pages and applies it before the first paint', async () => {
    const { page } = await open({ '/docs/advanced/caching': renderReaderPage(pageView()) }, { colorScheme: 'dark' });
    const root = page.locator('html');
    await expect.poll(() => root.getAttribute('data-mode')).toBe('dark');
    const toggle = page.locator('.kit-header [data-kit-color-mode]');
    await toggle.click();
    expect(await root.getAttribute('data-mode-choice')).toBe('light');
    expect(await root.getAttribute('data-mode')).toBe('light');
    expect(await toggle.getAttribute('aria-label')).toBe('Color mode: Light');
    // The head script has set the mode by the time the body starts parsing.
    await page.addInitScript(() => {
      document.addEventListener('readystatechange', () => {
        (window as unknown as { modeAtParse?: string | null }).modeAtParse ??=
          document.documentElement.getAttribute('data-mode');
      });
    });
    await page.reload();
    expect(await page.evaluate(() => (window as unknown as { modeAtParse?: string }).modeAtParse)).toBe('light');
    await toggle.click();
    expect(await root.getAttribute('data-mode')).toBe('dark');
  });

  it('opens search with / and Ctrl+K, queries the server with version and locale, and follows a result', async () => {
    const { page, searches } = await open({
      '/docs/advanced/caching': renderReaderPage(pageView()),
      '/docs/routing': renderReaderPage(pageView({}, { path: 'routing', url: '/docs/routing', title: 'Routing' })),
    });
    const dialog = page.locator('#kit-search');
    await page.keyboard.press('/');
    await expect.poll(() => dialog.evaluate((d: HTMLDialogElement) => d.open)).toBe(true);
    await page.keyboard.type('route');
    // Typing is debounced; on a slow machine an early prefix may be asked too, so wait for the full query.
    await expect.poll(() => searches.at(-1)?.searchParams.get('q')).toBe('route');
    expect(Object.fromEntries(searches.at(-1)!.searchParams)).toEqual({ q: 'route', version: '3.x', locale: 'en' });
    await expect.poll(() => page.locator('#kit-search-results [role="option"]').count()).toBe(2);
    expect(await page.locator('#kit-search-results mark').first().textContent()).toBe('route');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.evaluate((d: HTMLDialogElement) => d.open)).toBe(false);
    await page.keyboard.press('Control+k');
    await expect.poll(() => dialog.evaluate((d: HTMLDialogElement) => d.open)).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${ORIGIN}/docs/routing#basics`);
  });

  it('does not open search when / is typed into a field', async () => {
    const { page } = await open({ '/docs/advanced/caching': renderReaderPage(pageView()) });
    await page.locator('[data-helpful="false"]').click();
    await page.locator('#kit-feedback-comment').type('a/b');
    expect(await page.locator('#kit-search').evaluate((d: HTMLDialogElement) => d.open)).toBe(false);
    expect(await page.locator('#kit-feedback-comment').inputValue()).toBe('a/b');
  });

  it('posts feedback as JSON and thanks the reader', async () => {
    const { page, feedback } = await open({ '/docs/advanced/caching': renderReaderPage(pageView()) });
    await page.locator('[data-helpful="false"]').click();
    expect(await page.locator('[data-helpful="false"]').getAttribute('aria-pressed')).toBe('true');
    await page.locator('#kit-feedback-comment').fill('The Redis section is missing an example.');
    await page.locator('.kit-feedback-form button[type="submit"]').click();
    await expect.poll(() => page.locator('.kit-feedback-status').textContent()).toBe('Thanks for your feedback!');
    expect(feedback).toEqual([
      {
        path: 'advanced/caching',
        helpful: false,
        comment: 'The Redis section is missing an example.',
        version: '3.x',
        locale: 'en',
      },
    ]);
    expect(await page.locator('.kit-feedback-form').isHidden()).toBe(true);
    // Focus moves to the thanks message instead of dropping to <body> with the hidden form.
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('kit-feedback-status');
  });

  it('turns the sidebar into a drawer on a phone', async () => {
    const { page } = await open({ '/docs/advanced/caching': renderReaderPage(pageView()) }, { width: 390 });
    const sidebar = page.locator('#kit-sidebar');
    const menu = page.locator('[data-kit-menu]');
    expect(await sidebar.isVisible()).toBe(false);
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => sidebar.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await expect.poll(() => sidebar.isVisible()).toBe(false);
    expect(await page.locator('.kit-toc-inline').isVisible()).toBe(true);
  });

  it('focuses the current page when the drawer opens, keeps Tab inside it and returns focus on close', async () => {
    const { page } = await open({ '/docs/advanced/caching': renderReaderPage(pageView()) }, { width: 375 });
    const menu = page.locator('[data-kit-menu]');
    const focused = () =>
      page.evaluate(() => {
        const active = document.activeElement;
        return {
          inDrawer: !!active?.closest('#kit-sidebar'),
          current: active?.getAttribute('aria-current') ?? null,
          menu: active?.hasAttribute('data-kit-menu') ?? false,
        };
      });
    await menu.click();
    await expect.poll(async () => (await focused()).current).toBe('page');
    const stops = await page.evaluate(
      () =>
        [
          ...document.querySelectorAll<HTMLElement>('#kit-sidebar a[href], #kit-sidebar button, #kit-sidebar summary'),
        ].filter((element) => element.getClientRects().length > 0).length,
    );
    for (let i = 0; i < stops + 2; i++) {
      await page.keyboard.press('Tab');
      expect((await focused()).inDrawer).toBe(true);
    }
    for (let i = 0; i < stops + 2; i++) {
      await page.keyboard.press('Shift+Tab');
      expect((await focused()).inDrawer).toBe(true);
    }
    await page.keyboard.press('Escape');
    expect((await focused()).menu).toBe(true);
    await menu.click();
    await expect.poll(async () => (await focused()).current).toBe('page');
    await page.locator('[data-kit-menu-close]').click();
    expect((await focused()).menu).toBe(true);
  });

  it('mirrors the layout for a right-to-left page', async () => {
    const { page } = await open({
      '/docs/advanced/caching': renderReaderPage(pageView({ lang: 'ar', dir: 'rtl', currentLocale: 'ar' })),
    });
    const sidebar = await page.locator('#kit-sidebar').boundingBox();
    const article = await page.locator('.kit-article').boundingBox();
    expect(sidebar!.x).toBeGreaterThan(article!.x);
    const code = await page.locator('.kit-prose pre').evaluate((pre) => getComputedStyle(pre).direction);
    expect(code).toBe('ltr');
  });

  it('adds a copy button to code blocks and highlights the section being read', async () => {
    const { page } = await open({ '/docs/advanced/caching': renderReaderPage(pageView()) });
    expect(await page.locator('.kit-code .kit-copy').count()).toBe(1);
    expect(await page.locator('.kit-copy').getAttribute('aria-label')).toBe('Copy code');
    await page
      .locator('#redis')
      .evaluate((heading) =>
        window.scrollTo({ top: heading.getBoundingClientRect().top + window.scrollY - 70, behavior: 'instant' }),
      );
    await expect.poll(() => page.locator('[data-kit-toc] a[aria-current="true"]').textContent()).toBe('Redis');
  });

  it('lands a table-of-contents jump one offset below the header and highlights the entry jumped to', async () => {
    const { page } = await open({ '/docs/advanced/caching': renderReaderPage(pageView()) });
    await page.locator('[data-kit-toc] a[href="#redis"]').click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#redis');
    const header = await page.locator('.kit-header').evaluate((h) => h.getBoundingClientRect().height);
    await expect
      .poll(() => page.locator('#redis').evaluate((h) => Math.round(h.getBoundingClientRect().top)), { timeout: 3000 })
      .toBeLessThanOrEqual(Math.round(header + 24));
    expect(await page.locator('#redis').evaluate((h) => h.getBoundingClientRect().top)).toBeGreaterThan(header);
    await expect.poll(() => page.locator('[data-kit-toc] a[aria-current="true"]').textContent()).toBe('Redis');
  });

  it('keeps the active entry of a long table of contents in view inside its box', async () => {
    const sections = Array.from(
      { length: 60 },
      (_, i) => `<h2 id="s${i}">Section ${i}</h2>${'<p>Filler paragraph.</p>'.repeat(4)}`,
    ).join('');
    const toc = Array.from({ length: 60 }, (_, i) => ({ depth: 2 as const, id: `s${i}`, text: `Section ${i}` }));
    const { page } = await open({ '/docs/advanced/caching': renderReaderPage(pageView({}, { html: sections, toc })) });
    await page.evaluate(() => {
      location.hash = 's55';
    });
    const box = page.locator('.kit-toc-inner');
    expect(await box.evaluate((b) => b.scrollHeight > b.clientHeight)).toBe(true);
    // Smooth scrolling over a long page takes a while.
    await expect
      .poll(() => page.locator('[data-kit-toc] a[aria-current="true"]').textContent(), { timeout: 5000 })
      .toBe('Section 55');
    const visible = await page.locator('[data-kit-toc] a[aria-current="true"]').evaluate((link) => {
      const outer = link.closest('.kit-toc-inner')!.getBoundingClientRect();
      const rect = link.getBoundingClientRect();
      return rect.top >= outer.top && rect.bottom <= outer.bottom;
    });
    expect(visible).toBe(true);
  });

  it('lands a plain #fragment on the user-content- heading of a sanitized page, on load and on hashchange', async () => {
    const html =
      `<p>Intro.</p>${'<p>Filler paragraph to make the page scroll.</p>'.repeat(40)}` +
      `<h2 id="user-content-deep-section">Deep section</h2>${'<p>More filler.</p>'.repeat(40)}` +
      `<h2 id="user-content-other">Other</h2>${'<p>More filler.</p>'.repeat(40)}`;
    const { page, errors } = await open(
      { '/docs/advanced/caching': renderReaderPage(pageView({}, { html })) },
      { path: '/docs/advanced/caching#deep-section' },
    );
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#user-content-deep-section');
    expect(await page.evaluate(() => document.querySelector(':target')?.id)).toBe('user-content-deep-section');
    // Smooth scrolling may not have moved yet when the hash changes.
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await page.evaluate(() => {
      location.hash = 'other';
    });
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#user-content-other');
    expect(errors).toEqual([]);
  });

  it('shows a freshness dot until the changed page is opened', async () => {
    const updated = recent();
    const sidebar = view().sidebar;
    const withFresh = {
      sidebar: {
        groups: [
          {
            label: 'Start',
            items: [
              { kind: 'page' as const, title: 'Routing', path: 'routing', url: '/docs/routing', updatedAt: updated },
              {
                kind: 'page' as const,
                title: 'Caching',
                path: 'advanced/caching',
                url: '/docs/advanced/caching',
                updatedAt: '2025-01-01T00:00:00Z',
              },
              { kind: 'page' as const, title: 'Old', path: 'old', url: '/docs/old', updatedAt: '2025-01-01T00:00:00Z' },
            ],
          },
          ...sidebar.groups.slice(1),
        ],
      },
    };
    const { page } = await open({
      '/docs/advanced/caching': renderReaderPage(pageView(withFresh)),
      '/docs/routing': renderReaderPage(
        pageView(withFresh, { path: 'routing', url: '/docs/routing', title: 'Routing' }),
      ),
    });
    const dot = page.locator('.kit-nav a[data-path="routing"] .kit-fresh-dot');
    expect(await dot.count()).toBe(1);
    await page.goto(`${ORIGIN}/docs/routing`);
    expect(await dot.count()).toBe(0);
    await page.goto(`${ORIGIN}/docs/advanced/caching`);
    expect(await dot.count()).toBe(0);
  });

  it('lands a deep link at its heading at once, and scrolls smoothly only for in-page jumps', async () => {
    const { page } = await open(
      { '/docs/advanced/caching': renderReaderPage(pageView()) },
      { path: '/docs/advanced/caching#redis' },
    );
    const header = await page.locator('.kit-header').evaluate((h) => h.getBoundingClientRect().height);
    // Read right after load, with no polling: a smooth scroll would still be near the top.
    const top = await page.locator('#redis').evaluate((h) => h.getBoundingClientRect().top);
    expect(top).toBeGreaterThan(header);
    expect(top).toBeLessThanOrEqual(header + 24);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe('auto');
    await page.locator('[data-kit-toc] a[href="#drivers"]').focus();
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe('smooth');
  });

  it('never animates scrolling for a reader who prefers reduced motion', async () => {
    const { page } = await open({ '/docs/advanced/caching': renderReaderPage(pageView()) });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.locator('[data-kit-toc] a[href="#drivers"]').focus();
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe('auto');
  });

  it('scrolls a long sidebar so the current page shows, without moving the page', async () => {
    const items = Array.from({ length: 80 }, (_, i) => ({
      kind: 'page' as const,
      title: `Page ${i}`,
      path: `p${i}`,
      url: `/docs/p${i}`,
    }));
    const long = { sidebar: { groups: [{ label: 'All', items }] } };
    const { page } = await open(
      { '/docs/p70': renderReaderPage(pageView(long, { path: 'p70', url: '/docs/p70', title: 'Page 70' })) },
      { path: '/docs/p70' },
    );
    const inView = () =>
      page.locator('.kit-nav a[aria-current="page"]').evaluate((link) => {
        const box = link.closest('#kit-sidebar')!.getBoundingClientRect();
        const rect = link.getBoundingClientRect();
        return rect.top >= box.top && rect.bottom <= box.bottom;
      });
    await expect.poll(inView).toBe(true);
    expect(await page.locator('#kit-sidebar').evaluate((s) => s.scrollTop)).toBeGreaterThan(0);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });

  it('loads a collapsed group of a bounded sidebar when it is opened, and the rest of a list from its link', async () => {
    const pages = (prefix: string, count: number, from = 0) =>
      Array.from({ length: count }, (_, i) => ({
        kind: 'page' as const,
        title: `${prefix} ${from + i}`,
        path: `${prefix}/${from + i}`,
        url: `/docs/${prefix}/${from + i}`,
      }));
    const caching = {
      kind: 'page' as const,
      title: 'Caching',
      path: 'advanced/caching',
      url: '/docs/advanced/caching',
    };
    const deeper = { kind: 'group' as const, label: 'Deeper', id: '0.1', items: pages('deep', 3) };
    const groups = [
      { label: 'Start', id: '0', items: [caching, deeper, ...pages('start', 38)] },
      ...Array.from({ length: 7 }, (_, g) => ({
        label: `Part ${g + 1}`,
        id: String(g + 1),
        items: pages(`part${g + 1}`, 45),
      })),
    ];
    const asked: string[] = [];
    const { page, errors } = await open(
      {
        '/docs/advanced/caching': renderReaderPage(pageView({ sidebar: { groups, navUrl: '/docs/_kit/nav/3.x/en' } })),
      },
      {
        nav: (url) => {
          asked.push(url.search);
          const group = url.searchParams.get('group')!;
          const offset = Number(url.searchParams.get('offset'));
          const limit = Number(url.searchParams.get('limit'));
          const items = group === '0.1' ? pages('deep', 3) : pages('part7', Math.min(limit, 45 - offset), offset);
          return { group: { id: group, label: 'x' }, trail: [], items, offset, total: 45, next: null };
        },
      },
    );
    const section = page.locator('.kit-nav-section', { hasText: 'Part 7' });
    expect(await section.locator('a.kit-nav-link').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await section.getByRole('link', { name: 'Show 45 more' }).click();
    await expect.poll(() => section.locator('a.kit-nav-link').count()).toBe(45);
    expect(await section.locator('.kit-nav-more').count()).toBe(0);
    expect(page.url()).toBe(`${ORIGIN}/docs/advanced/caching`);
    const group = page.locator('details[data-kit-nav-group="0.1"]');
    await group.locator('summary').click();
    await expect.poll(() => group.locator('a.kit-nav-link').count()).toBe(3);
    expect(await group.locator('a.kit-nav-link').first().getAttribute('href')).toBe('/docs/deep/0');
    expect(asked).toEqual(['?group=7&offset=0&limit=45', '?group=0.1&offset=0&limit=3']);
    expect(errors).toEqual([]);
    // Without the script the same link leads to the group's navigation page, in the site's frame.
    const { page: _page, ...site } = pageView({ sidebar: { groups, navUrl: '/docs/_kit/nav/3.x/en' } });
    const listing = {
      group: { id: '7', label: 'Part 7' },
      trail: [{ label: '', href: '/docs/_kit/nav/3.x/en' }],
      items: pages('part7', 45),
      offset: 0,
      total: 45,
      next: null,
    };
    await page.route(`${ORIGIN}/docs/_kit/nav/3.x/en?group=7`, (route) =>
      route.fulfill({ body: renderNavPage({ ...site, listing }), contentType: 'text/html; charset=utf-8' }),
    );
    await page.goto(`${ORIGIN}/docs/_kit/nav/3.x/en?group=7`);
    expect(await page.locator('main a.kit-nav-link').count()).toBe(45);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('copies the page as Markdown to the clipboard from the page actions', async () => {
    // The clipboard is for secure origins only, so this page is served over https.
    const secure = 'https://kit.test';
    const actions = { markdownUrl: `${secure}/docs/advanced/caching.md`, copy: true, markdown: true, assistants: [] };
    const { page, errors } = await open(
      { '/docs/advanced/caching': renderReaderPage(pageView({}, { actions })) },
      { origin: secure },
    );
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: secure });
    const copy = page.locator('[data-kit-copy-page]');
    await copy.click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(CACHING_MARKDOWN);
    expect(await copy.textContent()).toBe('Copied');
    expect(await page.locator('[data-kit-actions-status]').textContent()).toBe('Copied');
    await expect.poll(() => copy.textContent(), { timeout: 4000 }).toBe('Copy page');
    expect(errors).toEqual([]);
  });

  it('opens the page actions menu from the keyboard, moves with arrows and closes with Escape', async () => {
    const { page } = await open({ '/docs/advanced/caching': renderReaderPage(pageView()) });
    const menu = page.locator('.kit-page-actions-menu');
    await page.locator('.kit-page-actions-menu > summary').focus();
    await page.keyboard.press('Enter');
    expect(await menu.getAttribute('open')).not.toBeNull();
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('View as Markdown');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => (document.activeElement as HTMLAnchorElement).href)).toContain(
      'https://chatgpt.com/?hints=search&q=Read%20http%3A%2F%2Fkit.test%2Fdocs%2Fadvanced%2Fcaching.md',
    );
    await page.keyboard.press('Escape');
    expect(await menu.getAttribute('open')).toBeNull();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('kit-page-actions');
    expect(await axeViolations(page)).toEqual([]);
  });

  /** Article HTML of Markdown as the renderer writes it, highlighted. */
  async function articleOf(markdown: string): Promise<string> {
    const rendered = await createRenderer().render(pageFromText('guide/code', markdown), {
      ...laravelContext('13.x'),
      highlight: true,
    });
    return rendered.html;
  }

  const TITLED_CODE = "```php title=\"routes/web.php\" {2}\n<?php\nRoute::get('/', fn () => view('welcome'));\n```\n";

  it('shows a code block file title as its figure caption and its language once, and copies only the code', async () => {
    const secure = 'https://kit.test';
    const html = `<h2 id="drivers">Drivers</h2>${await articleOf(TITLED_CODE)}`;
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page, errors } = await open(
        { '/docs/advanced/caching': renderReaderPage(pageView({}, { html })) },
        { origin: secure, colorScheme },
      );
      // The figure is named by the file alone; the language label is read once, before the code.
      const figure = page.getByRole('figure', { name: 'routes/web.php' });
      expect(await figure.count()).toBe(1);
      const snapshot = await figure.ariaSnapshot();
      expect(snapshot.match(/(?<![.?<])\bphp\b/g)?.length, snapshot).toBe(1);
      expect(await figure.locator('.kit-code-lang').isVisible()).toBe(true);
      expect(await figure.locator('pre.shiki .line.highlighted').count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);

      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: secure });
      await figure.locator('.kit-code').hover();
      // The copy button takes the label's corner while it shows.
      await expect
        .poll(() => figure.locator('.kit-code-lang').evaluate((l) => getComputedStyle(l).opacity), { timeout: 10_000 })
        .toBe('0');
      await figure.locator('.kit-copy').click();
      await expect
        .poll(() => page.evaluate(() => navigator.clipboard.readText()), { timeout: 10_000 })
        .toBe("<?php\nRoute::get('/', fn () => view('welcome'));");
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });

  it('keeps a code block title and code left-to-right on a right-to-left page, the label mirrored', async () => {
    const html = enhanceArticleHtml(await articleOf(TITLED_CODE));
    const { page } = await open({
      '/docs/advanced/caching': renderReaderPage(pageView({ lang: 'ar', dir: 'rtl', currentLocale: 'ar' }, { html })),
    });
    const figure = page.locator('figure.kit-code-figure');
    const box = (await figure.boundingBox())!;
    const title = (await figure.locator('.kit-code-title span').boundingBox())!;
    const label = (await figure.locator('.kit-code-lang').boundingBox())!;
    // The caption starts on the right, as the page reads; the label sits at the inline end (left).
    expect(box.x + box.width - (title.x + title.width)).toBeLessThan(40);
    expect(label.x - box.x).toBeLessThan(40);
    expect(await figure.locator('.kit-code-title span').evaluate((s) => getComputedStyle(s).direction)).toBe('ltr');
    expect(await figure.locator('pre').evaluate((pre) => getComputedStyle(pre).direction)).toBe('ltr');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('offers the call to action in the drawer on a phone', async () => {
    const { page } = await open({ '/docs/advanced/caching': renderReaderPage(pageView()) }, { width: 390 });
    expect(await page.locator('.kit-header .kit-cta').isVisible()).toBe(false);
    await page.locator('[data-kit-menu]').click();
    const cta = page.locator('#kit-sidebar .kit-drawer-cta');
    await expect.poll(() => cta.isVisible()).toBe(true);
    expect(await cta.getAttribute('href')).toBe('https://acme.test/signup');
  });
});
