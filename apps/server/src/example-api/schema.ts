import { relations } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/** People who placed an order, one row per email address. */
export const customers = pgTable('customers', {
  id: serial('id').primaryKey(),
  email: text('email').notNull().unique(),
  name: text('name'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Orders of the example shop; `status` moves from `pending` to `shipped`. */
export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    status: text('status').$type<'pending' | 'shipped'>().notNull().default('pending'),
    carrier: text('carrier'),
    placedAt: timestamp('placed_at', { withTimezone: true }).notNull().defaultNow(),
    shippedAt: timestamp('shipped_at', { withTimezone: true }),
  },
  (table) => [index('orders_status_idx').on(table.status)],
);

export const customersRelations = relations(customers, ({ many }) => ({ orders: many(orders) }));

export const ordersRelations = relations(orders, ({ one }) => ({
  customer: one(customers, { fields: [orders.customerId], references: [customers.id] }),
}));

/** The tables as created on a fresh database (the example keeps no migrations folder of its own). */
export const CREATE_TABLES = `
CREATE TABLE IF NOT EXISTS customers (
  id serial PRIMARY KEY,
  email text NOT NULL UNIQUE,
  name text,
  created_at timestamp with time zone NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS orders (
  id serial PRIMARY KEY,
  customer_id integer NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'pending',
  carrier text,
  placed_at timestamp with time zone NOT NULL DEFAULT now(),
  shipped_at timestamp with time zone
);
CREATE INDEX IF NOT EXISTS orders_status_idx ON orders (status);
`;
