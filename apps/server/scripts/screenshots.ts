/**
 * Screenshots of the reader site for the docs' reader-site guide: Kit's own docs and the Laravel
 * set, desktop and phone, light and dark, and an Arabic page. Each is taken from the reference
 * server in Chromium, so the guide shows what a reader gets today.
 *
 *   pnpm screenshots            # writes apps/site/guides/images/reader/*.png
 *   KIT_CHROMIUM=/path/to/chromium pnpm screenshots
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { resolveConfig } from '@kit/core';
import { createKitApp } from '@kit/http-hono';
import { loadKit } from '@kit/node';
import { chromium } from 'playwright-core';
import { createReferenceServer } from '../src/server.js';

const OUT = resolve(import.meta.dirname, '../../site/guides/images/reader');
const executablePath = process.env.KIT_CHROMIUM ?? process.env.KIT_TEST_CHROMIUM ?? '/usr/bin/chromium';

/** The environment of the servers: the shell's KIT_* settings never change what the guide shows. */
function cleanEnv(extra: Record<string, string>): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('KIT_')) env[key] = value;
  return { ...env, ...extra };
}

function listen(fetch: (request: Request) => Response | Promise<Response>) {
  return new Promise<{ origin: string; close: () => Promise<void> }>((done) => {
    const server = serve({ fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) =>
      done({
        origin: `http://127.0.0.1:${info.port}`,
        close: () => new Promise((closed) => server.close(() => closed())),
      }),
    );
  });
}

/** A two-language handbook: neither Kit's docs nor the Laravel corpus has a right-to-left locale. */
function writeArabicSet(root: string): void {
  const files: Record<string, string> = {
    'kit.json': JSON.stringify({ name: 'Handbook', locales: ['en', 'ar'] }),
    'navigation.json': JSON.stringify({ groups: [{ label: 'Start', pages: ['index', 'setup'] }] }),
    'index.md': '# Welcome\n\nRead the setup guide next.\n',
    'setup.md': '# Setup\n\nInstall it.\n\n## Requirements\n\nNode 20.\n',
    'ar/navigation.json': JSON.stringify({ groups: [{ label: 'البداية', pages: ['index', 'setup'] }] }),
    'ar/index.md': '# مرحبا\n\nاقرأ دليل الإعداد بعد ذلك.\n',
    'ar/setup.md':
      '---\ntitle: الإعداد\ndescription: ثبّت الأداة.\n---\n\n# الإعداد\n\nثبّت الأداة باستخدام npm ثم شغّلها.\n\n> [!NOTE]\n> يعمل الدليل على الإصدار 20 من Node أو أحدث.\n\n## المتطلبات\n\n- الإصدار 20 من Node.\n- مساحة قرص تكفي للفهرس.\n\n```sh title="install.sh"\nnpm install handbook\n```\n\n## الخطوة التالية\n\nاقرأ صفحة البداية.\n',
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
}

const shots: Array<{ name: string; server: 'reference' | 'arabic'; path: string; phone?: boolean; dark?: boolean }> = [
  { name: 'kit-desktop-light', server: 'reference', path: '/docs/getting-started/quick-start' },
  { name: 'kit-desktop-dark', server: 'reference', path: '/docs/getting-started/quick-start', dark: true },
  { name: 'kit-phone-light', server: 'reference', path: '/docs/getting-started/quick-start', phone: true },
  { name: 'kit-phone-dark', server: 'reference', path: '/docs/getting-started/quick-start', phone: true, dark: true },
  { name: 'laravel-desktop-light', server: 'reference', path: '/laravel/queues' },
  { name: 'laravel-desktop-dark', server: 'reference', path: '/laravel/queues', dark: true },
  { name: 'laravel-phone-light', server: 'reference', path: '/laravel/queues', phone: true },
  { name: 'laravel-phone-dark', server: 'reference', path: '/laravel/queues', phone: true, dark: true },
  { name: 'arabic-desktop-light', server: 'arabic', path: '/handbook/ar/setup' },
];

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  // A busy machine must not turn a long page into its "too complex to render" notice on a screenshot.
  const reference = await createReferenceServer({
    env: cleanEnv({ KIT_LARAVEL: '1', KIT_RENDER_DEADLINE_MS: '300000' }),
    watch: false,
  });
  const referenceHttp = await listen(reference.app.fetch);
  const arabicRoot = mkdtempSync(join(tmpdir(), 'kit-screenshots-'));
  writeArabicSet(arabicRoot);
  const arabicKit = await loadKit({
    config: resolveConfig(
      { sets: { handbook: { route: { prefix: 'handbook' }, source: { driver: 'repository', path: '.' } } } },
      { env: cleanEnv({}), root: arabicRoot },
    ),
    git: false,
  });
  const arabicHttp = await listen(createKitApp({ kit: arabicKit }).fetch);
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    for (const shot of shots) {
      const context = await browser.newContext({
        viewport: shot.phone ? { width: 390, height: 844 } : { width: 1280, height: 800 },
        deviceScaleFactor: 1,
        colorScheme: shot.dark ? 'dark' : 'light',
        isMobile: shot.phone ?? false,
        hasTouch: shot.phone ?? false,
      });
      const page = await context.newPage();
      const origin = shot.server === 'reference' ? referenceHttp.origin : arabicHttp.origin;
      const response = await page.goto(origin + shot.path, { waitUntil: 'networkidle' });
      if (response?.status() !== 200) throw new Error(`${shot.path} answered ${response?.status()}`);
      // A page answered while its code grammars loaded gets its highlighted code a moment later.
      await page.waitForFunction(() => !document.querySelector('[data-kit-highlight-pending]'), null, {
        timeout: 30_000,
      });
      await page.evaluate(() => document.fonts.ready);
      await page.screenshot({ path: join(OUT, `${shot.name}.png`) });
      await context.close();
      console.log(`wrote ${join(OUT, `${shot.name}.png`)}`);
    }
  } finally {
    await browser.close();
    await referenceHttp.close();
    await arabicHttp.close();
    await reference.close();
    await arabicKit.close();
    rmSync(arabicRoot, { recursive: true, force: true });
  }
}

await main();
