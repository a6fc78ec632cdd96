import type { RateLimitStore, ResolvedSetConfig } from '@kit/core';
import { checkRateLimit, parseRateLimit } from '@kit/core/internal';

/** One turn of a conversation as the reader's browser sends it. */
export interface AskMessage {
  role: 'user' | 'assistant';
  content: string;
}

/** Why a question is not answered, before any provider is called. */
export interface AskRefusal {
  ok: false;
  /** HTTP status a web door answers with. */
  status: 400 | 403 | 404 | 413 | 429 | 503;
  /** Stable code: `ask.disabled`, `ask.forbidden`, `ask.invalid`, `ask.limit`, `rate_limited`, `ask.daily_budget`, `ask.unavailable`. */
  code: string;
  message: string;
  /** Seconds before asking again makes sense (`Retry-After`). */
  retryAfterSeconds?: number;
  /** For `ask.limit`: the `ai.ask.*` key that refused. */
  limit?: string;
}

type AskSettings = ResolvedSetConfig['ai']['ask'];

const chars = (text: string) => [...text].length;

/**
 * Checks a conversation's shape and the length limits (`ai.ask.max_messages`,
 * `ai.ask.max_question_length`, `ai.ask.max_history_length`). The last message is the question,
 * from the reader; the others are the earlier turns. Each refusal names the limit and the fix.
 *
 * @example
 * const checked = checkConversation(body.messages, set.config.ai.ask);
 * if (!checked.ok) return c.json({ error: checked.code, message: checked.message }, checked.status);
 */
export function checkConversation(
  messages: unknown,
  ask: AskSettings,
): { ok: true; messages: AskMessage[] } | AskRefusal {
  const invalid = (message: string): AskRefusal => ({ ok: false, status: 400, code: 'ask.invalid', message });
  if (!Array.isArray(messages) || messages.length === 0) {
    return invalid(
      'Send the conversation as {"messages":[{"role":"user","content":"your question"}]}: earlier turns first, the question last.',
    );
  }
  for (const [index, message] of messages.entries()) {
    const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
    if ((role !== 'user' && role !== 'assistant') || typeof content !== 'string') {
      return invalid(
        `messages[${index}] must be {"role":"user"|"assistant","content":"text"}; got ${JSON.stringify(message)?.slice(0, 80)}.`,
      );
    }
  }
  const turns = messages as AskMessage[];
  const question = turns[turns.length - 1]!;
  if (question.role !== 'user') return invalid('The last message must be the question, with role "user".');
  if (question.content.trim() === '') return invalid('The question is empty. Type what you want to know.');
  if (turns.length > ask.max_messages) {
    return {
      ok: false,
      status: 400,
      code: 'ask.limit',
      limit: 'ai.ask.max_messages',
      message: `This conversation holds ${turns.length} messages; ai.ask.max_messages allows ${ask.max_messages}. Start a new conversation to ask more.`,
    };
  }
  const length = chars(question.content);
  if (length > ask.max_question_length) {
    return {
      ok: false,
      status: 400,
      code: 'ask.limit',
      limit: 'ai.ask.max_question_length',
      message: `The question is ${length} characters long; ai.ask.max_question_length allows ${ask.max_question_length}. Shorten it.`,
    };
  }
  const history = turns.slice(0, -1).reduce((sum, turn) => sum + chars(turn.content), 0);
  if (history > ask.max_history_length) {
    return {
      ok: false,
      status: 400,
      code: 'ask.limit',
      limit: 'ai.ask.max_history_length',
      message: `The earlier turns of this conversation hold ${history} characters; ai.ask.max_history_length allows ${ask.max_history_length}. Start a new conversation.`,
    };
  }
  return { ok: true, messages: turns };
}

/** The UTC day of an instant, `2026-11-26`: the daily budget's period. */
export function budgetDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

function secondsToNextUtcDay(now: number): number {
  const next = new Date(now);
  next.setUTCHours(24, 0, 0, 0);
  return Math.max(1, Math.ceil((next.getTime() - now) / 1000));
}

/** A question's place in its set's daily budget, held from the moment it is accepted. */
export interface BudgetPlace {
  /**
   * The question got no answer (every provider failed or stayed silent before writing, or the
   * reader left first): gives its place in `ai.ask.daily_budget` back. Only the first call counts.
   */
  giveBack(): Promise<void>;
}

/**
 * Counts one question against the reader's rate limit (`ai.ask.rate_limit`, per reader per set)
 * and takes a place for it in the set's daily budget (`ai.ask.daily_budget` answers per UTC day;
 * null is no cap), in the shared store so every server process counts the same. The budget counts
 * answers: the caller gives the place back with {@link BudgetPlace.giveBack} when no answer comes,
 * and a question refused here takes no place. Holding the place from the start, rather than
 * counting once answered, keeps questions asked at the same moment from overrunning the budget.
 *
 * @example
 * const verdict = await countQuestion({ store, set: 'docs', caller: 'ip:203.0.113.9', ask, now: Date.now() });
 * if (verdict.ok && !answered) await verdict.giveBack();
 */
export async function countQuestion(input: {
  store: RateLimitStore;
  set: string;
  /** `user:<id>` for a signed-in reader, else `ip:<address>`. */
  caller: string;
  ask: AskSettings;
  now: number;
}): Promise<({ ok: true } & BudgetPlace) | AskRefusal> {
  const { store, set, caller, ask, now } = input;
  const rule = parseRateLimit(ask.rate_limit, 'ai.ask.rate_limit');
  const verdict = await checkRateLimit(store, `ask:${set}:${caller}`, rule, now);
  if (!verdict.allowed) {
    const minutes = rule.windowMs / 60_000;
    return {
      ok: false,
      status: 429,
      code: 'rate_limited',
      retryAfterSeconds: verdict.retryAfterSeconds,
      message: `You asked ${rule.max} questions in ${minutes === 1 ? 'a minute' : `${minutes} minutes`}, the most ai.ask.rate_limit allows. Ask again in ${verdict.retryAfterSeconds} seconds.`,
    };
  }
  if (ask.daily_budget === null) return { ok: true, giveBack: async () => undefined };
  const retryAfterSeconds = secondsToNextUtcDay(now);
  // One key per set and UTC day: tomorrow's key starts at zero. It lives a little past its day.
  const key = `ask-budget:${set}:${budgetDay(now)}`;
  const spent = await store.hit(key, (retryAfterSeconds + 3600) * 1000);
  if (spent.count > ask.daily_budget) {
    await store.undo(key);
    return {
      ok: false,
      status: 429,
      code: 'ask.daily_budget',
      retryAfterSeconds,
      message: `Ask AI has given all ${ask.daily_budget} answers these docs allow today (ai.ask.daily_budget). Try again tomorrow; search still works.`,
    };
  }
  let given = false;
  return {
    ok: true,
    giveBack: async () => {
      if (given) return;
      given = true;
      await store.undo(key);
    },
  };
}
