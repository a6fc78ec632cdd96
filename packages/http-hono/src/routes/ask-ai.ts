import type { AskEvent, AskService } from '@kit/ai';
import type { DocSet, RateLimitStore } from '@kit/core';
import { loadOptionalPeer } from '@kit/core/node';
import type { Context, Hono } from 'hono';
import type { KitEnv } from '../middleware.js';
import type { KitAppOptions } from '../options.js';
import { readJson, refusedBodyHeaders } from '../request/body.js';
import { callerKey, viewerFor } from '../request/caller.js';
import { namesType } from '../request/negotiation.js';
import { requestOrigin } from '../request/origin.js';
import type { SetGuards } from './guards.js';

/** The Ask AI service of an app, loaded with `@kit/ai` on the first question. */
export interface AskLoader {
  get(): Promise<{ ok: true; ask: AskService } | { ok: false; message: string }>;
}

/** The command that installs Ask AI with its default provider (kept equal to `ASK_INSTALL_COMMAND`). */
const ASK_INSTALL = 'npm install @kit/ai ai @ai-sdk/openai';

/** Loads Ask AI once, on the first call of `get`; a missing `@kit/ai` is a message, not a failure. */
export function askLoader(options: KitAppOptions, store: RateLimitStore): AskLoader {
  let loaded: ReturnType<AskLoader['get']> | undefined;
  return {
    get() {
      loaded ??= loadOptionalPeer(() => import('@kit/ai'), '@kit/ai', 'Ask AI').then(
        ({ createAsk }) => ({ ok: true as const, ask: createAsk({ ...options.ask, kit: options.kit, store }) }),
        (error: unknown) => {
          const message = `Ask AI needs the optional package @kit/ai, which is not installed on this server. Install it (${ASK_INSTALL}) and restart.`;
          console.warn(`[kit] ${message} (${(error as Error).message})`);
          return { ok: false as const, message };
        },
      );
      return loaded;
    },
  };
}

/**
 * `POST /_kit/ask`, Ask AI: checked and counted before any provider is called; the answer streams
 * as server-sent events (`Accept: text/event-stream`, what the reader UI sends), or arrives whole
 * as JSON.
 */
export function askAiRoute(
  app: Hono<KitEnv>,
  { set, options, asker, guards }: { set: DocSet; options: KitAppOptions; asker: AskLoader; guards: SetGuards },
): void {
  app.post('/_kit/ask', guards.page, guards.signIn, async (c) => {
    const ask = set.config.ai.ask;
    if (!ask.enabled) {
      return c.json(
        { error: 'ask.disabled', message: `Ask AI is off for the "${set.key}" docs (ai.ask.enabled is false).` },
        404,
      );
    }
    const service = await asker.get();
    if (!service.ok) return c.json({ error: 'ask.unavailable', message: service.message }, 503);
    // Room for the longest question and history the limits allow, each character escaped in JSON.
    const maxBytes = 6 * (ask.max_question_length + ask.max_history_length) + 64 * ask.max_messages + 1024;
    const body = await readJson(c, maxBytes, {
      type: 'Send the question as JSON with Content-Type: application/json.',
      size: `The body is larger than ${maxBytes} bytes: the conversation is longer than ai.ask.max_question_length and ai.ask.max_history_length allow. Start a new conversation.`,
      shape: 'The body is not a JSON object like {"messages":[{"role":"user","content":"How do I retry jobs?"}]}.',
    });
    if (!body.ok)
      return c.json({ error: 'ask.invalid', message: body.message }, body.status, refusedBodyHeaders(body.status));
    const result = await service.ask.ask({
      set: set.key,
      viewer: viewerFor(c),
      caller: callerKey(c),
      body: body.value,
      signal: c.req.raw.signal,
      origin: requestOrigin(c, options),
    });
    if (!result.ok) {
      const headers: Record<string, string> =
        result.retryAfterSeconds !== undefined ? { 'Retry-After': String(result.retryAfterSeconds) } : {};
      return c.json(
        { error: result.code, message: result.message, ...(result.limit ? { limit: result.limit } : {}) },
        result.status,
        headers,
      );
    }
    // An agent without a stream reader gets the answer whole.
    if (!namesType(c.req.header('accept'), 'text/event-stream')) return wholeAnswer(c, result.events);
    // Sent as it is written: never compressed (which would hold text back) nor cached.
    c.set('kitEncoded', true);
    return new Response(eventStream(result.events), {
      headers: {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        'X-Accel-Buffering': 'no',
      },
    });
  });
}

/** The answer's events gathered into one JSON response. */
async function wholeAnswer(c: Context, events: AsyncIterable<AskEvent>): Promise<Response> {
  let answer = '';
  for await (const event of events) {
    if (event.type === 'text') answer += event.delta;
    else if (event.type === 'error') return c.json({ error: event.code, message: event.message }, 502);
    else if (event.type === 'done') {
      const { type: _type, ...rest } = event;
      return c.json({ answer, ...rest }, 200, { 'Cache-Control': 'no-store' });
    }
  }
  return c.json({ error: 'ask.provider_failed', message: 'The answer ended early. Ask again.' }, 502);
}

/** The answer's events as server-sent events, each written as it arrives. */
function eventStream(source: AsyncIterable<AskEvent>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const events = source[Symbol.asyncIterator]();
  // The reader may stop (or leave) while an event is on its way: nothing is written after that.
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: string | null;
      try {
        const next = await events.next();
        chunk = next.done ? null : `data: ${JSON.stringify(next.value)}\n\n`;
      } catch (error) {
        console.error(error);
        chunk = `data: ${JSON.stringify({ type: 'error', code: 'internal', message: 'Something went wrong on the server.' })}\n\n`;
        if (!cancelled) controller.enqueue(encoder.encode(chunk));
        chunk = null;
      }
      if (cancelled) return;
      if (chunk === null) controller.close();
      else controller.enqueue(encoder.encode(chunk));
    },
    async cancel() {
      cancelled = true;
      await events.return?.(undefined);
    },
  });
}
