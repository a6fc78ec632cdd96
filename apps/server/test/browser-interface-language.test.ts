import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, launchChromium, type ServedSets, serveSets } from './support/served-sets.js';

const PAGE = (title: string, body: string) => `# ${title}\n\n${body}\n\n## Setup\n\nText.\n\n## Usage\n\nMore text.\n`;

describe.skipIf(!chromiumPath)('interface text in the page language, in a real browser', () => {
  let browser: Browser;
  let served: ServedSets;
  let origin: string;

  beforeAll(async () => {
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
    served = await serveSets('interface-language', files, {
      docs: { route: { prefix: 'docs' }, source: { driver: 'repository', path: '.' } },
    });
    origin = served.origin;
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await served?.close();
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
