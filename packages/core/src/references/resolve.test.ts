import { describe, expect, it } from 'vitest';
import { configDefaults } from '../config/defaults.js';
import { createReferenceRegistry, defaultReferences, registerReferences } from './catalog.js';
import { globMatch, lookupEvent, lookupModel, lookupRoute, nearestNames, routeAllowed } from './resolve.js';
import { eventTypes, schemaFields } from './schema-fields.js';
import type { ReferenceCatalog, RouteReference } from './types.js';

const route = (overrides: Partial<RouteReference>): RouteReference => ({
  name: null,
  method: 'GET',
  path: '/',
  parameters: [],
  middleware: [],
  inputs: [],
  package: null,
  ...overrides,
});

const catalog: ReferenceCatalog = {
  routes: [
    route({ name: 'users.show', path: '/users/:id{[0-9]+}' }),
    route({ name: 'users.update', method: 'PATCH', path: '/users/:id{[0-9]+}' }),
    route({ name: 'users.store', method: 'POST', path: '/users' }),
    route({ path: '/vendor/panel', package: 'vendor-panel' }),
  ],
  models: [],
  events: [
    { name: 'events.OrderShipped', fields: [] },
    { name: 'billing.InvoicePaid', fields: [] },
  ],
};
const settings = structuredClone(configDefaults.references);

describe('reference rules', () => {
  it('matches * across any characters, and nothing else as a wildcard', () => {
    expect(globMatch('users.*', 'users.show')).toBe(true);
    expect(globMatch('/api/*', '/api/users/:id')).toBe(true);
    expect(globMatch('users.?', 'users.a')).toBe(false);
    expect(globMatch('users', 'users.show')).toBe(false);
  });

  it('finds a route by path without the parameter patterns, GET first, else the only method', () => {
    expect(lookupRoute(catalog, { path: '/users/:id' }, settings).found?.name).toBe('users.show');
    expect(lookupRoute(catalog, { path: '/users/:id', method: 'patch' }, settings).found?.name).toBe('users.update');
    expect(lookupRoute(catalog, { path: '/users/' }, settings).found?.name).toBe('users.store');
  });

  it('asks for a name or a path when a <Route> has neither', () => {
    expect(lookupRoute(catalog, {}, settings).problem).toMatchObject({
      rule: 'references.unknown',
      fix: 'Write <Route name="users.show" /> or <Route path="/users/:id" method="GET" />.',
    });
  });

  it('keeps routes of other packages out under null, lets the application’s and Kit’s in', () => {
    expect(routeAllowed(route({ package: 'vendor-panel' }), null)).toBe(false);
    expect(routeAllowed(route({ package: '@kit/http-hono' }), null)).toBe(true);
    expect(routeAllowed(route({}), null)).toBe(true);
    expect(lookupRoute(catalog, { path: '/vendor/panel' }, settings).problem?.rule).toBe('references.denied');
  });

  it('suggests the nearest names, closest first', () => {
    expect(nearestNames('user.show', ['orders.index', 'users.store', 'users.shows', 'users.show'])).toEqual([
      'users.show',
      'users.shows',
    ]);
    expect(nearestNames('zzz', ['users.show'])).toEqual([]);
  });

  it('looks short event names up under the namespaces in their order', () => {
    const both = { ...settings, events: { namespaces: ['billing', 'events'] } };
    expect(lookupEvent(catalog, { name: 'InvoicePaid' }, both).found?.name).toBe('billing.InvoicePaid');
    expect(lookupEvent(catalog, { name: 'InvoicePaid' }, settings).problem?.suggestions).toEqual([
      'billing.InvoicePaid',
    ]);
  });

  it('reports a table the catalog does not have, naming what it has', () => {
    const withUsers = {
      ...catalog,
      models: [
        { name: 'users', schema: null, columns: [], primaryKey: [], foreignKeys: [], relations: [], indexes: [] },
      ],
    };
    expect(lookupModel(withUsers, { name: 'user' }, settings).problem?.fix).toContain('Did you mean "users"?');
  });
});

describe('schema fields', () => {
  it('reads a JSON Schema: types, formats, enums, unions, nullability, defaults, nested objects', () => {
    expect(
      schemaFields({
        type: 'object',
        required: ['id', 'address'],
        properties: {
          id: { type: 'integer', description: 'The id.' },
          email: { type: 'string', format: 'email' },
          role: { enum: ['admin', 'reader'], default: 'reader' },
          note: { type: ['string', 'null'] },
          tags: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } },
          address: { $ref: '#/$defs/address' },
        },
        $defs: { address: { type: 'object', required: ['city'], properties: { city: { type: 'string' } } } },
      }),
    ).toEqual([
      { name: 'id', type: 'integer', required: true, description: 'The id.' },
      { name: 'email', type: 'string (email)', required: false },
      { name: 'role', type: '"admin" | "reader"', required: false, default: '"reader"' },
      { name: 'note', type: 'string | null', required: false },
      { name: 'tags', type: '(string | number)[]', required: false },
      { name: 'address', type: 'object', required: true },
      { name: 'address.city', type: 'string', required: true },
    ]);
  });

  it('uses the JSON Schema converter of a Standard Schema, and gives null when there is none', () => {
    const standard = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: () => ({ value: {} }),
        jsonSchema: { input: () => ({ type: 'object', properties: { a: { type: 'boolean' } } }) },
      },
    };
    expect(schemaFields(standard)).toEqual([{ name: 'a', type: 'boolean', required: false }]);
    expect(schemaFields({ '~standard': { version: 1, vendor: 'test', validate: () => ({ value: {} }) } })).toBeNull();
  });

  it('turns event schemas into event types with the description as their doc comment', () => {
    expect(
      eventTypes({
        'events.OrderShipped': {
          type: 'object',
          description: 'An order left.',
          properties: { id: { type: 'integer' } },
          required: ['id'],
        },
      }),
    ).toEqual([
      {
        name: 'events.OrderShipped',
        description: 'An order left.',
        fields: [{ name: 'id', type: 'integer', required: true }],
      },
    ]);
  });
});

describe('the reference registry', () => {
  it('replaces only the kinds given, and changes its fingerprint with its content', () => {
    const registry = createReferenceRegistry();
    const empty = registry.fingerprint();
    registry.register({ routes: catalog.routes });
    registry.register({ events: catalog.events });
    expect(registry.catalog().routes).toHaveLength(4);
    expect(registry.fingerprint()).not.toBe(empty);
    expect(registry.registered()).toBe(true);
  });

  it('shares the default catalog through globalThis, as a second module instance would find it', () => {
    registerReferences({ models: [] });
    const shared = (globalThis as Record<symbol, unknown>)[Symbol.for('kit.core.defaultReferences')];
    expect(shared).toBe(defaultReferences);
  });
});
