import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReferenceSettings, RenderContext } from '@kit/core';
import { createReferenceRegistry } from '@kit/core/internal';
import { describe, expect, it } from 'vitest';
import { createRenderer } from '../render/renderer.js';
import { laravelContext, pageFromText } from '../testing/laravel-corpus.js';
import { SHOP_CATALOG } from './references.fixtures.js';
import { createComponentRegistry } from './registry.js';

const FIXTURES = join(import.meta.dirname, '..', '__fixtures__');
const update = process.env.UPDATE === '1';
const SETTINGS: ReferenceSettings = {
  routes: { allow: null },
  models: { allow: ['orders', 'customers'] },
  events: { namespaces: ['events'] },
};

function pin(file: string, actual: string) {
  const path = join(FIXTURES, file);
  if (update || !existsSync(path)) writeFileSync(path, actual);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

function setup(references = SHOP_CATALOG) {
  const registry = createReferenceRegistry();
  registry.register(references);
  const renderer = createRenderer({ references: registry, components: createComponentRegistry() });
  return { registry, renderer };
}

function context(settings: ReferenceSettings = SETTINGS, overrides: Partial<RenderContext> = {}): RenderContext {
  return laravelContext('13.x', { references: settings, ...overrides });
}

const page = (body: string) => pageFromText('shop/api', body);

describe('<Route>, <Model> and <Event>', () => {
  it('render the catalog to HTML and agent Markdown as pinned', async () => {
    const { renderer } = setup();
    const out = await renderer.render(
      pageFromText('shop/api', readFileSync(join(FIXTURES, 'inputs', 'references.md'), 'utf8')),
      context(),
    );
    pin('references/shop.html', out.html);
    pin('references/shop.agent.md', out.markdown);
    pin('references/shop.problems.json', `${JSON.stringify(out.problems, null, 2)}\n`);
  });

  it('describes a route with its method, path, parameters, middleware and validated input', async () => {
    const { renderer } = setup();
    const out = await renderer.render(page('<Route name="orders.show" />\n'), context());
    expect(out.html).toContain('<span class="kit-method" data-method="GET">GET</span> <code>/api/orders/:id</code>');
    expect(out.html).toContain('<code>auth</code>, <code>etag</code>');
    expect(out.markdown).toContain('| `id` | `integer` | yes | The order id. |');
    expect(out.markdown).toContain('| `include` | `"items" \\| "customer"` | no | Relations \\| to embed. |');
    expect(out.problems).toEqual([]);
  });

  it('takes GET when a path is given without a method, and names the methods when the path has no GET', async () => {
    const { renderer } = setup();
    const byPath = await renderer.render(page('<Route path="/api/orders/:id" />\n'), context());
    expect(byPath.markdown).toContain('**GET** `/api/orders/:id`');
    const wrongMethod = await renderer.render(page('<Route path="/api/orders" method="DELETE" />\n'), context());
    expect(wrongMethod.problems).toMatchObject([
      { rule: 'references.unknown', fix: 'Write method="POST" (one of POST).', line: 1 },
    ]);
  });

  it('reports an unknown route with the nearest names as the fix, and shows a notice in its place', async () => {
    const { renderer } = setup();
    const out = await renderer.render(page('Intro.\n\n<Route name="order.show" />\n'), context());
    expect(out.problems).toMatchObject([
      {
        rule: 'references.unknown',
        severity: 'warning',
        line: 3,
        message: '<Route name="order.show"> names no route of the application.',
      },
    ]);
    expect(out.problems[0]?.fix).toContain('Did you mean "orders.show"');
    expect(out.html).toContain('<div class="kit-reference kit-reference-missing" role="note">');
    expect(out.markdown).toContain('> **Reference not found:** `<Route name="order.show" />`.');
  });

  it('keeps routes other packages registered out under a null allow-list, and lets Kit’s own stay', async () => {
    const { renderer } = setup();
    const swagger = await renderer.render(page('<Route path="/swagger" />\n'), context());
    expect(swagger.problems).toMatchObject([{ rule: 'references.denied' }]);
    expect(swagger.problems[0]?.message).toContain('registered by the package @hono/swagger-ui');
    const kitRoute = await renderer.render(page('<Route name="kit.docs.search" />\n'), context());
    expect(kitRoute.problems).toEqual([]);
    expect(kitRoute.markdown).toContain('`/docs/search`');
  });

  it('allows exactly the routes a list names, by name or by path, with *', async () => {
    const { renderer } = setup();
    const settings = { ...SETTINGS, routes: { allow: ['orders.s*', '/swagger'] } };
    const show = await renderer.render(page('<Route name="orders.show" />\n'), context(settings));
    expect(show.problems).toEqual([]);
    const swagger = await renderer.render(page('<Route path="/swagger" />\n'), context(settings));
    expect(swagger.problems).toEqual([]);
    const kit = await renderer.render(page('<Route name="kit.docs.search" />\n'), context(settings));
    expect(kit.problems).toMatchObject([{ rule: 'references.denied' }]);
    expect(kit.problems[0]?.fix).toContain('Add "kit.docs.search" (or a pattern with *) to references.routes.allow');
  });

  it('describes a table with columns, keys, defaults, relations and indexes', async () => {
    const { renderer } = setup();
    const out = await renderer.render(page('<Model name="orders" />\n'), context());
    expect(out.markdown).toContain('| `customer_id` | `integer` | no |  | → customers.id |');
    expect(out.markdown).toContain("| `status` | `text` | no | `'pending'` |  |");
    expect(out.markdown).toContain('| `shipped_at` | `timestamp with time zone` | yes |  |  |');
    expect(out.markdown).toContain('| `customer` | one | `customers` |');
    expect(out.html).toContain('Table <code>orders</code>');
  });

  it('denies a table references.models.allow does not match, by name or schema.name', async () => {
    const { renderer } = setup();
    const denied = await renderer.render(page('<Model name="audit_log" />\n'), context());
    expect(denied.problems).toMatchObject([{ rule: 'references.denied' }]);
    const bySchema = { ...SETTINGS, models: { allow: ['internal.*'] } };
    const allowed = await renderer.render(page('<Model name="audit_log" />\n'), context(bySchema));
    expect(allowed.problems).toEqual([]);
    expect(allowed.markdown).toContain('**Table** `internal.audit_log`');
  });

  it('looks a short event name up under each namespace in turn, and takes a full name as written', async () => {
    const { renderer } = setup();
    const short = await renderer.render(page('<Event name="OrderShipped" />\n'), context());
    expect(short.markdown).toContain('**Event** `events.OrderShipped`');
    expect(short.markdown).toContain('| `orderId` | `integer` | yes | The order shipped. |');
    const elsewhere = { ...SETTINGS, events: { namespaces: ['billing'] } };
    const missed = await renderer.render(page('<Event name="OrderShipped" />\n'), context(elsewhere));
    expect(missed.problems).toMatchObject([{ rule: 'references.unknown' }]);
    expect(missed.problems[0]?.fix).toContain('Write its full name ("events.OrderShipped")');
    const full = await renderer.render(page('<Event name="events.OrderShipped" />\n'), context(elsewhere));
    expect(full.problems).toEqual([]);
  });

  it('makes what a reference says searchable in the page sections', async () => {
    const { renderer } = setup();
    const out = await renderer.render(page('# Orders\n\n<Event name="OrderShipped" />\n'), context());
    expect(out.sections[0]?.text).toContain('An order left the warehouse.');
    expect(out.sections[0]?.text).toContain('orderId');
  });

  it('renders again when the application registers a different catalog', async () => {
    const { registry, renderer } = setup();
    const before = await renderer.render(page('<Event name="OrderShipped" />\n'), context());
    expect(before.problems).toEqual([]);
    registry.register({ events: [] });
    const after = await renderer.render(page('<Event name="OrderShipped" />\n'), context());
    expect(after.problems).toMatchObject([{ rule: 'references.unknown' }]);
  });

  it('lets an application component of the same name replace a built-in one', async () => {
    const registry = createReferenceRegistry();
    const components = createComponentRegistry();
    components.register('Route', { html: () => '<b>mine</b>', markdown: () => 'mine' });
    const renderer = createRenderer({ references: registry, components });
    const out = await renderer.render(page('<Route name="x" />\n'), context());
    expect(out.markdown.trim()).toBe('mine');
    expect(out.problems).toEqual([]);
  });
});
