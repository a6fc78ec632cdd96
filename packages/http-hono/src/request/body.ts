import { KitError } from '@kit/core';
import { readBoundedText } from '@kit/core/internal';
import type { Context } from 'hono';

/** What {@link readJson} says about a body it refuses. */
export interface BodyMessages {
  type: string;
  size: string;
  shape: string;
}

/** A JSON request body as {@link readJson} read it, or why it was refused and with which status. */
export type JsonBody = { ok: true; value: unknown } | { ok: false; status: 400 | 413 | 415; message: string };

/**
 * Reads a request's JSON object body, at most `maxBytes` of it: 415 for another content type, 413
 * past the limit (the rest is not read), 400 for anything but a JSON object.
 */
export async function readJson(c: Context, maxBytes: number, messages: BodyMessages): Promise<JsonBody> {
  if (!(c.req.header('content-type') ?? '').includes('application/json')) {
    return { ok: false, status: 415, message: messages.type };
  }
  const body = await readBoundedText(c.req.raw, maxBytes);
  if (!body.ok) return { ok: false, status: 413, message: messages.size };
  try {
    const value = JSON.parse(body.text) as unknown;
    if (!value || typeof value !== 'object') throw new KitError('argument.invalid', 'not an object');
    return { ok: true, value };
  } catch {
    return { ok: false, status: 400, message: messages.shape };
  }
}

/** The headers of a refused body: past the limit, closing the connection stops the rest of the upload. */
export function refusedBodyHeaders(status: 400 | 413 | 415): Record<string, string> {
  return status === 413 ? { Connection: 'close' } : {};
}
