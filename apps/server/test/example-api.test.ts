import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { type ServerType, serve } from '@hono/node-server';
import { defaultReferences } from '@kit/core';
import { honoRoutes } from '@kit/http-hono';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExampleApi } from '../src/example-api/api.js';
import { createShopEvents, type ShopEventPayload } from '../src/example-api/events.js';
import { createReferenceServer } from '../src/server.js';

const chromiumPath = process.env.KIT_TEST_CHROMIUM;
const ARTIFACTS = resolve(import.meta.dirname, '../../../test-artifacts');

function cleanEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('KIT_')) env[key] = value;
  return env;
}

const json = (body: unknown, method = 'POST') => ({
  method,
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

describe('the example API', () => {
  it('places, lists, reads and ships orders, emitting typed events', async () => {
    const events = createShopEvents();
    const shipped: Array<ShopEventPayload<'events.OrderShipped'>> = [];
    events.on('events.OrderShipped', (payload) => void shipped.push(payload));
    const api = createExampleApi({ events });

    const placed = await api.request('/orders', json({ email: 'ada@example.com', name: 'Ada' }));
    expect(placed.status).toBe(201);
    expect(placed.headers.get('x-request-id')).toBeTruthy();
    const { order } = (await placed.json()) as { order: { id: number; status: string } };
    expect(order.status).toBe('pending');

    expect((await api.request('/orders', json({ email: 'not an email' }))).status).toBe(400);
    expect((await api.request('/orders/abc')).status).toBe(400);
    expect((await api.request('/orders/999')).status).toBe(404);

    const ship = await api.request(`/orders/${order.id}/ship`, json({ carrier: 'DHL' }));
    expect(ship.status).toBe(200);
    expect(shipped).toMatchObject([{ orderId: order.id, carrier: 'DHL' }]);
    expect((await api.request(`/orders/${order.id}/ship`, json({ carrier: 'DHL' }))).status).toBe(409);

    const list = (await (await api.request('/orders?status=shipped')).json()) as { orders: Array<{ id: number }> };
    expect(list.orders.map((row) => row.id)).toEqual([order.id]);
  });
});

describe('Kit’s docs describing the example API', () => {
  let server: Awaited<ReturnType<typeof createReferenceServer>>;

  beforeAll(async () => {
    server = await createReferenceServer({ env: cleanEnv(), renderPool: false, watch: false });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it('registers the example API’s routes, tables and events from kit.config.ts', () => {
    const catalog = defaultReferences.catalog();
    expect(catalog.routes.map((route) => route.name)).toEqual([
      'orders.index',
      'orders.store',
      'orders.show',
      'orders.ship',
    ]);
    expect(catalog.models.map((model) => model.name)).toEqual(['customers', 'orders']);
    expect(catalog.events.map((event) => event.name)).toEqual(['events.OrderPlaced', 'events.OrderShipped']);
  });

  it('serves the page’s agent Markdown with the route, table and event tables', async () => {
    const response = await server.app.request('/docs/reference/example-api.md');
    const markdown = await response.text();
    expect(response.status).toBe(200);
    expect(markdown).toContain('**POST** `/api/orders/:id/ship`');
    expect(markdown).toContain('Middleware: `request-id`, `body-limit`');
    expect(markdown).toContain('| `carrier` | `string` | yes | Carrier taking the parcel. |');
    expect(markdown).toContain('| `customer_id` | `integer` | no |  | → customers.id |');
    expect(markdown).toContain(
      '| `shippedAt` | `string (date-time)` | yes | When the order was marked shipped (ISO 8601, UTC). |',
    );
    expect(markdown).not.toContain('Reference not');
  });

  it('tells the application’s routes from Kit’s own in the whole host app', () => {
    const routes = honoRoutes(server.app);
    const ship = routes.find((route) => route.path === '/api/orders/:id/ship');
    expect(ship).toMatchObject({ name: 'orders.ship', package: null });
    const kitRoutes = routes.filter((route) => route.path.startsWith('/docs'));
    expect(kitRoutes.length).toBeGreaterThan(5);
    expect(new Set(kitRoutes.map((route) => route.package))).toEqual(new Set(['@kit/http-hono']));
    expect(routes.find((route) => route.path === '/')?.package).toBeNull();
  });

  it('gives agents the same tables in llms-full.txt', async () => {
    // Kit's own docs are over agents.llms_full_limit: llms-full.txt lists a file per navigation
    // group, and the reference group's file holds the page.
    const index = await (await server.app.request('/docs/llms-full.txt')).text();
    const group = /\((http:\/\/[^)]+\/llms-full\/reference\.txt)\)/.exec(index)?.[1];
    expect(group, 'llms-full.txt names the reference group').toBeDefined();
    const text = await (await server.app.request(new URL(group!).pathname)).text();
    expect(text).toContain('| `orderId` | `integer` | yes | Id of the order that left the warehouse. |');
  });

  it('finds the page by what its generated tables say', async () => {
    const response = await server.app.request('/docs/_kit/search?q=carrier+taking+the+parcel');
    const { results } = (await response.json()) as { results: Array<{ path: string }> };
    expect(results[0]?.path).toBe('reference/example-api');
  });
});

describe.skipIf(!chromiumPath)('the example API page in a real browser', () => {
  let browser: Browser;
  let server: Awaited<ReturnType<typeof createReferenceServer>>;
  let http: ServerType;
  let origin: string;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    server = await createReferenceServer({ env: cleanEnv(), watch: false });
    await new Promise<void>((done) => {
      http = serve({ fetch: server.app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) => {
        origin = `http://127.0.0.1:${info.port}`;
        done();
      });
    });
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    expect((await fetch(`${origin}/docs/reference/example-api`)).status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((done) => (http ? http.close(() => done()) : done()));
    await server?.close();
  });

  it('shows each reference as a titled block with its tables, and passes axe', { timeout: 60_000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${origin}/docs/reference/example-api`);
    const blocks = page.locator('.kit-prose .kit-reference');
    expect(await blocks.count()).toBe(8);
    expect(await page.locator('.kit-reference-missing').count()).toBe(0);
    const ship = page.locator('.kit-reference-route', { hasText: '/api/orders/:id/ship' });
    await expect.poll(() => ship.locator('.kit-method').textContent()).toBe('POST');
    expect(await ship.locator('.kit-method').isVisible()).toBe(true);
    const body = ship.locator('table').last();
    expect(await body.locator('tbody tr').first().locator('td').allTextContents()).toEqual([
      'carrier',
      'string',
      'yes',
      'Carrier taking the parcel.',
    ]);
    // The reader's table wrapper scrolls wide tables inside the block instead of the page.
    expect(await page.locator('.kit-reference .kit-table-wrap').count()).toBeGreaterThan(5);
    const width = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(width).toBe(true);
    await page.locator('.kit-reference-model', { hasText: 'orders' }).first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, 'reader-example-api.png'), fullPage: false });

    await page.addScriptTag({
      content: readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'),
    });
    const violations = await page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: { run: (d: Document, o: unknown) => Promise<{ violations: Array<{ id: string; impact: string }> }> };
        }
      ).axe;
      const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa'] } });
      return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
    });
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
