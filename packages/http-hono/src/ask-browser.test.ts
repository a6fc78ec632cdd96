import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { type ScriptedProvider, type ScriptStep, startScriptedProvider, toolResults } from '@kit/ai/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createKitApp } from './app.js';
import { fixtureKit } from './testing/fixture.js';

const chromiumPath = process.env.KIT_TEST_CHROMIUM;
const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

async function listen(fetch: (request: Request) => Response | Promise<Response>) {
  return new Promise<{ origin: string; server: ServerType }>((done) => {
    const server = serve({ fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) =>
      done({ origin: `http://127.0.0.1:${info.port}`, server }),
    );
  });
}

/** A guest's question: the model tries a private page first, then answers from the public one. */
const script: ScriptStep[] = [
  { toolCalls: [{ name: 'read_page', input: { path: 'internal/roadmap' } }] },
  { toolCalls: [{ name: 'search_docs', input: { query: 'retry failed jobs' } }] },
  { toolCalls: [{ name: 'read_page', input: { path: 'queues' } }] },
  (request) => {
    const page = JSON.parse(toolResults(request).at(-1)!) as { markdown: string };
    const line = page.markdown.split('\n').find((text) => text.includes('retry'))!;
    return {
      chunkDelayMs: 60,
      text: ['Scripted turn. ', 'The page says: ', line, '\n\nSee [Retrying Jobs](/docs/queues#retrying-jobs).'],
    };
  },
];

