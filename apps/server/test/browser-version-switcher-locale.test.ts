import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, launchChromium, type ServedSets, serveSets } from './support/served-sets.js';

// Version 1.x was never translated: it has no ar/ folder.
describe.skipIf(!chromiumPath)('the version switcher on a page in a locale an older version lacks', () => {
  let browser: Browser;
  let served: ServedSets;
  let origin: string;

  beforeAll(async () => {
    const files: Record<string, string> = {
      'kit.json': JSON.stringify({ name: 'Handbook', versions: ['2.x', '1.x'], locales: ['en', 'ar'] }),
      '2.x/index.md': '# Handbook\n',
      '2.x/guide.md': '# Guide\n',
      '2.x/ar/index.md': '# الدليل\n',
      '2.x/ar/guide.md': '# الإرشادات\n',
      '1.x/index.md': '# Handbook 1\n',
      '1.x/guide.md': '# Guide 1\n',
    };
    served = await serveSets('switcher-locale', files, {
      handbook: { route: { prefix: 'handbook' }, source: { driver: 'repository', path: '.' } },
    });
    origin = served.origin;
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it("leads to the same page in the version's default locale, never to a 404", async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    try {
      const page = await context.newPage();
      expect((await page.goto(`${origin}/handbook/2.x/ar/guide`))?.status()).toBe(200);
      const links = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLAnchorElement>('a[href]')]
          .map((anchor) => new URL(anchor.href).pathname)
          .filter((path) => path.startsWith('/handbook/1.x')),
      );
      expect(links.length).toBeGreaterThan(0);
      expect(new Set(links)).toEqual(new Set(['/handbook/1.x/guide']));
      // Follow it as a reader would.
      const response = await page.goto(`${origin}${links[0]}`);
      expect(response?.status()).toBe(200);
      expect(await page.locator('h1').first().textContent()).toBe('Guide 1');
      // From the Arabic landing page too.
      await page.goto(`${origin}/handbook/2.x/ar`);
      const fromLanding = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLAnchorElement>('a[href]')]
          .map((anchor) => new URL(anchor.href).pathname)
          .filter((path) => path.startsWith('/handbook/1.x')),
      );
      expect(new Set(fromLanding)).toEqual(new Set(['/handbook/1.x']));
    } finally {
      await context.close();
    }
  });
});
