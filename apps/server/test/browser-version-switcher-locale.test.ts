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

// Version 1.x was never translated: it has no ar/ folder.
describe.skipIf(!chromiumPath)('the version switcher on a page in a locale an older version lacks', () => {
  let browser: Browser;
  let kit: LoadedKit;
  let server: ServerType;
  let origin: string;
  let root: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'kit-switcher-locale-'));
    const files: Record<string, string> = {
      'kit.json': JSON.stringify({ name: 'Handbook', versions: ['2.x', '1.x'], locales: ['en', 'ar'] }),
      '2.x/index.md': '# Handbook\n',
      '2.x/guide.md': '# Guide\n',
      '2.x/ar/index.md': '# الدليل\n',
      '2.x/ar/guide.md': '# الإرشادات\n',
      '1.x/index.md': '# Handbook 1\n',
      '1.x/guide.md': '# Guide 1\n',
    };
    for (const [file, content] of Object.entries(files)) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), content);
    }
    kit = await loadKit({
      config: resolveConfig(
        { sets: { handbook: { route: { prefix: 'handbook' }, source: { driver: 'repository', path: '.' } } } },
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
