import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, launchChromium, type ServedSets, serveSets } from './support/served-sets.js';

// `Inter` stands for a Latin web font the reader's machine does not have: Arabic text then falls
// through it to the next family, the bundled Arabic font.
describe.skipIf(!chromiumPath)('the bundled Arabic font in a real browser', () => {
  let browser: Browser;
  let served: ServedSets;
  let origin: string;

  beforeAll(async () => {
    const set = (key: string) => ({ route: { prefix: key }, source: { driver: 'repository' as const, path: key } });
    served = await serveSets(
      'arabic-font',
      {
        'handbook/kit.json': JSON.stringify({
          name: 'Handbook',
          locales: ['en', 'ar'],
          theme: { fonts: { sans: 'Inter' } },
        }),
        'handbook/en/index.md': '# Handbook\n\nRead this first.\n',
        'handbook/ar/index.md': '# الدليل\n\nاقرأ هذا أولاً قبل أن تبدأ.\n',
        'guide/kit.json': JSON.stringify({ name: 'Guide', theme: { fonts: { sans: 'Inter' } } }),
        'guide/index.md': '# Guide\n\nOnly English here, with a hyphen‐like dash and an emoji 👨‍👩‍👧.\n',
        'plain/kit.json': JSON.stringify({ name: 'Plain' }),
        'plain/index.md': '# Plain\n\nDefault theme.\n',
      },
      { handbook: set('handbook'), guide: set('guide'), plain: set('plain') },
    );
    origin = served.origin;
    await fetch(`${origin}/handbook`);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  /** Opens a page and reports the font files it fetched and how the bundled face ended up. */
  async function visit(path: string) {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const fonts: string[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('.woff2')) fonts.push(new URL(request.url()).pathname);
      });
      expect((await page.goto(`${origin}${path}`))?.status()).toBe(200);
      const state = await page.evaluate(async () => {
        await document.fonts.ready;
        const face = [...document.fonts].find((font) => font.family.replace(/"/g, '') === 'Kit Noto Sans Arabic');
        return {
          face: face?.status ?? null,
          stack: getComputedStyle(document.body).fontFamily,
          heading: getComputedStyle(document.querySelector('h1')!).fontFamily,
        };
      });
      return { fonts, ...state };
    } finally {
      await context.close();
    }
  }

  it('fetches the bundled font for an Arabic page and uses it right after the sans font', async () => {
    const arabic = await visit('/handbook/ar');
    expect(arabic.stack.startsWith('Inter, "Kit Noto Sans Arabic", "Noto Sans Arabic"')).toBe(true);
    expect(arabic.heading).toBe(arabic.stack);
    expect(arabic.fonts).toHaveLength(1);
    expect(arabic.fonts[0]).toMatch(/^\/handbook\/_kit\/noto-sans-arabic\.[0-9a-f]{10}\.woff2$/);
    expect(arabic.face).toBe('loaded');

    const response = await fetch(`${origin}${arabic.fonts[0]}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('font/woff2');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(
      Buffer.from(await response.arrayBuffer())
        .subarray(0, 4)
        .toString('latin1'),
    ).toBe('wOF2');
  });

  it('never fetches it for a page without Arabic text', async () => {
    const english = await visit('/guide');
    expect(english.stack.startsWith('Inter, "Kit Noto Sans Arabic"')).toBe(true);
    expect(english.fonts).toEqual([]);
    expect(english.face).toBe('unloaded');
  });

  it('puts it right after the UI font when the set names no sans font', async () => {
    const plain = await visit('/plain');
    expect(plain.stack).toMatch(
      /^ui-sans-serif, system-ui, -apple-system, "Kit Noto Sans Arabic", "Noto Sans Arabic", /,
    );
    expect(plain.fonts).toEqual([]);
  });
});
