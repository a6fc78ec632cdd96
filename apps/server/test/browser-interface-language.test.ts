import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type ServerType, serve } from '@hono/node-server';
import { type LoadedKit, loadKit } from '@kit/cli';
import { resolveConfig } from '@kit/core';
import { createKitApp } from '@kit/http-hono';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const chromiumPath = process.env.KIT_TEST_CHROMIUM;
const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const PAGE = (title: string, body: string) => `# ${title}\n\n${body}\n\n## Setup\n\nText.\n\n## Usage\n\nMore text.\n`;

describe.skipIf(!chromiumPath)('interface text in the page language, in a real browser', () => {
  let browser: Browser;
  let kit: LoadedKit;
  let server: ServerType;
  let origin: string;
  let root: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'kit-interface-language-'));
    const files: Record<string, string> = {
      'kit.json': JSON.stringify({
        name: 'Handbook',
        locales: ['en', 'ar'],
        strings: { ar: { next: 'الصفحة التالية' }, en: { helpfulQuestion: 'Did this help?' } },
      }),
      'index.md': PAGE('Handbook', '> [!WARNING]\n> Back up first.'),
      'guide.md': PAGE('Guide', 'A guide.'),
      'ar/index.md': PAGE('الدليل', '> [!WARNING]\n> خذ نسخة احتياطية أولاً.'),
      'ar/guide.md': PAGE('الإرشادات', 'إرشادات.'),
    };
    for (const [file, content] of Object.entries(files)) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), content);
    }
    kit = await loadKit({
      config: resolveConfig(
        { sets: { docs: { route: { prefix: 'docs' }, source: { driver: 'repository', path: '.' } } } },
        { env: {}, root },
      ),
      git: false,
    });
    const app = createKitApp({ kit, cacheDir: null });
    ({ server, origin } = await new Promise<{ server: ServerType; origin: string }>((done) => {
      const started = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) =>
        done({ server: started, origin: `http://127.0.0.1:${info.port}` }),
      );
    }));
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: chromiumPath, args: LAUNCH_ARGS });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
    await kit?.close();
    rmSync(root, { recursive: true, force: true });
  });

  /** What a reader sees: the page's visible text, and the text of everything marked as English. */
  async function read(path: string) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    try {
      const page = await context.newPage();
      expect((await page.goto(`${origin}${path}`))?.status()).toBe(200);
      // innerText, not textContent: what the reader sees, without hidden dialogs and templates.
      return await page.evaluate(() => {
        const seen = (element: Element | null) =>
          // biome-ignore lint/performance/useDomNodeTextContent: the visible text is what is checked
          element instanceof HTMLElement ? element.innerText : undefined;
        return {
          text: seen(document.body) ?? '',
          dir: document.documentElement.dir,
          callout: seen(document.querySelector('.callout-title')),
          english: [...document.querySelectorAll('[lang="en"]')]
            .filter((element) => element !== document.documentElement)
            .map((element) => seen(element) ?? ''),
        };
      });
    } finally {
      await context.close();
    }
  }

  it('shows an Arabic page its interface in Arabic, with what the set overrides', async () => {
    const arabic = await read('/docs/ar');
    expect(arabic.dir).toBe('rtl');
    for (const text of ['بحث', 'في هذه الصفحة', 'هل كانت هذه الصفحة مفيدة؟', 'نعم', 'لا', 'الصفحة التالية']) {
      expect(arabic.text).toContain(text);
    }
    expect(arabic.callout).toBe('تحذير');
    for (const english of ['Search', 'On this page', 'Was this page helpful?', 'Warning', 'Next']) {
      expect(arabic.text.toLowerCase()).not.toContain(english.toLowerCase());
    }
    // Nothing the reader sees is marked as English any more except what Kit does not translate.
    expect(arabic.english.join(' | ')).not.toMatch(/Search|On this page|helpful|Warning|Next/);
  });

  it('keeps an English page in English, with its own override', async () => {
    const english = await read('/docs');
    expect(english.dir).toBe('ltr');
    // innerText follows text-transform (the table of contents title is set in capitals).
    for (const text of ['On this page', 'Did this help?', 'Next'])
      expect(english.text.toLowerCase()).toContain(text.toLowerCase());
    expect(english.callout).toBe('Warning');
    expect(english.text).not.toContain('في هذه الصفحة');
  });
});