describe.skipIf(!chromiumPath)('Ask AI in a real browser', () => {
  let browser: Browser;
  let axeSource: string;
  let provider: ScriptedProvider;
  let site: { origin: string; server: ServerType };
  let offSite: { origin: string; server: ServerType };

  beforeAll(async () => {
    axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    provider = await startScriptedProvider('openai');
    const app = createKitApp({
      kit: fixtureKit({ ai: { ask: { enabled: true, provider: 'openai' } } }),
      cacheDir: null,
      ask: { env: { OPENAI_API_KEY: 'sk-browser-test', OPENAI_BASE_URL: provider.url }, log: () => undefined },
    });
    site = await listen(app.fetch);
    offSite = await listen(createKitApp({ kit: fixtureKit(), cacheDir: null }).fetch);
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: chromiumPath, args: LAUNCH_ARGS });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    for (const running of [site, offSite]) await new Promise<void>((done) => running?.server.close(() => done()));
    await provider?.close();
  });
  afterEach(() => {
    const left = provider.pending;
    // A failed test must not hand its turns to the next one.
    provider.clear();
    expect(left, 'every scripted turn was used').toBe(0);
  });

  async function openAsk(page: Page, path: string, askLabel = 'Ask AI') {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/_kit/reader-')) scripts.push(request.url());
    });
    await page.goto(`${site.origin}${path}`);
    await page.keyboard.press('/');
    await page.locator('#kit-search-input').waitFor();
    // Keyboard only: from the search field, Tab passes the close button and reaches "Ask AI".
    await page.keyboard.type('how do failed jobs retry');
    // What searching loads (its chunk, on a busy machine late) is in before Ask AI is asked for.
    await page.waitForLoadState('networkidle');
    const before = scripts.length;
    await page.keyboard.press('Tab');
    // The close button, named in the page's language ("إغلاق Esc" on an Arabic page).
    expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-kit-search-close'))).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(/ Esc$/);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(askLabel);
    await page.keyboard.press('Enter');
    await page.locator('#kit-ask-input').waitFor();
    // The panel came as its own chunk, fetched now rather than with the page.
    expect(scripts.length).toBe(before + 1);
    return scripts;
  }

  it('streams an answer with working citation links, and sends the provider no private page', async () => {
    provider.push(...script);
    const page = await browser.newPage();
    await openAsk(page, '/docs/queues');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('kit-ask-input');
    expect(await page.inputValue('#kit-ask-input')).toBe('how do failed jobs retry');
    await page.keyboard.press('Enter');

    // Streaming: the text grows while the answer is written, before the citations are linked.
    const answer = page.locator('.kit-ask-answer .kit-ask-text').last();
    await expect.poll(() => answer.textContent(), { timeout: 20_000 }).toContain('Scripted turn.');
    expect(await answer.getAttribute('aria-busy')).toBe('true');
    expect(await page.locator('.kit-ask-stop').isVisible()).toBe(true);
    await expect.poll(() => answer.getAttribute('aria-busy'), { timeout: 20_000 }).toBeNull();
    expect(await answer.textContent()).toContain('Failed jobs retry three times with exponential backoff.');
    expect(await page.locator('.kit-ask-status').textContent()).toBe('Answer complete.');
    const inline = answer.locator('a');
    expect(await inline.getAttribute('href')).toBe('/docs/queues#retrying-jobs');
    expect(await page.locator('.kit-ask-sources a').getAttribute('href')).toBe('/docs/queues#retrying-jobs');
    expect(await page.locator('.kit-ask-sources a').textContent()).toBe('Queues');
    expect(await page.locator('.kit-ask-unsupported').count()).toBe(0);

    // What the provider received: the reader's question, the public page, nothing private.
    const sent = provider.requests.map((request) => request.raw).join('\n');
    expect(sent).toContain('how do failed jobs retry');
    expect(sent).toContain('Failed jobs retry three times');
    expect(sent).not.toMatch(/zeppelin|Secret plans|hyperdrive/i);

    const violations = await seriousViolations(page);
    expect(violations).toEqual([]);

    await inline.click();
    await page.waitForURL(`${site.origin}/docs/queues#retrying-jobs`);
    expect(await page.locator('#retrying-jobs').isVisible()).toBe(true);
    await page.close();
  });

  it('stops a streaming answer, copies it, and starts a new conversation', async () => {
    provider.push({ chunkDelayMs: 150, text: Array.from({ length: 40 }, (_, i) => `word${i} `) });
    const page = await browser.newPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.origin });
    await openAsk(page, '/docs/queues');
    await page.keyboard.press('Enter');
    const answer = page.locator('.kit-ask-answer .kit-ask-text').last();
    await expect.poll(() => answer.textContent(), { timeout: 20_000 }).toContain('word2');
    await page.locator('.kit-ask-stop').click();
    await expect.poll(() => answer.getAttribute('aria-busy')).toBeNull();
    const stoppedAt = (await answer.textContent()) ?? '';
    expect(stoppedAt).not.toContain('word39');
    await page.waitForTimeout(500);
    expect(await answer.textContent()).toBe(stoppedAt);
    expect(await page.locator('.kit-ask-send').isVisible()).toBe(true);

    await page.locator('.kit-ask-copy').click();
    await expect.poll(() => page.locator('.kit-ask-copy').textContent()).toBe('Copied');
    expect((await page.evaluate(() => navigator.clipboard.readText())).trim()).toBe(stoppedAt.trim());

    await page.locator('.kit-ask-new').click();
    expect(await page.locator('.kit-ask-log li').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('kit-ask-input');
    await page.close();
  });

  it('shows the limit a refused question broke', async () => {
    const page = await browser.newPage();
    await openAsk(page, '/docs/queues');
    await page.fill('#kit-ask-input', 'x'.repeat(2001));
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.locator('.kit-ask-error').textContent())
      .toBe('The question is 2001 characters long; ai.ask.max_question_length allows 2000. Shorten it.');
    expect(await page.locator('.kit-ask-error').getAttribute('role')).toBe('alert');
    await page.close();
  });

  it('lays the panel out right to left on an Arabic page', async () => {
    provider.push({ text: ['The documentation does not cover this.'] });
    const page = await browser.newPage();
    await openAsk(page, '/docs/ar', 'اسأل الذكاء الاصطناعي');
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await page.keyboard.press('Enter');
    await page.locator('.kit-ask-unsupported').waitFor();
    // The reader's question sits at the start side, which is the right in a right-to-left page.
    const log = (await page.locator('.kit-ask-log').boundingBox())!;
    const asked = (await page.locator('.kit-ask-question').boundingBox())!;
    expect(Math.abs(log.x + log.width - (asked.x + asked.width))).toBeLessThan(20);
    expect(asked.x - log.x).toBeGreaterThan(20);
    // The panel speaks the page's language: Kit ships its strings in Arabic, so nothing is marked English.
    expect(await page.locator('.kit-ask').getAttribute('lang')).toBeNull();
    expect(await page.locator('#kit-ask-input').getAttribute('placeholder')).toBe('اطرح سؤالًا عن هذا التوثيق…');
    expect(await page.locator('.kit-ask-notice').textContent()).toContain('قد تكون خاطئة');
    await page.close();
  });

  it('offers no Ask AI when ai.ask.enabled is off', async () => {
    const page = await browser.newPage();
    await page.goto(`${offSite.origin}/docs/queues`);
    await page.keyboard.press('/');
    await page.locator('#kit-search-input').waitFor();
    expect(await page.locator('[data-kit-ask-open]').count()).toBe(0);
    await page.close();
  });

  async function seriousViolations(page: Page): Promise<string[]> {
    await page.addScriptTag({ content: axeSource });
    const result = await page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: {
            run: (
              context: Element,
              options: unknown,
            ) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }>;
          };
        }
      ).axe;
      return axe.run(document.querySelector('#kit-search')!, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      });
    });
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }
});
