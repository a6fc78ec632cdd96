import { PGlite } from '@electric-sql/pglite';
import { zValidator as zv } from '@hono/zod-validator';
import { describeValidators, namedMiddleware, routeName } from '@kit/http-hono';
import { and, desc, eq } from 'drizzle-orm';
import { drizzle, type PgliteDatabase } from 'drizzle-orm/pglite';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { requestId } from 'hono/request-id';
import { z } from 'zod';
import { createShopEvents, type ShopEventBus } from './events.js';
import { CREATE_TABLES, customers, orders } from './schema.js';

// The only line Kit asks of an API that uses zod validators: their schemas then show in <Route>.
const zValidator = describeValidators(zv);

const orderId = z.object({ id: z.coerce.number().int().positive().describe('Id of the order.') });

/** Options of {@link createExampleApi}. */
export interface ExampleApiOptions {
  /** The shop's event bus; default: a new one. */
  events?: ShopEventBus;
  /** The database; default: embedded PGlite in memory, opened on the first request. */
  database?: () => Promise<PgliteDatabase>;
}

function memoryDatabase(): () => Promise<PgliteDatabase> {
  let opened: Promise<PgliteDatabase> | null = null;
  return () => {
    opened ??= (async () => {
      const client = await PGlite.create();
      await client.exec(CREATE_TABLES);
      return drizzle({ client });
    })();
    return opened;
  };
}

/**
 * The reference server's example API: a small shop (customers place orders, the warehouse ships
 * them) with zod validators, drizzle tables and typed events, mounted at `/api`. It exists so Kit's
 * own docs can show `<Route>`, `<Model>` and `<Event>` describing real code.
 */
export function createExampleApi(options: ExampleApiOptions = {}) {
  const events = options.events ?? createShopEvents();
  const database = options.database ?? memoryDatabase();
  const api = new Hono();
  api.use('*', namedMiddleware('request-id', requestId()));

  api.get(
    '/orders',
    routeName('orders.index'),
    zValidator(
      'query',
      z.object({
        status: z.enum(['pending', 'shipped']).optional().describe('Only orders with this status.'),
        limit: z.coerce.number().int().min(1).max(100).default(20).describe('Most orders returned, newest first.'),
      }),
    ),
    async (c) => {
      const { status, limit } = c.req.valid('query');
      const db = await database();
      const rows = await db
        .select()
        .from(orders)
        .where(status ? eq(orders.status, status) : undefined)
        .orderBy(desc(orders.id))
        .limit(limit);
      return c.json({ orders: rows });
    },
  );

  api.post(
    '/orders',
    routeName('orders.store'),
    namedMiddleware('body-limit', bodyLimit({ maxSize: 16 * 1024 })),
    zValidator(
      'json',
      z.object({
        email: z.email().describe('Customer email; a new customer is created for an unknown one.'),
        name: z.string().min(1).max(200).optional().describe("Customer's name, kept from the first order."),
      }),
    ),
    async (c) => {
      const { email, name } = c.req.valid('json');
      const db = await database();
      const [customer] = await db
        .insert(customers)
        .values({ email, name: name ?? null })
        .onConflictDoUpdate({ target: customers.email, set: { email } })
        .returning();
      const [order] = await db
        .insert(orders)
        .values({ customerId: (customer as { id: number }).id })
        .returning();
      const placed = order as typeof orders.$inferSelect;
      await events.emit('events.OrderPlaced', { orderId: placed.id, email });
      return c.json({ order: placed }, 201);
    },
  );

  api.get('/orders/:id', routeName('orders.show'), zValidator('param', orderId), async (c) => {
    const { id } = c.req.valid('param');
    const db = await database();
    const [order] = await db.select().from(orders).where(eq(orders.id, id));
    return order ? c.json({ order }) : c.json({ error: 'order.not_found', message: `No order ${id}.` }, 404);
  });

  api.post(
    '/orders/:id/ship',
    routeName('orders.ship'),
    zValidator('param', orderId),
    zValidator('json', z.object({ carrier: z.string().min(1).max(100).describe('Carrier taking the parcel.') })),
    async (c) => {
      const { id } = c.req.valid('param');
      const { carrier } = c.req.valid('json');
      const db = await database();
      const shippedAt = new Date();
      const [order] = await db
        .update(orders)
        .set({ status: 'shipped', carrier, shippedAt })
        .where(and(eq(orders.id, id), eq(orders.status, 'pending')))
        .returning();
      if (!order) {
        const [existing] = await db.select({ id: orders.id }).from(orders).where(eq(orders.id, id));
        return existing
          ? c.json({ error: 'order.shipped', message: `Order ${id} has shipped already.` }, 409)
          : c.json({ error: 'order.not_found', message: `No order ${id}.` }, 404);
      }
      await events.emit('events.OrderShipped', { orderId: id, carrier, shippedAt: shippedAt.toISOString() });
      return c.json({ order });
    },
  );
  return api;
}
