import { relations, sql } from 'drizzle-orm';
import { index, integer, pgSchema, pgTable, primaryKey, serial, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { drizzleModels } from './references.js';
import { createKitTables } from './tables.js';

const customers = pgTable('customers', {
  id: serial('id').primaryKey(),
  email: text('email').notNull().unique(),
  name: text('name'),
});

const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('pending'),
    placedAt: timestamp('placed_at', { withTimezone: true }).notNull().defaultNow(),
    reference: text('reference').$defaultFn(() => 'ord_x'),
  },
  (table) => [index('orders_status_idx').on(table.status)],
);

const internal = pgSchema('internal');
const orderTags = internal.table(
  'order_tags',
  { orderId: integer('order_id').notNull(), tag: text('tag').notNull() },
  (table) => [primaryKey({ columns: [table.orderId, table.tag] }), unique('order_tags_tag').on(table.tag)],
);

const customersRelations = relations(customers, ({ many }) => ({ orders: many(orders) }));
const ordersRelations = relations(orders, ({ one }) => ({
  customer: one(customers, { fields: [orders.customerId], references: [customers.id] }),
}));

describe('drizzleModels', () => {
  const models = drizzleModels({ customers, orders, orderTags, customersRelations, ordersRelations, sql });

  it('describes each table: columns, SQL types, nullability, defaults and keys', () => {
    expect(models.map((model) => model.name)).toEqual(['customers', 'orders', 'order_tags']);
    const order = models[1];
    expect(order?.columns).toEqual([
      { name: 'id', type: 'serial', nullable: false, default: null, primaryKey: true, unique: false },
      { name: 'customer_id', type: 'integer', nullable: false, default: null, primaryKey: false, unique: false },
      { name: 'status', type: 'text', nullable: false, default: "'pending'", primaryKey: false, unique: false },
      {
        name: 'placed_at',
        type: 'timestamp with time zone',
        nullable: false,
        default: 'now()',
        primaryKey: false,
        unique: false,
      },
      {
        name: 'reference',
        type: 'text',
        nullable: true,
        default: '(set by the application)',
        primaryKey: false,
        unique: false,
      },
    ]);
    expect(order?.primaryKey).toEqual(['id']);
    expect(order?.foreignKeys).toMatchObject([
      { columns: ['customer_id'], table: 'customers', references: ['id'], onDelete: 'cascade' },
    ]);
    expect(order?.indexes).toEqual([{ name: 'orders_status_idx', columns: ['status'], unique: false }]);
    expect(models[0]?.columns.find((column) => column.name === 'email')?.unique).toBe(true);
  });

  it('gives the relations declared in the same schema, and a composite key in its schema', () => {
    expect(models[0]?.relations).toEqual([{ name: 'orders', kind: 'many', table: 'orders' }]);
    expect(models[1]?.relations).toEqual([{ name: 'customer', kind: 'one', table: 'customers' }]);
    expect(models[2]).toMatchObject({ schema: 'internal', primaryKey: ['order_id', 'tag'] });
    expect(models[2]?.columns.find((column) => column.name === 'tag')?.unique).toBe(true);
  });

  it("never describes Kit's own tables, even under other names or schemas", () => {
    const kit = createKitTables({ schema: 'docs_store', models: { page: 'app_pages' } });
    const listed = drizzleModels({ ...kit, orders });
    expect(listed.map((model) => model.name)).toEqual(['orders']);
  });
});
