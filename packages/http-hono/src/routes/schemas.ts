import { rebaseSchema, type SchemaName, schemaNames, schemas } from '@kit/core/internal';
import type { Context } from 'hono';
import { sendCached } from '../http-cache.js';
import { type OriginOptions, originVouchedFor, requestOrigin } from '../request/origin.js';

const SCHEMA_HEADERS = { 'Access-Control-Allow-Origin': '*' };

/**
 * A JSON schema by its file name, its `$id` rebased onto this site's `/schemas/3.x/`; private to
 * the caller when that origin is only what the request's Host said.
 */
export function serveSchema(c: Context, options: OriginOptions): Response {
  const name = schemaOfFile(c.req.param('file')!);
  if (!name) return c.notFound() as Response;
  const body = JSON.stringify(rebaseSchema(name, `${requestOrigin(c, options)}/schemas/3.x/`), null, 2);
  return sendCached(c, body, {
    contentType: 'application/schema+json',
    isPrivate: !originVouchedFor(c, options),
    headers: SCHEMA_HEADERS,
  });
}

/**
 * The schema a served file name stands for: its interface name (`larecipe.json`) or the file name
 * of its `$id` (`kit.json`), so the `$id` written into manifests resolves too.
 */
function schemaOfFile(file: string): SchemaName | null {
  if (!file.endsWith('.json')) return null;
  return (
    schemaNames.find((name) => file === `${name}.json` || String(schemas[name].$id ?? '').endsWith(`/${file}`)) ?? null
  );
}
