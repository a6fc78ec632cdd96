import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, launchChromium, type ServedSets, serveSets } from './support/served-sets.js';

// Elixir: a grammar no other page of this server asks for, so the first view is rendered before it loads.
const PAGE = [
  '# Supervisors',
  '',
  'Start the tree:',
  '',
  '```elixir title="lib/app/application.ex"',
  'defmodule App.Application do',
  '  use Application',
  '  def start(_type, _args), do: Supervisor.start_link([], strategy: :one_for_one)',
  'end',
  '```',
  '',
].join('\n');

describe.skipIf(!chromiumPath)('the first view of a page whose code grammar has not loaded yet', () => {
  let browser: Browser;
  let served: ServedSets;

  beforeAll(async () => {
    served = await serveSets(
      'highlight-first-view',
      { 'index.md': '# Home\n', 'supervisors.md': PAGE },
      {
        docs: { route: { prefix: 'docs' }, source: { driver: 'repository', path: '.' } },
      },
    );
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it('is sent at once with plain code, then shows the code highlighted without a reload', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      const documents: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'document') documents.push(request.url());
      });
      const response = await page.goto(`${served.origin}/docs/supervisors`);
      expect(response?.status()).toBe(200);
      // The first answer did not wait for the grammar, and no cache may keep it.
      const first = await response!.text();
      expect(first).toContain('data-kit-highlight-pending');
      expect(first).not.toContain('class="shiki');
      expect(response!.headers()['cache-control']).toContain('no-store');
      await page.evaluate(() => {
        (window as unknown as { kitMarker: boolean }).kitMarker = true;
      });

      const code = page.locator('.kit-prose pre');
      await expect.poll(() => code.getAttribute('class'), { timeout: 30_000 }).toContain('shiki');
      expect(await code.locator('span[style*="color"]').count()).toBeGreaterThan(3);
      expect(await page.locator('.kit-prose[data-kit-highlight-pending]').count()).toBe(0);
      // Same document: no reload, and the title, label and copy button are still the block's.
      expect(await page.evaluate(() => (window as unknown as { kitMarker?: boolean }).kitMarker)).toBe(true);
      expect(documents).toEqual([`${served.origin}/docs/supervisors`]);
      expect(await page.getByRole('figure', { name: 'lib/app/application.ex' }).count()).toBe(1);
      expect(await page.locator('.kit-code .kit-copy').count()).toBe(1);
      expect(await code.textContent()).toContain('defmodule App.Application do');

      // The next reader gets the page highlighted from the start.
      const again = await (await fetch(`${served.origin}/docs/supervisors`)).text();
      expect(again).toContain('class="shiki');
      expect(again).not.toContain('data-kit-highlight-pending');
    } finally {
      await context.close();
    }
  });
});
