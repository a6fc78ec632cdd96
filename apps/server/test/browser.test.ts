import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { type ServerType, serve } from '@hono/node-server';
import { type KitEvents, resolveConfig } from '@kit/core';
import { createKitApp } from '@kit/http-hono';
import { type LoadedKit, loadKit } from '@kit/node';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceServer } from '../src/server.js';

const chromiumPath = process.env.KIT_TEST_CHROMIUM;
/** Screenshots land at the repository root's git-ignored `test-artifacts/`, which CI keeps. */
const ARTIFACTS = resolve(import.meta.dirname, '../../../test-artifacts');
const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

type FeedbackEvent = Parameters<Parameters<KitEvents['on']>[1]>[0];

/** The environment handed to every server: the shell's KIT_* never leak in. */
function cleanEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('KIT_')) env[key] = value;
  return { ...env, ...extra };
}

/** Serves a fetch handler on a random loopback port and answers its origin. */
async function listen(fetch: (request: Request) => Response | Promise<Response>): Promise<{
  origin: string;
  server: ServerType;
}> {
  return new Promise((done) => {
    const server = serve({ fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) =>
      done({ origin: `http://127.0.0.1:${info.port}`, server }),
    );
  });
}

function close(server: ServerType | undefined): Promise<void> {
  return new Promise((done) => (server ? server.close(() => done()) : done()));
}

/**
 * A small bilingual set (English and Arabic) written to a temporary folder: the Laravel corpus has
 * no Arabic locale, and the right-to-left layout needs a real one served by the same routes.
 */
