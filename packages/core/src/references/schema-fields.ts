import type { EventReference, SchemaField } from './types.js';

type JsonSchema = Record<string, unknown>;

/**
 * The JSON Schema of a validator schema: a Standard Schema with a JSON Schema converter
 * (`~standard.jsonSchema`), a schema with a `toJSONSchema()` method (zod 4), or a JSON Schema as
 * written. Null when the schema cannot say what it accepts.
 */
export function toJsonSchema(schema: unknown): JsonSchema | null {
  if (!schema || typeof schema !== 'object') return null;
  const standard = (schema as { '~standard'?: { jsonSchema?: { input?: (options: { target: string }) => unknown } } })[
    '~standard'
  ];
  const attempts: Array<() => unknown> = [];
  if (typeof standard?.jsonSchema?.input === 'function') {
    const input = standard.jsonSchema.input;
    attempts.push(() => input({ target: 'draft-2020-12' }));
  }
  const method = (schema as { toJSONSchema?: (options?: unknown) => unknown }).toJSONSchema;
  if (typeof method === 'function') {
    attempts.push(() => method.call(schema, { io: 'input', unrepresentable: 'any' }));
  }
  for (const attempt of attempts) {
    try {
      const result = attempt();
      if (result && typeof result === 'object') return result as JsonSchema;
    } catch {
      // A schema a converter cannot express (a transform, a custom check) tries the next one.
    }
  }
  if (standard) return null;
  const plain = schema as JsonSchema;
  return 'type' in plain || 'properties' in plain || 'anyOf' in plain || '$ref' in plain ? plain : null;
}

/**
 * The fields of an object schema, one row each, nested objects flattened with dotted names. Field
 * descriptions are the schema's own (`z.string().describe('...')`, a JSON Schema `description`).
 *
 * @example
 * schemaFields({ type: 'object', properties: { id: { type: 'integer', description: 'Order id' } }, required: ['id'] });
 * // [{ name: 'id', type: 'integer', required: true, description: 'Order id' }]
 */
export function schemaFields(schema: unknown): SchemaField[] | null {
  const json = toJsonSchema(schema);
  if (!json) return null;
  const fields: SchemaField[] = [];
  collectFields(resolveRef(json, json), json, '', true, fields, 0);
  return fields;
}

function collectFields(
  node: JsonSchema,
  root: JsonSchema,
  prefix: string,
  parentRequired: boolean,
  fields: SchemaField[],
  depth: number,
): void {
  const properties = node.properties as Record<string, JsonSchema> | undefined;
  if (!properties || typeof properties !== 'object') return;
  const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
  for (const [key, raw] of Object.entries(properties)) {
    const property = resolveRef(raw ?? {}, root);
    const name = `${prefix}${key}`;
    const field: SchemaField = { name, type: typeName(property, root), required: parentRequired && required.has(key) };
    if (typeof property.description === 'string' && property.description.trim() !== '') {
      field.description = property.description.trim();
    }
    if (property.default !== undefined) field.default = JSON.stringify(property.default);
    fields.push(field);
    // Three levels are what a table can show; deeper objects keep their `object` row.
    if (depth < 3 && property.properties) collectFields(property, root, `${name}.`, field.required, fields, depth + 1);
    const items = property.items ? resolveRef(property.items as JsonSchema, root) : null;
    if (depth < 3 && items?.properties) collectFields(items, root, `${name}[].`, field.required, fields, depth + 1);
  }
}

function resolveRef(node: JsonSchema, root: JsonSchema): JsonSchema {
  const ref = node.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return node;
  let target: unknown = root;
  for (const part of ref.slice(2).split('/')) {
    target = (target as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return target && typeof target === 'object' ? (target as JsonSchema) : node;
}

function typeName(node: JsonSchema, root: JsonSchema, depth = 0): string {
  if (depth > 4) return 'unknown';
  const schema = resolveRef(node, root);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(union)) return [...new Set(union.map((part) => typeName(part, root, depth + 1)))].join(' | ');
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : schema.type ? [schema.type as string] : [];
  if (types.length === 0) return schema.properties ? 'object' : 'unknown';
  return types
    .map((type) => {
      if (type === 'array') {
        const items = schema.items as JsonSchema | undefined;
        const item = items ? typeName(items, root, depth + 1) : 'unknown';
        return item.includes(' ') ? `(${item})[]` : `${item}[]`;
      }
      if (type === 'string' && typeof schema.format === 'string') return `string (${schema.format})`;
      return type;
    })
    .join(' | ');
}

/**
 * Event types for the catalog, from the payload schemas of the application's event bus: a map of
 * full event names (namespace first) to a Standard Schema, a zod 4 schema or a JSON Schema. The
 * schema's description is the event's doc comment, each field's description the field's.
 *
 * @example
 * eventTypes({ 'events.OrderShipped': z.object({ orderId: z.string().describe('The order shipped.') }) });
 */
export function eventTypes(schemas: Record<string, unknown>): EventReference[] {
  return Object.entries(schemas).map(([name, schema]) => {
    const json = toJsonSchema(schema);
    const event: EventReference = { name, fields: json ? (schemaFields(json) ?? []) : [] };
    if (typeof json?.description === 'string' && json.description.trim() !== '') {
      event.description = json.description.trim();
    }
    return event;
  });
}
