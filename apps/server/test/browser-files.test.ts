import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type ServerType, serve } from '@hono/node-server';
import { resolveConfig } from '@kit/core';
import { createKitApp } from '@kit/http-hono';
import { type LoadedKit, loadKit } from '@kit/node';
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

// A 1×1 PNG and two SVGs with their own sizes: every image a page shows must decode in the browser.
const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const LIGHT_LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" width="80" height="20"><rect width="80" height="20" fill="#111"/></svg>';
const DARK_LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" width="60" height="20"><rect width="60" height="20" fill="#eee"/></svg>';

function writeSet(root: string): void {
  const files: Record<string, string | Buffer> = {
    'kit.json': JSON.stringify({
      name: 'Pictures',
      versions: ['2.x'],
      logo: { light: 'brand/logo.svg', dark: 'brand/logo-dark.svg' },
      favicon: 'brand/favicon.png',
    }),
    'brand/logo.svg': LIGHT_LOGO,
    'brand/logo-dark.svg': DARK_LOGO,
    'brand/favicon.png': PIXEL_PNG,
    '2.x/index.md': '# Pictures\n\nThe flow:\n\n![Flow](./images/flow.png)\n',
    '2.x/guides/index.md': '# Guides\n\n![Diagram](../images/diagram.svg)\n',
    '2.x/images/flow.png': PIXEL_PNG,
    '2.x/images/diagram.svg': LIGHT_LOGO,
  };
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), content);
  }
}

describe.skipIf(!chromiumPath)('images and files in a real browser', () => {
  let browser: Browser;
  let kit: LoadedKit;
  let server: ServerType;
  let origin: string;
  let root: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'kit-pictures-'));
    writeSet(root);
    const env: Record<string, string | undefined> = {};
    kit = await loadKit({
      config: resolveConfig(
        { sets: { docs: { route: { prefix: 'docs' }, source: { driver: 'repository', path: '.' } } } },
        { env, root },
      ),
      git: false,
    });
    const app = createKitApp({ kit, cacheDir: null });
    ({ server, origin } = await new Promise<{ server: ServerType; origin: string }>((done) => {
      const started = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) =>
        done({ server: started, origin: `http://127.0.0.1:${info.port}` }),
      );
    }));
    await fetch(`${origin}/docs`);
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: chromiumPath, args: LAUNCH_ARGS });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
    await kit?.close();
    rmSync(root, { recursive: true, force: true });
  });

  /** Every `<img>` of the page once loaded: its source and decoded width (0 when it failed). */
  async function imagesOf(path: string, colorScheme: 'light' | 'dark') {
    const context = await browser.newContext({ colorScheme });
    try {
      const page = await context.newPage();
      const response = await page.goto(`${origin}${path}`);
      expect(response?.status()).toBe(200);
      const images = await page.evaluate(async () => {
        const all = [...document.images];
        await Promise.all(
          all.map((image) =>
            image.complete
              ? null
              : new Promise((done) => {
                  image.addEventListener('load', done);
                  image.addEventListener('error', done);
                }),
          ),
        );
        return all.map((image) => ({
          src: image.getAttribute('src'),
          width: image.naturalWidth,
          shown: image.offsetWidth > 0,
        }));
      });
      const icon = await page.evaluate(() => document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.href ?? null);
      return { images, icon, page, context };
    } catch (error) {
      await context.close();
      throw error;
    }
  }

  it('shows the light and dark logos, the favicon and the page’s image', async () => {
    const { images, icon, page, context } = await imagesOf('/docs', 'light');
    try {
      // The header may show the logo more than once (wide and narrow layouts): every copy must load.
      expect([...new Set(images.map((image) => image.src))]).toEqual([
        expect.stringMatching(/^\/docs\/_kit\/file\/[0-9a-f]{12}\/brand\/logo\.svg$/),
        expect.stringMatching(/^\/docs\/_kit\/file\/[0-9a-f]{12}\/brand\/logo-dark\.svg$/),
        '/docs/images/flow.png',
      ]);
      for (const image of images) expect(image.width, image.src ?? '').toBeGreaterThan(0);
      // In light mode a light logo is the one shown, and no dark one.
      expect(images.some((image) => image.src!.endsWith('/logo.svg') && image.shown)).toBe(true);
      expect(images.some((image) => image.src!.endsWith('/logo-dark.svg') && image.shown)).toBe(false);
      expect(images.find((image) => image.src === '/docs/images/flow.png')!.shown).toBe(true);
      expect(icon).toMatch(/\/docs\/_kit\/file\/[0-9a-f]{12}\/brand\/favicon\.png$/);
      const favicon = await page.request.get(icon!);
      expect(favicon.status()).toBe(200);
      expect(favicon.headers()['content-type']).toBe('image/png');
    } finally {
      await context.close();
    }
  });

  it('shows the dark logo in dark mode, and an image linked from a folder’s index page', async () => {
    const dark = await imagesOf('/docs', 'dark');
    try {
      const darkLogos = dark.images.filter((image) => image.src!.endsWith('/logo-dark.svg'));
      expect(darkLogos.some((image) => image.shown)).toBe(true);
      expect(darkLogos.every((image) => image.width === 60)).toBe(true);
      expect(dark.images.some((image) => image.src!.endsWith('/logo.svg') && image.shown)).toBe(false);
    } finally {
      await dark.context.close();
    }
    const guides = await imagesOf('/docs/guides', 'light');
    try {
      const diagram = guides.images.find((image) => image.src === '/docs/images/diagram.svg');
      expect(diagram?.width).toBe(80);
    } finally {
      await guides.context.close();
    }
  });
});
