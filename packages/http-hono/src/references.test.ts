import { zValidator as zv } from '@hono/zod-validator';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeValidators, honoRoutes, markPackageRoutes, namedMiddleware, routeName } from './references.js';

const zValidator = describeValidators(zv);

function shopApi() {
  const api = new Hono();
  const requireUser = namedMiddleware('auth', async (_c, next) => {
    await next();
  });
  api.use('/orders/*', requireUser);
  api.get(
    '/orders/:id{[0-9]+}',
    routeName('orders.show'),
    zValidator('param', z.object({ id: z.coerce.number().int().describe('The order id.') })),
    zValidator('query', z.object({ include: z.enum(['items', 'customer']).optional() })),
    (c) => c.json({ id: c.req.valid('param').id }),
  );
  api.post(
    '/orders',
    routeName('orders.store'),
    zValidator(
      'json',
      z.object({
        email: z.email().describe('Where the receipt goes.'),
        items: z.array(z.object({ sku: z.string(), quantity: z.number().int().default(1) })).min(1),
      }),
    ),
    async function rateLimited(_c, next) {
      await next();
    },
    (c) => c.json(c.req.valid('json'), 201),
  );
  api.delete('/orders/:id/:reason?', (c) => c.body(null, 204));
  return api;
}

describe('honoRoutes', () => {
  it('lists each route with its name, parameters, middleware and validated input', () => {
    const routes = honoRoutes(shopApi(), { prefix: '/api' });
    expect(routes.map((route) => `${route.method} ${route.path} ${route.name}`)).toEqual([
      'GET /api/orders/:id{[0-9]+} orders.show',
      'POST /api/orders orders.store',
      'DELETE /api/orders/:id/:reason? null',
    ]);
    const [show, store, remove] = routes;
    expect(show).toMatchObject({
      parameters: [{ name: 'id', type: 'integer', required: true, description: 'The order id.' }],
      middleware: ['auth'],
      inputs: [{ target: 'query', fields: [{ name: 'include', type: '"items" | "customer"', required: false }] }],
      package: null,
    });
    // `/orders/*` covers `/orders` too, as Hono runs it there.
    expect(store?.middleware).toEqual(['auth', 'rateLimited']);
    expect(store?.inputs).toEqual([
      {
        target: 'json',
        fields: [
          { name: 'email', type: 'string (email)', required: true, description: 'Where the receipt goes.' },
          { name: 'items', type: 'object[]', required: true },
          { name: 'items[].sku', type: 'string', required: true },
          { name: 'items[].quantity', type: 'integer', required: false, default: '1' },
        ],
      },
    ]);
    expect(remove?.parameters).toEqual([
      { name: 'id', type: 'string', required: true },
      { name: 'reason', type: 'string', required: false },
    ]);
  });

  it('keeps the validators working: the wrapped factory validates as the original', async () => {
    const api = shopApi();
    expect((await api.request('/orders/12')).status).toBe(200);
    const bad = await api.request('/orders', {
      method: 'POST',
      body: JSON.stringify({ email: 'nope', items: [] }),
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
  });

  it('sees routes through a mounted sub-app, also one with its own error handler', () => {
    const api = shopApi();
    api.onError((error, c) => c.json({ error: error.message }, 500));
    const host = new Hono();
    host.get('/', (c) => c.text('home'));
    host.route('/api', api);
    const routes = honoRoutes(host);
    expect(routes.map((route) => `${route.method} ${route.path}`)).toEqual([
      'GET /',
      'GET /api/orders/:id{[0-9]+}',
      'POST /api/orders',
      'DELETE /api/orders/:id/:reason?',
    ]);
    expect(routes[1]).toMatchObject({ name: 'orders.show', middleware: ['auth'] });
  });

  it('names the package that registered a route, through mounting', () => {
    const vendor = new Hono();
    vendor.get('/ui', (c) => c.html('<p>swagger</p>'));
    const host = new Hono();
    host.route('/swagger', markPackageRoutes(vendor, '@hono/swagger-ui'));
    host.get('/health', (c) => c.text('ok'));
    expect(honoRoutes(host).map((route) => [route.path, route.package])).toEqual([
      ['/swagger/ui', '@hono/swagger-ui'],
      ['/health', null],
    ]);
  });
});
