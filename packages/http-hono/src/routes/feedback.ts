import { type DocSet, isRequestError, type RateLimitStore } from '@kit/core';
import { checkRateLimit, parseRateLimit } from '@kit/core/internal';
import type { Hono } from 'hono';
import type { KitEnv } from '../middleware.js';
import { type BodyMessages, readJson, refusedBodyHeaders } from '../request/body.js';
import { callerKey, viewerFor } from '../request/caller.js';
import type { SetGuards } from './guards.js';

/** Largest feedback body read: a 2000-character comment, its page path and room to spare. */
const FEEDBACK_MAX_BODY_BYTES = 8 * 1024;

const FEEDBACK_BODY: BodyMessages = {
  type: 'Send the feedback as JSON with Content-Type: application/json.',
  size: `The body is larger than ${FEEDBACK_MAX_BODY_BYTES} bytes; keep comments under 2000 characters.`,
  shape: 'The body is not a JSON object like {"path":"intro","helpful":true}.',
};

/** `POST /_kit/feedback`: the reader's "was this page helpful?" widget, rate-limited per caller. */
export function feedbackRoute(
  app: Hono<KitEnv>,
  { set, rateLimits, guards }: { set: DocSet; rateLimits: RateLimitStore; guards: SetGuards },
): void {
  const rule = parseRateLimit(set.config.feedback.rate_limit, 'feedback.rate_limit');
  app.post('/_kit/feedback', guards.page, guards.signIn, async (c) => {
    if (!set.config.feedback.enabled) return c.notFound();
    const verdict = await checkRateLimit(rateLimits, `feedback:${set.key}:${callerKey(c)}`, rule);
    if (!verdict.allowed) {
      return c.json(
        {
          error: 'rate_limited',
          message: `Too much feedback at once. Retry after ${verdict.retryAfterSeconds} seconds.`,
        },
        429,
        { 'Retry-After': String(verdict.retryAfterSeconds) },
      );
    }
    const body = await readJson(c, FEEDBACK_MAX_BODY_BYTES, FEEDBACK_BODY);
    if (!body.ok) {
      return c.json({ error: 'argument.invalid', message: body.message }, body.status, refusedBodyHeaders(body.status));
    }
    const input = body.value as Record<string, unknown>;
    try {
      await set.submitFeedback(
        {
          path: String(input.path ?? ''),
          helpful: input.helpful as boolean,
          ...(typeof input.comment === 'string' && input.comment !== '' ? { comment: input.comment } : {}),
          ...(typeof input.version === 'string' ? { version: input.version } : {}),
          ...(typeof input.locale === 'string' ? { locale: input.locale } : {}),
        },
        viewerFor(c),
        'widget',
      );
    } catch (error) {
      if (isRequestError(error)) {
        const status = error.code === 'page.not_found' ? 404 : 400;
        return c.json({ error: error.code, message: error.message }, status);
      }
      throw error;
    }
    return c.json({ ok: true });
  });
}
