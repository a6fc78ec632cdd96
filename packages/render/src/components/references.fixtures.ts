import type { ReferenceCatalog } from '@kit/core';

/** A catalog as the Hono, drizzle and event adapters would build it for a small shop API. */
export const SHOP_CATALOG: ReferenceCatalog = {
  routes: [
    {
      name: 'orders.show',
      method: 'GET',
      path: '/api/orders/:id',
      parameters: [{ name: 'id', type: 'integer', required: true, description: 'The order id.' }],
      middleware: ['auth', 'etag'],
      inputs: [
        {
          target: 'query',
          fields: [
            { name: 'include', type: '"items" | "customer"', required: false, description: 'Relations | to embed.' },
          ],
        },
      ],
      package: null,
    },
    {
      name: 'orders.store',
      method: 'POST',
      path: '/api/orders',
      parameters: [],
      middleware: [],
      inputs: [
        {
          target: 'json',
          fields: [
            { name: 'email', type: 'string (email)', required: true, description: 'Where the receipt goes.' },
            { name: 'items', type: 'object[]', required: true },
            { name: 'items[].sku', type: 'string', required: true },
            { name: 'items[].quantity', type: 'integer', required: false, default: '1' },
          ],
        },
      ],
      package: null,
    },
    {
      name: null,
      method: 'GET',
      path: '/swagger',
      parameters: [],
      middleware: [],
      inputs: [],
      package: '@hono/swagger-ui',
    },
    {
      name: 'kit.docs.search',
      method: 'GET',
      path: '/docs/search',
      parameters: [],
      middleware: ['web'],
      inputs: [],
      package: '@kit/http-hono',
    },
  ],
  models: [
    {
      name: 'orders',
      schema: null,
      columns: [
        { name: 'id', type: 'serial', nullable: false, default: null, primaryKey: true, unique: false },
        { name: 'customer_id', type: 'integer', nullable: false, default: null, primaryKey: false, unique: false },
        { name: 'status', type: 'text', nullable: false, default: "'pending'", primaryKey: false, unique: false },
        {
          name: 'shipped_at',
          type: 'timestamp with time zone',
          nullable: true,
          default: null,
          primaryKey: false,
          unique: false,
        },
      ],
      primaryKey: ['id'],
      foreignKeys: [
        {
          name: 'orders_customer_id_fk',
          columns: ['customer_id'],
          table: 'customers',
          references: ['id'],
          onDelete: 'cascade',
        },
      ],
      relations: [{ name: 'customer', kind: 'one', table: 'customers' }],
      indexes: [{ name: 'orders_status_idx', columns: ['status'], unique: false }],
    },
    {
      name: 'audit_log',
      schema: 'internal',
      columns: [{ name: 'id', type: 'bigint', nullable: false, default: null, primaryKey: true, unique: false }],
      primaryKey: ['id'],
      foreignKeys: [],
      relations: [],
      indexes: [],
    },
  ],
  events: [
    {
      name: 'events.OrderShipped',
      description: 'An order left the warehouse.',
      fields: [
        { name: 'orderId', type: 'integer', required: true, description: 'The order shipped.' },
        { name: 'carrier', type: 'string', required: false },
      ],
    },
  ],
};