function writeBilingualSet(root: string): void {
  const files: Record<string, string> = {
    'kit.json': JSON.stringify({ name: 'Handbook', landing: 'index', locales: ['en', 'ar'] }),
    'navigation.json': JSON.stringify({ groups: [{ label: 'Start', pages: ['index', 'setup'] }] }),
    'index.md':
      '---\ntitle: Welcome\ndescription: The handbook home.\n---\n\n# Welcome\n\nRead the setup guide next.\n',
    'setup.md':
      '---\ntitle: Setup\ndescription: Install the tool.\n---\n\n# Setup\n\nInstall it.\n\n## Requirements\n\nNode 20.\n\n```sh\nnpm install handbook\n```\n',
    'ar/navigation.json': JSON.stringify({ groups: [{ label: 'البداية', pages: ['index', 'setup'] }] }),
    'ar/index.md':
      '---\ntitle: مرحبا\ndescription: صفحة الدليل الرئيسية.\n---\n\n# مرحبا\n\nاقرأ دليل الإعداد بعد ذلك.\n',
    'ar/setup.md':
      '---\ntitle: الإعداد\ndescription: ثبّت الأداة.\n---\n\n# الإعداد\n\nثبّت الأداة.\n\n## المتطلبات\n\nالإصدار 20 من Node.\n\n```sh\nnpm install handbook\n```\n',
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
}

describe.skipIf(!chromiumPath)('the reader site in a real browser', () => {
  let browser: Browser;
  let axeSource: string;
  let reference: Awaited<ReturnType<typeof createReferenceServer>>;
  let referenceHttp: { origin: string; server: ServerType };
  let bilingualKit: LoadedKit;
  let bilingualHttp: { origin: string; server: ServerType };
  let bilingualRoot: string;
  const feedback: FeedbackEvent[] = [];
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: chromiumPath, args: LAUNCH_ARGS });

    reference = await createReferenceServer({ env: cleanEnv({ KIT_LARAVEL: '1' }) });
    reference.kit.events.on('FeedbackSubmitted', (event) => void feedback.push(event));
    referenceHttp = await listen(reference.app.fetch);

    bilingualRoot = mkdtempSync(join(tmpdir(), 'kit-rtl-'));
    writeBilingualSet(bilingualRoot);
    const env = cleanEnv();
    bilingualKit = await loadKit({
      config: resolveConfig(
        { sets: { handbook: { route: { prefix: 'handbook' }, source: { driver: 'repository', path: '.' } } } },
        { env, root: bilingualRoot },
      ),
      git: false,
    });
    bilingualHttp = await listen(createKitApp({ kit: bilingualKit }).fetch);

    // The first request builds the reader assets and the Laravel set's first render: do it here,
    // under the generous hook timeout, rather than inside a test.
    // The first search builds the set's index for that version.
    for (const path of [
      '/docs',
      '/laravel',
      '/laravel/routing',
      '/laravel/_kit/search?q=route&version=13.x&locale=en',
    ]) {
      expect((await fetch(referenceHttp.origin + path)).status).toBe(200);
    }
    expect((await fetch(`${bilingualHttp.origin}/handbook`)).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await close(referenceHttp?.server);
    await close(bilingualHttp?.server);
    await reference?.close();
    await bilingualKit?.close();
    if (bilingualRoot) rmSync(bilingualRoot, { recursive: true, force: true });
  });

  async function open(
    url: string,
    options: { colorScheme?: 'light' | 'dark'; javaScriptEnabled?: boolean } = {},
  ): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      colorScheme: options.colorScheme ?? 'light',
      javaScriptEnabled: options.javaScriptEnabled ?? true,
    });
    contexts.push(context);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // Script errors, and any page, asset or API request the site answers with an error. (Chromium's
    // own /favicon.ico probe is not a page request and does not show up here.)
    page.on('response', (response) => {
      if (response.status() >= 400) errors.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(url);
    return { page, errors };
  }

  /** Serious and critical axe-core violations of the page, one line each. */
  async function seriousViolations(page: Page): Promise<string[]> {
    await page.addScriptTag({ content: axeSource });
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
      return axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      });
    });
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }

  async function screenshot(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: join(ARTIFACTS, `reader-${name}.png`), fullPage: false });
  }

  async function pickSwitcherEntry(page: Page, switcher: 'version' | 'locale', label: string): Promise<void> {
    const menu = page.locator(`.kit-header .kit-${switcher}-switcher`);
    await menu.locator('summary').click();
    await menu.locator('.kit-switcher-menu a', { hasText: label }).first().click();
  }

  it('navigates the reference docs through the sidebar', async () => {
    const { page, errors } = await open(`${referenceHttp.origin}/docs`);
    const link = page.locator('.kit-nav a[data-path="guides/reader-site"]');
    await link.click();
    await page.waitForURL(`${referenceHttp.origin}/docs/guides/reader-site`);
    expect(await page.locator('h1').first().textContent()).toBe('The reader site');
    expect(await link.getAttribute('aria-current')).toBe('page');
    expect(await page.title()).toContain('The reader site');
    await page.locator('.kit-pager-next').click();
    await expect.poll(() => page.url()).not.toBe(`${referenceHttp.origin}/docs/guides/reader-site`);
    expect(await page.locator('.kit-nav a[aria-current="page"]').count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('has no serious accessibility violation on a docs page', async () => {
    const { page } = await open(`${referenceHttp.origin}/docs/guides/reader-site`);
    await screenshot(page, 'docs-page');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('keeps the reader on the same Laravel page when switching version, else opens the landing page', async () => {
    const { page, errors } = await open(`${referenceHttp.origin}/laravel/routing`);
    expect(await page.locator('.kit-header .kit-version-switcher summary').textContent()).toContain('Version: 13.x');
    await pickSwitcherEntry(page, 'version', '11.x');
    await page.waitForURL(`${referenceHttp.origin}/laravel/11.x/routing`);
    expect(await page.locator('.kit-version-notice').count()).toBe(1);
    expect(await page.locator('.kit-nav a[aria-current="page"]').getAttribute('data-path')).toBe('routing');
    await pickSwitcherEntry(page, 'version', '12.x');
    await page.waitForURL(`${referenceHttp.origin}/laravel/12.x/routing`);

    // `ai` exists in 13.x only: 11.x offers its landing page instead.
    await page.goto(`${referenceHttp.origin}/laravel/ai`);
    await pickSwitcherEntry(page, 'version', '11.x');
    await page.waitForURL(`${referenceHttp.origin}/laravel/11.x`);
    expect(await page.locator('.kit-nav a[aria-current="page"]').getAttribute('data-path')).toBe('installation');
    expect(errors).toEqual([]);
  });

  it('navigates the Laravel sidebar to another page and back', async () => {
    const { page, errors } = await open(`${referenceHttp.origin}/laravel/installation`);
    await page.locator('.kit-nav a[data-path="middleware"]').click();
    await page.waitForURL(`${referenceHttp.origin}/laravel/middleware`);
    expect(await page.locator('h1').first().textContent()).toContain('Middleware');
    expect(await page.locator('.kit-nav a[aria-current="page"]').getAttribute('data-path')).toBe('middleware');
    await page.goBack();
    await page.waitForURL(`${referenceHttp.origin}/laravel/installation`);
    expect(errors).toEqual([]);
  });

  it('remembers dark mode across a reload and passes axe in both modes', { timeout: 90_000 }, async () => {
    const { page } = await open(`${referenceHttp.origin}/laravel/routing`);
    const root = page.locator('html');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'laravel-light');
    const toggle = page.locator('.kit-header [data-kit-color-mode]');
    expect(await root.getAttribute('data-mode-choice')).toBe('system');
    await toggle.click();
    expect(await root.getAttribute('data-mode-choice')).toBe('light');
    await toggle.click();
    expect(await root.getAttribute('data-mode')).toBe('dark');
    await page.reload();
    expect(await root.getAttribute('data-mode')).toBe('dark');
    expect(await root.getAttribute('data-mode-choice')).toBe('dark');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r = 255, g = 255, b = 255] = (background.match(/\d+/g) ?? []).map(Number);
    expect(r + g + b).toBeLessThan(3 * 96);
    await screenshot(page, 'laravel-dark');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('searches the Laravel docs on the server and opens a result', async () => {
    const { page, errors } = await open(`${referenceHttp.origin}/laravel/installation`);
    const dialog = page.locator('#kit-search');
    await page.locator('.kit-header [data-kit-search-open]').click();
    await expect.poll(() => dialog.evaluate((d: HTMLDialogElement) => d.open)).toBe(true);
    // One input event, so the results read below are the final query's and not a prefix's that a
    // later answer replaces before Enter.
    await page.locator('#kit-search-input').fill('rate limiting');
    const options = page.locator('#kit-search-results [role="option"]');
    await expect.poll(() => options.count(), { timeout: 15_000 }).toBeGreaterThan(0);
    const href = (await options.first().getAttribute('href'))!;
    expect(href).toMatch(/^\/laravel\//);
    await screenshot(page, 'laravel-search');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname !== '/laravel/installation');
    expect(new URL(page.url()).pathname).toBe(new URL(href, referenceHttp.origin).pathname);
    expect(await page.locator('.kit-prose').textContent()).toMatch(/rate limit/i);
    expect(errors).toEqual([]);
  });

  it('fetches the client search engine on the first search only, and searches in the browser', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    const errors: string[] = [];
    const scripts: string[] = [];
    const searches: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.endsWith('.js')) scripts.push(path);
      if (path.includes('/_kit/search')) searches.push(path);
    });
    // A server-search set never needs the engine, not even when its dialog searches.
    await page.goto(`${referenceHttp.origin}/laravel/installation`);
    await page.waitForLoadState('networkidle');
    expect(scripts).toEqual([expect.stringMatching(/^\/laravel\/_kit\/reader\.[0-9a-f]+\.js$/)]);

    scripts.length = 0;
    await page.goto(`${referenceHttp.origin}/docs`);
    await page.waitForLoadState('networkidle');
    expect(scripts).toEqual([expect.stringMatching(/^\/docs\/_kit\/reader\.[0-9a-f]+\.js$/)]);
    await page.keyboard.press('/');
    await page.keyboard.type('search driver');
    const options = page.locator('#kit-search-results [role="option"]');
    await expect.poll(() => options.count(), { timeout: 15_000 }).toBeGreaterThan(0);
    // The engine came as one more script; the query ran in the browser against the downloaded index.
    expect(scripts).toHaveLength(2);
    expect(scripts[1]).toMatch(/^\/docs\/_kit\/reader-\w+\.js$/);
    expect(searches.every((path) => path.startsWith('/docs/_kit/search-index/'))).toBe(true);
    expect(errors).toEqual([]);
  });

  it('searches through the server when the client index is over search.budget_kb, in the same dialog', async () => {
    const root = mkdtempSync(join(tmpdir(), 'kit-budget-'));
    // Forty pages of distinct words: a client index of a few KB gzipped, over a 1 KB budget.
    const filler = Array.from({ length: 40 }, (_, i) => `topic-${i}`);
    for (const [i, name] of filler.entries()) {
      const words = Array.from({ length: 60 }, (_, j) => `w${((i * 7919 + j * 104729) % 100000).toString(36)}`);
      writeFileSync(join(root, `${name}.md`), `# Topic ${i}\n\n${words.join(' ')}.\n`);
    }
    writeFileSync(join(root, 'queues.md'), '# Queues\n\n## Retrying Jobs\n\nFailed jobs retry three times.\n');
    writeFileSync(join(root, 'kit.json'), JSON.stringify({ name: 'Budget' }));
    writeFileSync(
      join(root, 'navigation.json'),
      JSON.stringify({ groups: [{ label: 'Docs', pages: ['queues', ...filler] }] }),
    );
    const kit = await loadKit({
      config: resolveConfig(
        { sets: { budget: { route: { prefix: 'budget' }, source: { path: '.' }, search: { budget_kb: 1 } } } },
        { env: cleanEnv(), root },
      ),
      git: false,
    });
    const http = await listen(createKitApp({ kit }).fetch);
    try {
      const { page, errors } = await open(`${http.origin}/budget/topic-3`);
      const scripts: string[] = [];
      const searches: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname.endsWith('.js')) scripts.push(url.pathname);
        if (url.pathname.includes('/_kit/search')) searches.push(url.pathname + url.search);
      });
      await page.keyboard.press('/');
      await page.keyboard.type('retry jobs');
      const options = page.locator('#kit-search-results [role="option"]');
      await expect.poll(() => options.count(), { timeout: 15_000 }).toBeGreaterThan(0);
      expect(await options.first().getAttribute('href')).toMatch(/\/budget\/queues#retrying-jobs$/);
      // The index URL answered the pointer once; the query went to the server; the client engine never came.
      expect(searches[0]).toBe('/budget/_kit/search-index/current/en.json');
      expect(searches.filter((path) => path.startsWith('/budget/_kit/search-index/'))).toHaveLength(1);
      // The dialog may ask for a word typed so far first (a slow machine passes the debounce between
      // keys); the whole query is asked for in the end.
      await expect.poll(() => searches.at(-1)).toMatch(/^\/budget\/_kit\/search\?q=retry\+jobs&/);
      expect(scripts).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await close(http.server);
      await kit.close();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('sends feedback from a Laravel page and the server fires FeedbackSubmitted', async () => {
    const { page } = await open(`${referenceHttp.origin}/laravel/12.x/queues`);
    await page.locator('[data-helpful="false"]').click();
    await page.locator('#kit-feedback-comment').fill('The retry example needs a backoff.');
    await page.locator('.kit-feedback-form button[type="submit"]').click();
    await expect.poll(() => page.locator('.kit-feedback-status').textContent()).toBe('Thanks for your feedback!');
    expect(feedback).toContainEqual(
      expect.objectContaining({
        set: 'laravel',
        version: '12.x',
        locale: 'en',
        path: 'queues',
        helpful: false,
        comment: 'The retry example needs a backoff.',
        source: 'widget',
      }),
    );
  });

  it('switches to Arabic on the same page and lays it out right to left', async () => {
    const { page, errors } = await open(`${bilingualHttp.origin}/handbook/setup`);
    expect(await page.locator('html').getAttribute('dir')).toBe('ltr');
    const ltrSidebar = (await page.locator('#kit-sidebar').boundingBox())!;
    const ltrArticle = (await page.locator('.kit-article').boundingBox())!;
    expect(ltrSidebar.x).toBeLessThan(ltrArticle.x);

    await pickSwitcherEntry(page, 'locale', 'العربية');
    await page.waitForURL(`${bilingualHttp.origin}/handbook/ar/setup`);
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
    expect(await page.locator('html').getAttribute('lang')).toBe('ar');
    expect(await page.locator('h1').first().textContent()).toBe('الإعداد');
    const sidebar = (await page.locator('#kit-sidebar').boundingBox())!;
    const article = (await page.locator('.kit-article').boundingBox())!;
    expect(sidebar.x).toBeGreaterThan(article.x);
    expect(await page.locator('.kit-prose pre').evaluate((pre) => getComputedStyle(pre).direction)).toBe('ltr');
    await screenshot(page, 'handbook-rtl');
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('shows the 404 page of an Arabic page in Arabic, every interface string translated', async () => {
    const { page } = await open(`${bilingualHttp.origin}/handbook/ar/setup`);
    expect(await page.locator('.kit-feedback-title').textContent()).toBe('هل كانت هذه الصفحة مفيدة؟');
    await page.goto(`${bilingualHttp.origin}/handbook/ar/no-such-page`);
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
    const text = page.locator('.kit-notfound-text');
    await text.waitFor({ state: 'visible' });
    expect(await text.textContent()).toBe('الصفحة التي طلبتها غير موجودة في هذا الإصدار، أو نُقلت.');
    expect(await page.locator('.kit-notfound [lang="en"]').count()).toBe(0);
  });

  it('reads the English interface strings of a right-to-left page Kit has no translation for left to right', async () => {
    // Syriac, declared right to left by the set: Kit ships no Syriac strings, so they stay English, isolated.
    const root = mkdtempSync(join(tmpdir(), 'kit-syriac-'));
    const files: Record<string, string> = {
      'kit.json': JSON.stringify({ name: 'Handbook', locales: ['en', { code: 'syr', dir: 'rtl', label: 'ܣܘܪܝܝܐ' }] }),
      'index.md': '# Welcome\n',
      'syr/index.md': '# ܫܠܡܐ\n',
    };
    for (const [file, body] of Object.entries(files)) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), body);
    }
    const kit = await loadKit({
      config: resolveConfig(
        { sets: { handbook: { route: { prefix: 'handbook' }, source: { driver: 'repository', path: '.' } } } },
        { env: {}, root },
      ),
      git: false,
    });
    const http = await listen(createKitApp({ kit, cacheDir: null }).fetch);
    try {
      const { page } = await open(`${http.origin}/handbook/syr/no-such-page`);
      expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
      const text = page.locator('.kit-notfound-text');
      await text.waitFor({ state: 'visible' });
      expect(await text.textContent()).toBe('The page you asked for does not exist in this version, or it has moved.');
      expect(await text.locator('span[lang="en"]').getAttribute('dir')).toBe('ltr');
      // Where the browser draws the first and the last character: isolated as a left-to-right run, the
      // full stop sits right of the "T"; left to the page's direction it would jump to the left end.
      const edges = await text.evaluate((element) => {
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        const node = walker.nextNode() as Text;
        const xOf = (index: number) => {
          const range = document.createRange();
          range.setStart(node, index);
          range.setEnd(node, index + 1);
          return range.getBoundingClientRect().x;
        };
        return { first: xOf(0), last: xOf(node.data.length - 1) };
      });
      expect(edges.last).toBeGreaterThan(edges.first);
    } finally {
      await close(http.server);
      await kit.close();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('searches without JavaScript: the header link, a plain form and a results page grouped by page', async () => {
    const { page, errors } = await open(`${referenceHttp.origin}/laravel/installation`, { javaScriptEnabled: false });
    expect(await page.locator('.kit-header [data-kit-search-open]').isVisible()).toBe(false);
    await page.locator('.kit-header .kit-search-page-link').click();
    await page.waitForURL((url) => url.pathname === '/laravel/_kit/search');
    await page.locator('#kit-search-page-q').fill('retry failed jobs');
    await page.locator('.kit-search-page-form button[type="submit"]').click();
    await page.waitForURL((url) => url.searchParams.get('q') === 'retry failed jobs');
    const url = new URL(page.url());
    expect(url.searchParams.get('version')).toBe('13.x');
    expect(url.searchParams.get('locale')).toBe('en');
    const pages = page.locator('.kit-search-page-results > li');
    expect(await pages.count()).toBeGreaterThan(0);
    // One entry per page: no page title twice.
    const titles = await pages.locator('h2').allTextContents();
    expect(new Set(titles).size).toBe(titles.length);
    expect(titles.join(' ')).toMatch(/Queues/);
    await screenshot(page, 'laravel-search-page');
    await pages.locator('h2 a', { hasText: 'Queues' }).first().click();
    await page.waitForURL((next) => next.pathname.startsWith('/laravel/') && !next.pathname.includes('_kit'));
    expect(await page.locator('.kit-prose').textContent()).toMatch(/failed jobs/i);
    expect(errors).toEqual([]);
    // axe needs a script: the same results page, opened with scripts on.
    const withScript = await open(`${referenceHttp.origin}/laravel/_kit/search?q=retry%20failed%20jobs`);
    expect(await seriousViolations(withScript.page)).toEqual([]);
  });

  it('offers the nearest pages on a 404, and its search form works without JavaScript', async () => {
    const { page } = await open(`${referenceHttp.origin}/laravel/eloquent-relationshipz`, { javaScriptEnabled: false });
    const suggestions = page.locator('.kit-notfound-suggestions a');
    expect(await suggestions.allTextContents()).toContain('Eloquent: Relationships');
    await page.locator('#kit-notfound-q').fill('eloquent relationships');
    await page.locator('.kit-notfound-search button[type="submit"]').click();
    await page.waitForURL((url) => url.pathname === '/laravel/_kit/search');
    expect(await page.locator('.kit-search-page-results > li').count()).toBeGreaterThan(0);
    await page.goto(`${referenceHttp.origin}/laravel/eloquent-relationshipz`);
    await suggestions.filter({ hasText: 'Eloquent: Relationships' }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/eloquent-relationships'));
  });

  it('has no serious accessibility violation on the 404 page', async () => {
    const { page } = await open(`${referenceHttp.origin}/laravel/no-such-page`);
    expect(await page.locator('.kit-notfound').count()).toBe(1);
    await screenshot(page, 'laravel-404');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
