import { createHash } from 'node:crypto';
import type { DocSet, Viewer } from '@kit/core';
import { isSharedResponse } from '@kit/core/internal';
import type { Context } from 'hono';
import { clientIp, currentUser } from '../middleware.js';

/** The viewer of a request: the resolved user and the caller's address. */
export function viewerFor(c: Context): Viewer {
  return { user: currentUser(c), ip: clientIp(c) };
}

/** A response depends on who asks unless the set is public and the reader is a guest. */
export function isPrivateFor(set: DocSet, c: Context): boolean {
  return !isSharedResponse(set.config.access.mode, currentUser(c));
}

/** Rate limits count per caller: the user when signed in, else the address. */
export function callerKey(c: Context): string {
  const user = currentUser(c) as { id?: unknown } | null;
  if (user === null) return `ip:${clientIp(c)}`;
  if (typeof user === 'object' && user.id !== undefined) return `user:${String(user.id)}`;
  return `user:${createHash('sha256').update(JSON.stringify(user)).digest('hex').slice(0, 16)}`;
}
